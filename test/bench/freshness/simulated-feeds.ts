// The feeds of bench:freshness: a seeded population of publishers at realistic, varied paces, and each
// feed as its server would answer at a moment of simulated time (the RSS of its latest items, its ETag,
// its Cache-Control). Nothing here polls; ./simulation.ts does.
//
// The population (an assumption, stated in docs/benchmarks.md): mean gaps between publications are
// log-normal, median 8 h, σ 1.5, clamped to [2 min, 7 days]: a few feeds publish every few minutes,
// most a few times a day, a quarter less than daily. Each publishes as a Poisson process whose rate
// follows the day in the publisher's time zone (1 + 0.7·cos, busiest at 14:00 local, a third at night;
// 60% of feeds in Europe, 30% in the Americas, 10% in Asia). 10% publish in batches of 2-6 items at
// once; 5% give their items no date. A feed holds its latest 30 items. Hints as publishers give them:
// 30% say sy:updatePeriod hourly (WordPress's default), 10% a ttl of 15-60 min, 20% Cache-Control
// max-age=300, 5% no-cache; 5% of feeds are flaky (one request in ten fails with a 503, half of those
// with Retry-After: 300).
import type { FetchOutcome, FetchRequest } from '../../../services/feeds/fetcher/feed-fetcher.ts';

const minute = 60_000;
const hour = 60 * minute;
const day = 24 * hour;

export const feedWindow = 30;

export interface SimulatedFeed {
  index: number;
  url: string;
  /** Mean gap between publications (ms), before the day's rhythm. */
  meanGapMs: number;
  /** Publication time (ms) of every item, oldest first; an item's number is its position here. */
  published: number[];
  dated: boolean;
  ttlMinutes: number | null;
  syHourly: boolean;
  /** Cache-Control: max-age in ms, 0 for no-cache, null for none. */
  freshForMs: number | null;
  /** Share of requests answered 503. */
  failureRate: number;
}

/** Normal deviates from uniform ones (Box-Muller). */
const gaussian = (random: () => number) =>
  Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());

/**
 * `count` feeds, each with its publications from well before `from` (a full window at the start, as a
 * feed that has existed for a while) to `until`.
 */
export function simulatedFeeds(
  count: number,
  random: () => number,
  from: number,
  until: number,
): SimulatedFeed[] {
  return Array.from({ length: count }, (_, index) => {
    const meanGapMs = Math.min(7 * day, Math.max(2 * minute, 8 * hour * Math.exp(1.5 * gaussian(random))));
    const zone = random();
    const utcOffsetHours = zone < 0.6 ? 1 : zone < 0.9 ? -6 : 8;
    const batch = random() < 0.1 ? 2 + Math.floor(random() * 5) : 1;
    const published: number[] = [];
    // Thinning: candidate events at the busiest rate, each kept in proportion to the rate of its hour.
    const peak = 1.7;
    const rhythm = (at: number) => {
      const localHour = (((at / hour + utcOffsetHours) % 24) + 24) % 24;
      return 1 + 0.7 * Math.cos((2 * Math.PI * (localHour - 14)) / 24);
    };
    let at = from - Math.max(day, 3 * feedWindow * meanGapMs);
    for (;;) {
      at += (-Math.log(1 - random()) * meanGapMs * batch) / peak;
      if (at > until) break;
      if (random() * peak < rhythm(at))
        for (let k = 0; k < batch; k++) published.push(Math.floor(at / 1000) * 1000);
    }
    const hints = random();
    const cache = random();
    return {
      index,
      url: `https://feed-${index}.bench.example/rss`,
      meanGapMs,
      published,
      dated: random() >= 0.05,
      ttlMinutes: hints < 0.1 ? 15 * (1 + Math.floor(random() * 4)) : null,
      syHourly: hints >= 0.1 && hints < 0.4,
      freshForMs: cache < 0.2 ? 5 * minute : cache < 0.25 ? 0 : null,
      failureRate: random() < 0.05 ? 0.1 : 0,
    };
  });
}

/** The item number an item's guid names (`f<feed>-<item>`), as the poller appends it. */
export function itemOfGuid(guid: string | null): { feed: number; item: number } | null {
  const match = /^f(\d+)-(\d+)$/.exec(guid ?? '');
  return match ? { feed: Number(match[1]), item: Number(match[2]) } : null;
}

/** How many of the feed's items are published at `at`: the feed holds the last `feedWindow` of them. */
export function publishedBy(feed: SimulatedFeed, at: number): number {
  let low = 0;
  let high = feed.published.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (feed.published[middle]! <= at) low = middle + 1;
    else high = middle;
  }
  return low;
}

/**
 * The feed's server at `at`: a 503 now and then for a flaky feed, a 304 when the client's ETag is the
 * current one, else the RSS of the latest `feedWindow` items.
 */
export function answer(
  feed: SimulatedFeed,
  request: FetchRequest,
  at: number,
  random: () => number,
): FetchOutcome {
  if (random() < feed.failureRate)
    return {
      kind: 'failed',
      status: 503,
      reason: 'HTTP 503 Service Unavailable',
      retryAfterMs: random() < 0.5 ? 5 * minute : null,
      durationMs: 0,
    };
  const count = publishedBy(feed, at);
  const etag = `"${count}"`;
  const hints = { freshForMs: feed.freshForMs, hubs: [], selfUrl: null };
  if (request.etag === etag)
    return {
      kind: 'not_modified',
      status: 304,
      etag,
      lastModified: null,
      finalUrl: feed.url,
      redirectStatuses: [],
      durationMs: 0,
      hints,
    };
  return {
    kind: 'ok',
    status: 200,
    body: new TextEncoder().encode(rss(feed, count)),
    contentType: 'application/rss+xml',
    etag,
    lastModified: null,
    finalUrl: feed.url,
    redirectStatuses: [],
    durationMs: 0,
    hints,
  };
}

function rss(feed: SimulatedFeed, count: number): string {
  const items: string[] = [];
  for (let k = count - 1; k >= Math.max(0, count - feedWindow); k--)
    items.push(
      `<item><guid isPermaLink="false">f${feed.index}-${k}</guid><title>Feed ${feed.index} story ${k}</title>` +
        `<link>https://feed-${feed.index}.bench.example/story/${k}</link>` +
        (feed.dated ? `<pubDate>${new Date(feed.published[k]!).toUTCString()}</pubDate>` : '') +
        `<description>What happened in story ${k} of feed ${feed.index}.</description></item>`,
    );
  const hints =
    (feed.ttlMinutes === null ? '' : `<ttl>${feed.ttlMinutes}</ttl>`) +
    (feed.syHourly
      ? '<sy:updatePeriod>hourly</sy:updatePeriod><sy:updateFrequency>1</sy:updateFrequency>'
      : '');
  return (
    `<?xml version="1.0" encoding="UTF-8"?><rss version="2.0" xmlns:sy="http://purl.org/rss/1.0/modules/syndication/">` +
    `<channel><title>Feed ${feed.index}</title><link>https://feed-${feed.index}.bench.example/</link>` +
    `<language>en</language>${hints}${items.join('')}</channel></rss>`
  );
}
