// The baseline bench:stories measures the story clusterer against: the textbook single-pass TF-IDF
// clustering (Allan et al., "On-line new event detection and tracking", 1998, without its time decay).
// Each article, in arrival order, becomes a tf-idf vector of its headline and lead words (the
// clusterer's own tokenizer, and idf over the articles seen so far, so the comparison is of the
// method, not of the word handling); it joins the cluster whose centroid is most cosine-similar when
// that similarity reaches the threshold, else opens a cluster. No entities, no time window, no merges.
import { storyWords } from '../../../services/stories/story-text.ts';
import { TermStatistics } from '../../../services/stories/term-statistics.ts';
import type { StoryArticle } from '../../../services/stories/story-vector.ts';

export function singlePassClusters(
  articles: readonly StoryArticle[],
  threshold: number,
): Map<string, string> {
  const statistics = new TermStatistics();
  const centroids: Map<string, number>[] = [];
  const norms: number[] = [];
  const index = new Map<string, Set<number>>();
  const assigned = new Map<string, string>();

  for (const article of articles) {
    const tf = new Map<string, number>();
    for (const w of [
      ...storyWords(article.title, article.language),
      ...storyWords(article.lead.slice(0, 600), article.language),
    ])
      tf.set(w, (tf.get(w) ?? 0) + 1);
    const vector = new Map<string, number>();
    let norm = 0;
    for (const [term, count] of tf) {
      const weight = count * statistics.idf(term);
      vector.set(term, weight);
      norm += weight * weight;
    }
    norm = Math.sqrt(norm);
    if (norm > 0) for (const [term, weight] of vector) vector.set(term, weight / norm);

    const dots = new Map<number, number>();
    for (const [term, weight] of vector)
      for (const c of index.get(term) ?? [])
        dots.set(c, (dots.get(c) ?? 0) + weight * centroids[c]!.get(term)!);
    let best = -1;
    let bestSimilarity = 0;
    for (const [c, dot] of dots) {
      const similarity = dot / norms[c]!;
      if (similarity > bestSimilarity || (similarity === bestSimilarity && c < best)) {
        best = c;
        bestSimilarity = similarity;
      }
    }
    let cluster = best;
    if (best < 0 || bestSimilarity < threshold) {
      cluster = centroids.length;
      centroids.push(new Map());
      norms.push(0);
    }
    const centroid = centroids[cluster]!;
    let squares = norms[cluster]! ** 2;
    for (const [term, weight] of vector) {
      const before = centroid.get(term) ?? 0;
      centroid.set(term, before + weight);
      squares += (before + weight) ** 2 - before ** 2;
      let clusters = index.get(term);
      if (!clusters) index.set(term, (clusters = new Set()));
      clusters.add(cluster);
    }
    norms[cluster] = Math.sqrt(squares);
    statistics.add(tf.keys());
    assigned.set(article.id, String(cluster));
  }
  return assigned;
}
