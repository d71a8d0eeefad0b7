// The floor of bench:ingest: the poller's parser alone over the bodies the bench serves, on one core.
// Whatever the poller spends beyond this per article goes to what surrounds the parse (HTTP, queueing,
// normalising, dedupe, encoding, producing, poll records), so the ratio of the two rates, each per CPU
// second, says how close the pipeline runs to its parse.
import { parseFeed } from '../../../services/feeds/parser/parse-feed.ts';

export interface ParseBody {
  /** The body as the poller receives it. */
  body: Uint8Array;
  /** Where it was fetched from: the poller passes its final URL as the parse's base URL. */
  url: string;
}

export interface ParseBaseline {
  feeds: number;
  articles: number;
  /** CPU seconds of the parses alone (building the bodies is not counted). */
  cpuSeconds: number;
  wallSeconds: number;
}

const cpuNow = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1e6;
};

/**
 * Parses every body once, `chunk` bodies built at a time so that 10,000 feeds need not sit in memory
 * together; only the parses are timed. Runs on the calling thread: one core.
 */
export function parseBaseline(
  count: number,
  bodyOf: (index: number) => ParseBody,
  contentType: string,
  chunk = 500,
): ParseBaseline {
  let articles = 0;
  let cpuSeconds = 0;
  let wallSeconds = 0;
  for (let start = 0; start < count; start += chunk) {
    const bodies = Array.from({ length: Math.min(chunk, count - start) }, (_, i) => bodyOf(start + i));
    const cpu = cpuNow();
    const wall = performance.now();
    for (const { body, url } of bodies)
      articles += parseFeed(body, contentType, { baseUrl: url }).items.length;
    cpuSeconds += cpuNow() - cpu;
    wallSeconds += (performance.now() - wall) / 1000;
  }
  return { feeds: count, articles, cpuSeconds, wallSeconds };
}
