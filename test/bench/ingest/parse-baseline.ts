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

/** Articles parsed and the CPU and wall seconds their parses took. */
export interface ParseTally {
  /** Bodies parsed. */
  feeds: number;
  articles: number;
  cpuSeconds: number;
  wallSeconds: number;
}

export interface ParseBaseline extends ParseTally {
  /**
   * The same parses split three ways (they add up to the whole above): the first `warmup` bodies (the
   * warm-up, while V8 compiles the parser), the other bodies before `separateFrom`, and the bodies from
   * `separateFrom` on (the large feeds), so that the warm figure can take the large feeds or leave them
   * as the poller's warm span did.
   */
  warmup: ParseTally;
  warm: ParseTally;
  separate: ParseTally;
}

const cpuNow = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1e6;
};

const tally = (): ParseTally => ({ feeds: 0, articles: 0, cpuSeconds: 0, wallSeconds: 0 });

/** The sum of tallies: a rate over several parts of the run. */
export function sumTallies(...parts: readonly ParseTally[]): ParseTally {
  const sum = tally();
  for (const p of parts) {
    sum.feeds += p.feeds;
    sum.articles += p.articles;
    sum.cpuSeconds += p.cpuSeconds;
    sum.wallSeconds += p.wallSeconds;
  }
  return sum;
}

/**
 * Parses every body once, `chunk` bodies built at a time so that 10,000 feeds need not sit in memory
 * together; only the parses are timed, a run of bodies of the same part (warm-up, warm, separate) at a
 * time, as before the parts existed. Runs on the calling thread: one core.
 */
export function parseBaseline(
  count: number,
  bodyOf: (index: number) => ParseBody,
  contentType: string,
  {
    warmup = 0,
    separateFrom = count,
    chunk = 500,
  }: { warmup?: number; separateFrom?: number; chunk?: number } = {},
): ParseBaseline {
  const parts = { warmup: tally(), warm: tally(), separate: tally() };
  const partOf = (index: number) =>
    index >= separateFrom ? parts.separate : index < warmup ? parts.warmup : parts.warm;
  for (let start = 0; start < count; start += chunk) {
    const bodies = Array.from({ length: Math.min(chunk, count - start) }, (_, i) => bodyOf(start + i));
    // Runs of bodies of one part: the chunk is cut where the warm-up ends and the separate bodies start.
    for (let from = 0; from < bodies.length;) {
      const part = partOf(start + from);
      let to = from + 1;
      while (to < bodies.length && partOf(start + to) === part) to++;
      const cpu = cpuNow();
      const wall = performance.now();
      for (let i = from; i < to; i++) {
        const { body, url } = bodies[i]!;
        part.articles += parseFeed(body, contentType, { baseUrl: url }).items.length;
      }
      part.cpuSeconds += cpuNow() - cpu;
      part.wallSeconds += (performance.now() - wall) / 1000;
      part.feeds += to - from;
      from = to;
    }
  }
  return { ...sumTallies(parts.warmup, parts.warm, parts.separate), ...parts };
}

/** Two passes of parseBaseline over the same bodies as one: each part's tallies summed. */
export function combineBaselines(a: ParseBaseline, b: ParseBaseline): ParseBaseline {
  const parts = {
    warmup: sumTallies(a.warmup, b.warmup),
    warm: sumTallies(a.warm, b.warm),
    separate: sumTallies(a.separate, b.separate),
  };
  return { ...sumTallies(parts.warmup, parts.warm, parts.separate), ...parts };
}
