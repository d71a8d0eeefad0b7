// How well a clustering matches the labelled stories: BCubed (per article: of the articles in its
// cluster, the share in its true story; of its true story, the share in its cluster; averaged over the
// articles) and pairwise (over every pair of articles: put together and truly together). BCubed is the
// one that satisfies the formal constraints of Amigó et al. (2009); pairwise is what most news
// clustering papers also report, and it weighs big stories quadratically.

export interface Scores {
  precision: number;
  recall: number;
  f1: number;
}

export interface ClusteringScores {
  bcubed: Scores;
  pairwise: Scores;
  clusters: number;
  stories: number;
  articles: number;
}

/** `predicted` and `truth` map each article to its cluster and its true story; only shared ids count. */
export function scoreClustering(
  predicted: ReadonlyMap<string, string>,
  truth: ReadonlyMap<string, string>,
): ClusteringScores {
  const cell = new Map<string, number>();
  const clusterSize = new Map<string, number>();
  const storySize = new Map<string, number>();
  let n = 0;
  for (const [id, story] of truth) {
    const cluster = predicted.get(id);
    if (cluster === undefined) continue;
    n += 1;
    const key = `${cluster}\u0000${story}`;
    cell.set(key, (cell.get(key) ?? 0) + 1);
    clusterSize.set(cluster, (clusterSize.get(cluster) ?? 0) + 1);
    storySize.set(story, (storySize.get(story) ?? 0) + 1);
  }
  if (n === 0) throw new Error('no article is both clustered and labelled');

  let bPrecision = 0;
  let bRecall = 0;
  let together = 0;
  for (const [key, count] of cell) {
    const [cluster, story] = key.split('\u0000') as [string, string];
    // Each of the `count` articles of this cell has `count` of its cluster in its story.
    bPrecision += (count * count) / clusterSize.get(cluster)!;
    bRecall += (count * count) / storySize.get(story)!;
    together += pairs(count);
  }
  const predictedPairs = sum([...clusterSize.values()].map(pairs));
  const truePairs = sum([...storySize.values()].map(pairs));
  return {
    bcubed: scores(bPrecision / n, bRecall / n),
    pairwise: scores(
      predictedPairs === 0 ? 1 : together / predictedPairs,
      truePairs === 0 ? 1 : together / truePairs,
    ),
    clusters: clusterSize.size,
    stories: storySize.size,
    articles: n,
  };
}

function scores(precision: number, recall: number): Scores {
  const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  return { precision, recall, f1 };
}

function pairs(k: number): number {
  return (k * (k - 1)) / 2;
}

function sum(xs: number[]): number {
  return xs.reduce((a, b) => a + b, 0);
}
