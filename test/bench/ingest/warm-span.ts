// The warm figures of bench:ingest (run.ts, "Warm-up" at its top): what counts on each side once the
// first BENCH_WARMUP_FEEDS feeds are left out.
import { sumTallies, type ParseBaseline, type ParseTally } from './parse-baseline.ts';

/** What the bench reads of a poll record. */
export interface PollCounts {
  source_id: string;
  started_at: number;
  new_items: number;
  updated_items: number;
}

export interface WarmSpan {
  /** Polls started at or after the warm span's start. */
  polls: number;
  articles: number;
  /** Large feeds among them. */
  largePolls: number;
  /** The parse-only loop's tally for the same kind of bodies: the small ones after its warm-up, and the
   * large ones in the share the poller's warm span took. */
  parse: ParseTally;
}

/** `from`: when the poller's warm span started (its clock, as poll records' started_at). */
export function warmSpan(
  polls: Iterable<PollCounts>,
  from: number,
  largeSourceIds: ReadonlySet<string>,
  baseline: Pick<ParseBaseline, 'warm' | 'separate'>,
): WarmSpan {
  let count = 0;
  let articles = 0;
  let largePolls = 0;
  for (const p of polls) {
    if (p.started_at < from) continue;
    count++;
    articles += p.new_items + p.updated_items;
    if (largeSourceIds.has(p.source_id)) largePolls++;
  }
  const share = largeSourceIds.size ? largePolls / largeSourceIds.size : 0;
  // The share of the large bodies the parse-only loop read, in every pass it made (two since 2026-12-01).
  const parse = sumTallies(baseline.warm, {
    feeds: baseline.separate.feeds * share,
    articles: baseline.separate.articles * share,
    cpuSeconds: baseline.separate.cpuSeconds * share,
    wallSeconds: baseline.separate.wallSeconds * share,
  });
  return { polls: count, articles, largePolls, parse };
}

/** CPU seconds of the threads in `now` that were not in `then` (per-thread CPU by thread id). */
export function threadsStartedSince(
  then: ReadonlyMap<string, number>,
  now: ReadonlyMap<string, number>,
): number {
  let seconds = 0;
  for (const [tid, cpu] of now) if (!then.has(tid)) seconds += cpu;
  return seconds;
}
