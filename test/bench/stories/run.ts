// npm run bench:stories -- <data set> [--articles N] [--from K] — how well the story clusterer puts
// articles about the same event together, against labelled stories, beside the single-pass TF-IDF
// baseline (a benchmark, not a test; exit code 0 either way, 2 without a data set).
// It runs in a namespace of its own, as every benchmark does (../support/bench-namespace.ts), though it
// touches neither Kafka, ClickHouse nor Redis: everything happens in this process.
//
// The data set is not in the repository (docs/benchmarks.md says where to get it): the UCI News
// Aggregator data set (CSV or the original tab-separated file) or JSON Lines (labelled-stories.ts).
// Of its articles in time order, N from the K-th are taken (default 20,000 from 0), their entities and
// keywords found by the embedded enrichment (as the enricher would), and the slice cut in two halves:
// settings are tuned on the first (dev) and scored on the second (test), so the figures are not fitted
// to the articles they are measured on. The baseline's threshold is swept on the test half itself and
// its best is reported: the comparison is against the baseline at its best.
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { extractTerms } from '../../../services/intelligence/embedded/terms.ts';
import {
  defaultClusteringSettings,
  StoryClusterer,
  type ClusteringSettings,
} from '../../../services/stories/story-clusterer.ts';
import type { StoryArticle } from '../../../services/stories/story-vector.ts';
import { scoreClustering, type ClusteringScores } from './clustering-scores.ts';
import { readLabelledStories } from './labelled-stories.ts';
import { singlePassClusters } from './single-pass-baseline.ts';

const log = (line = '') => process.stdout.write(`${line}\n`);

export default async function stories(): Promise<number> {
  const args = process.argv.slice(2);
  const option = (name: string, fallback: number) => {
    const i = args.indexOf(`--${name}`);
    return i >= 0 ? Number(args[i + 1]) : fallback;
  };
  const path =
    args.find((a, i) => !a.startsWith('--') && !args[i - 1]?.startsWith('--')) ?? process.env.STORIES_DATASET;
  if (!path) {
    log('usage: npm run bench:stories -- <labelled data set> [--articles N] [--from K]');
    log('The data set is not shipped; docs/benchmarks.md ("Stories") says where to get one.');
    return 2;
  }
  const count = option('articles', 20_000);
  const from = option('from', 0);
  const load = () =>
    loadavg()
      .map((x) => x.toFixed(2))
      .join(' ');

  log(`bench:stories  ${new Date().toISOString()}  load average ${load()}`);
  const started = performance.now();
  const all = readLabelledStories(path);
  const slice = all.slice(from, from + count);
  log(
    `read ${all.length} labelled articles from ${path} in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
  describe('slice', slice);

  // The enricher's part, done once: entities and keywords from the headline and lead.
  const enrichStart = performance.now();
  // A headline-only data set gives the headline as the text too, as the poller does for an item without
  // a description.
  const byId = new Map(slice.map((l) => [l.article.id, l]));
  const articles: StoryArticle[] = slice.map(({ article }) => {
    const { entities, keywords } = extractTerms({
      title: article.title,
      text: article.lead || article.title,
      language: article.language,
    });
    return { ...article, entities, keywords };
  });
  const enrichSeconds = (performance.now() - enrichStart) / 1000;
  log(
    `entities and keywords (embedded enrichment): ${(articles.length / enrichSeconds).toFixed(0)} articles/s`,
  );

  const truth = new Map(slice.map((l) => [l.article.id, l.story]));
  const results = [
    evaluate("as collected (the data set's own time order)", articles),
    evaluate('interleaved (seeded shuffle, times spread evenly over the same span)', interleave(articles)),
  ];

  // Throughput of the story processor's own work (decide + apply) on one core, the interleaved test half
  // replayed three times; the single-pass baseline at its best threshold alongside, as the ratio's
  // reference.
  const { test, tuned, baselineThreshold } = results[1]!;
  const rates: number[] = [];
  const baselineRates: number[] = [];
  for (let run = 0; run < 3; run += 1) {
    let t = performance.now();
    cluster(test, tuned);
    rates.push(test.length / ((performance.now() - t) / 1000));
    t = performance.now();
    singlePassClusters(test, baselineThreshold);
    baselineRates.push(test.length / ((performance.now() - t) / 1000));
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[1]!;
  log(
    `\nthroughput on one core (median of 3): story clusterer ${median(rates).toFixed(0)} articles/s, ` +
      `baseline ${median(baselineRates).toFixed(0)} articles/s, ratio ${(median(rates) / median(baselineRates)).toFixed(2)}; ` +
      `load average ${load()}`,
  );
  log('\nsummary (test halves, BCubed F1):');
  for (const r of results)
    log(
      `  ${r.order}: clusterer ${r.ours.toFixed(3)}, baseline at best ${r.baseline.toFixed(3)}, ratio ${(r.ours / r.baseline).toFixed(3)}`,
    );
  return 0;

  function evaluate(order: string, stream: StoryArticle[]) {
    log(`\n== ${order}`);
    const half = Math.floor(stream.length / 2);
    const dev = stream.slice(0, half);
    const test = stream.slice(half);
    const part = (xs: StoryArticle[]) => xs.map((a) => ({ ...byId.get(a.id)!, article: a }));
    describe('dev half', part(dev));
    describe('test half', part(test));

    // Tuning on the dev half: the join threshold and the window, the settings the data decides most.
    const thresholds = [0.05, 0.08, 0.1, 0.15, 0.2, 0.25, 0.3];
    const windows = [24, 48, 96];
    let tuned = defaultClusteringSettings;
    let tunedF1 = -1;
    log('tuning on the dev half (BCubed F1):');
    log(`  window h \\ threshold  ${thresholds.map((t) => t.toFixed(2).padStart(6)).join('')}`);
    for (const windowHours of windows) {
      const cells: string[] = [];
      for (const joinThreshold of thresholds) {
        const settings = { ...defaultClusteringSettings, joinThreshold, windowHours };
        const f1 = scoreClustering(cluster(dev, settings), truth).bcubed.f1;
        cells.push(f1.toFixed(3).padStart(6));
        if (f1 > tunedF1) [tuned, tunedF1] = [settings, f1];
      }
      log(`  ${String(windowHours).padStart(8)}              ${cells.join('')}`);
    }
    log(`  best: threshold ${tuned.joinThreshold}, window ${tuned.windowHours} h`);

    const baselineThresholds = Array.from(
      { length: 12 },
      (_, i) => Math.round((0.025 + i * 0.025) * 1000) / 1000,
    );
    const baselineRuns = baselineThresholds.map((threshold) => ({
      threshold,
      scores: scoreClustering(singlePassClusters(test, threshold), truth),
    }));
    const baselineBest = baselineRuns.reduce((a, b) => (b.scores.bcubed.f1 > a.scores.bcubed.f1 ? b : a));
    log('single-pass TF-IDF baseline on the test half (BCubed F1 by threshold):');
    log(`  ${baselineRuns.map((r) => `${r.threshold}:${r.scores.bcubed.f1.toFixed(3)}`).join('  ')}`);

    const rows: [string, ClusteringScores][] = [
      [
        `story clusterer, tuned on dev (t=${tuned.joinThreshold}, ${tuned.windowHours} h)`,
        scoreClustering(cluster(test, tuned), truth),
      ],
      [
        `story clusterer, defaults (t=${defaultClusteringSettings.joinThreshold}, ${defaultClusteringSettings.windowHours} h)`,
        scoreClustering(cluster(test, defaultClusteringSettings), truth),
      ],
      [`single-pass TF-IDF, best threshold on test (t=${baselineBest.threshold})`, baselineBest.scores],
    ];
    log(`scores on the test half (${test.length} articles):`);
    log(
      '  method                                                   BCubed P    R     F1  | pairwise P   R     F1  | clusters',
    );
    for (const [name, s] of rows)
      log(
        `  ${name.padEnd(56)} ${f(s.bcubed.precision)} ${f(s.bcubed.recall)} ${f(s.bcubed.f1)} |    ${f(s.pairwise.precision)} ${f(s.pairwise.recall)} ${f(s.pairwise.f1)} | ${s.clusters} (true ${s.stories})`,
      );
    return {
      order,
      test,
      tuned,
      baselineThreshold: baselineBest.threshold,
      ours: rows[0]![1].bcubed.f1,
      baseline: baselineBest.scores.bcubed.f1,
    };
  }
}

function cluster(stream: readonly StoryArticle[], settings: ClusteringSettings): Map<string, string> {
  const clusterer = new StoryClusterer(settings);
  for (const article of stream) for (const event of clusterer.decide(article)) clusterer.apply(event);
  return new Map(stream.map((a) => [a.id, clusterer.storyOf(a.id)!]));
}

/**
 * The same articles as a live stream would mix them: in the data set each story's articles sit
 * together (its timestamps are when the aggregator collected a story), so its own order hands the
 * clusterer one story at a time. A seeded shuffle, with the times spread evenly over the same span,
 * has every story running at once: a construct of ours, and the harder test.
 */
function interleave(stream: readonly StoryArticle[]): StoryArticle[] {
  let seed = 20_140_310;
  const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648;
  const mixed = [...stream];
  for (let i = mixed.length - 1; i > 0; i -= 1) {
    const j = Math.floor(random() * (i + 1));
    [mixed[i], mixed[j]] = [mixed[j]!, mixed[i]!];
  }
  const first = stream[0]?.at ?? 0;
  const span = (stream[stream.length - 1]?.at ?? first) - first;
  return mixed.map((a, i) => ({ ...a, at: first + Math.round((i / Math.max(1, mixed.length - 1)) * span) }));
}

function describe(name: string, part: readonly { story: string; outlet: string; article: { at: number } }[]) {
  const stories = new Map<string, number>();
  for (const l of part) stories.set(l.story, (stories.get(l.story) ?? 0) + 1);
  const outlets = new Set(part.map((l) => l.outlet)).size;
  const span = part.length ? (part[part.length - 1]!.article.at - part[0]!.article.at) / 86_400_000 : 0;
  const singletons = [...stories.values()].filter((n) => n === 1).length;
  log(
    `${name}: ${part.length} articles, ${stories.size} stories (${singletons} of one article), ${outlets} outlets, ` +
      `${span.toFixed(1)} days from ${part[0] ? new Date(part[0].article.at).toISOString().slice(0, 10) : '-'}`,
  );
}

function f(x: number): string {
  return x.toFixed(3).padStart(5);
}
