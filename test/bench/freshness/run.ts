// npm run bench:freshness: how soon articles are found with adaptive polling, beside polling every feed
// at one fixed interval, at the same number of requests (issue 20). A simulated day over simulated feeds
// (./simulated-feeds.ts), in virtual time (./simulation.ts), twice on identical feeds: adaptive first,
// with the poller's default settings; then fixed, at the interval that spends as many requests
// (feeds × 1 day / the adaptive run's requests, rounded down). Target: the adaptive median delay from
// publication to news.articles.discovered.v1 at most half the fixed one, at no more requests. For
// reference, a third run polls every feed every 900 s (the bundled catalog's interval, polling as it
// was before adaptive polling). A benchmark, not a test: exit code 0 either way. BENCH_FEEDS (1000) and
// BENCH_SEED (1) set the run.
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import type { FeedPoll } from '../../../services/runtime/events/types.generated.ts';
import { defaultIntervalSettings, duration } from '../../../services/poller/poll-interval.ts';
import { mulberry32 } from '../../support/mulberry32.ts';
import { table } from '../quality/report.ts';
import { publishedBy, simulatedFeeds } from './simulated-feeds.ts';
import { simulate, type RunFigures } from './simulation.ts';

const log = (line = '') => process.stdout.write(`${line}\n`);
const dayMs = 86_400_000;
/** The interval of every source in the bundled catalog (services/sources/catalog/default.opml). */
const catalogSeconds = 900;

export default async function freshness(): Promise<number> {
  const feedCount = Number(process.env.BENCH_FEEDS ?? 1000);
  const seed = Number(process.env.BENCH_SEED ?? 1);
  if (!Number.isInteger(feedCount) || feedCount < 1 || !Number.isInteger(seed))
    throw new Error('BENCH_FEEDS must be a whole number of at least 1, BENCH_SEED a whole number');
  const load = () =>
    loadavg()
      .map((x) => x.toFixed(2))
      .join(' ');
  const started = performance.now();
  log(`bench:freshness  ${new Date().toISOString()}  seed ${seed}  load average ${load()}`);

  // A Monday in UTC, midnight to midnight.
  const day = { from: Date.UTC(2026, 10, 2), until: Date.UTC(2026, 10, 3) };
  const feeds = simulatedFeeds(feedCount, mulberry32(seed), day.from, day.until + dayMs);
  describePopulation(feeds, day);

  const adaptive = await timed('adaptive', () =>
    simulate(feeds, day, { intervals: defaultIntervalSettings, configuredSeconds: catalogSeconds }, seed),
  );
  const fixedSeconds = Math.floor((feedCount * dayMs) / 1000 / adaptive.requests);
  const fixed = await timed(`fixed, every ${fixedSeconds} s`, () =>
    simulate(
      feeds,
      day,
      { intervals: { ...defaultIntervalSettings, adaptive: false }, configuredSeconds: fixedSeconds },
      seed,
    ),
  );

  const catalog = await timed('fixed, every 900 s', () =>
    simulate(
      feeds,
      day,
      { intervals: { ...defaultIntervalSettings, adaptive: false }, configuredSeconds: catalogSeconds },
      seed,
    ),
  );

  const { minSeconds, maxSeconds } = defaultIntervalSettings;
  const minutes = (ms: number) => `${(ms / 60_000).toFixed(1)} min`;
  const row = (name: string, r: RunFigures) => [
    name,
    r.requests,
    `${r.byStatus.ok}/${r.byStatus.not_modified}/${r.byStatus.failed}`,
    r.delays.length,
    r.missed,
    (r.requests / r.delays.length).toFixed(2),
    minutes(quantile(r.delays, 0.5)),
    minutes(quantile(r.delays, 0.9)),
    minutes(r.delays.reduce((s, d) => s + d, 0) / r.delays.length),
  ];
  log();
  log(
    table(
      [
        'polling',
        'requests',
        'ok/304/failed',
        'found',
        'missed',
        'requests/article',
        'median',
        'p90',
        'mean',
      ],
      [
        row(`adaptive (√(gap × ${minSeconds} s), ${minSeconds} s to ${duration(maxSeconds)})`, adaptive),
        row(`fixed (every ${fixedSeconds} s)`, fixed),
        row(`for reference: fixed (every ${catalogSeconds} s)`, catalog),
      ],
    ),
  );
  describeIntervals(adaptive.lastPolls);

  const ratio = (p: number) => quantile(adaptive.delays, p) / quantile(fixed.delays, p);
  const passed = ratio(0.5) <= 0.5 && adaptive.requests <= fixed.requests;
  log();
  log(
    `adaptive / fixed: median ${ratio(0.5).toFixed(2)}, p90 ${ratio(0.9).toFixed(2)}, ` +
      `requests ${(adaptive.requests / fixed.requests).toFixed(3)}, ` +
      `requests per article ${(adaptive.requests / adaptive.delays.length / (fixed.requests / fixed.delays.length)).toFixed(2)}`,
  );
  log(
    `${passed ? 'PASS' : 'FAIL'}: target adaptive median <= 0.5 x fixed at no more requests ` +
      `(median ${minutes(quantile(adaptive.delays, 0.5))} vs ${minutes(quantile(fixed.delays, 0.5))}, ` +
      `${adaptive.requests} vs ${fixed.requests} requests)`,
  );
  log(`wall time ${((performance.now() - started) / 1000).toFixed(1)} s, load average ${load()}`);
  return 0;
}

async function timed<T>(name: string, run: () => Promise<T>): Promise<T> {
  const started = performance.now();
  const result = await run();
  log(`  ran ${name} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return result;
}

function quantile(sorted: readonly number[], p: number): number {
  return sorted.length === 0
    ? Number.NaN
    : sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
}

/** The feeds by pace: how many, and how many of the day's articles they publish. */
function describePopulation(
  feeds: ReturnType<typeof simulatedFeeds>,
  day: { from: number; until: number },
): void {
  const bands: [string, number][] = [
    ['under 15 min', 15 * 60_000],
    ['15 min to 2 h', 2 * 3_600_000],
    ['2 h to 1 day', dayMs],
    ['1 day or more', Number.POSITIVE_INFINITY],
  ];
  const rows = bands.map(([name, below], i) => {
    const inBand = feeds.filter((f) => f.meanGapMs < below && (i === 0 || f.meanGapMs >= bands[i - 1]![1]));
    const articles = inBand.reduce(
      (n, f) => n + publishedBy(f, day.until - 1) - publishedBy(f, day.from - 1),
      0,
    );
    return { name, feeds: inBand.length, articles };
  });
  const total = rows.reduce((n, r) => n + r.articles, 0);
  log(
    `${feeds.length} simulated feeds, one simulated day in virtual time; ${total} articles published in the day`,
  );
  log(
    table(
      ['mean gap between items', 'feeds', 'articles in the day', 'share'],
      rows.map((r) => [r.name, r.feeds, r.articles, `${((100 * r.articles) / total).toFixed(0)}%`]),
    ),
  );
}

/** The intervals the adaptive run gave at each feed's last poll of the day, and why. */
function describeIntervals(polls: readonly FeedPoll[]): void {
  const seconds = polls.map((p) => p.poll_interval_seconds!).sort((a, b) => a - b);
  const kinds = new Map<string, number>();
  const kindOf: [RegExp, string][] = [
    [/^median gap/, 'publishing pace'],
    [/^no new item/, 'publishing pace, stretched by a silence'],
    [/^publisher's ttl/, "publisher's ttl (a floor)"],
    [/^response fresh/, 'Cache-Control/Expires (a floor)'],
    [/sy:updatePeriod/, 'sy:updatePeriod (no pace known)'],
    [/^configured/, 'configured interval (no pace known)'],
  ];
  for (const poll of polls) {
    const reason = poll.interval_reason ?? '';
    const kind = kindOf.find(([pattern]) => pattern.test(reason))?.[1] ?? reason;
    const bound = reason.endsWith(', raised to the minimum')
      ? ', at the minimum'
      : reason.endsWith(', capped at the maximum')
        ? ', at the maximum'
        : '';
    kinds.set(kind + bound, (kinds.get(kind + bound) ?? 0) + 1);
  }
  log();
  log(
    `adaptive intervals at each feed's last poll of the day: p10 ${duration(quantile(seconds, 0.1))}, ` +
      `median ${duration(quantile(seconds, 0.5))}, p90 ${duration(quantile(seconds, 0.9))}; why:`,
  );
  log(
    table(
      ['reason', 'feeds'],
      [...kinds].sort((a, b) => b[1] - a[1]),
    ),
  );
}
