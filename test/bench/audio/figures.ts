// bench:audio's arithmetic: what one timed run of a side gives, the totals over a side's runs, the
// pipeline/baseline ratio, and latency percentiles.
import { percentile } from '../webhooks/figures.ts';

/** One side speaking one block of texts. */
export interface SideRun {
  side: string;
  block: number;
  articles: number;
  wallSeconds: number;
  /** Seconds of audio produced. */
  audioSeconds: number;
  cpuSeconds: number;
}

export interface Totals {
  articles: number;
  wallSeconds: number;
  audioSeconds: number;
  cpuSeconds: number;
  articlesPerSecond: number;
  /** Seconds of audio per second of wall time. */
  realTimeFactor: number;
  cpuPerArticle: number;
}

export function totals(runs: readonly SideRun[]): Totals {
  const sum = (pick: (r: SideRun) => number) => runs.reduce((s, r) => s + pick(r), 0);
  const articles = sum((r) => r.articles);
  const wallSeconds = sum((r) => r.wallSeconds);
  const audioSeconds = sum((r) => r.audioSeconds);
  const cpuSeconds = sum((r) => r.cpuSeconds);
  return {
    articles,
    wallSeconds,
    audioSeconds,
    cpuSeconds,
    articlesPerSecond: wallSeconds > 0 ? articles / wallSeconds : Number.NaN,
    realTimeFactor: wallSeconds > 0 ? audioSeconds / wallSeconds : Number.NaN,
    cpuPerArticle: articles > 0 ? cpuSeconds / articles : Number.NaN,
  };
}

/**
 * Pipeline throughput as a share of the baseline's on the same texts: > 1 is faster than the bare
 * engine. Articles per second, not audio seconds, so that the two sides' slightly different audio
 * lengths (the narrator trims silence and sets its own pauses) do not enter.
 */
export const throughputRatio = (pipeline: Totals, baseline: Totals): number =>
  pipeline.articlesPerSecond / baseline.articlesPerSecond;

export interface Latencies {
  count: number;
  p50: number;
  p90: number;
  min: number;
  max: number;
}

export function latencies(ms: readonly number[]): Latencies {
  const sorted = [...ms].sort((a, b) => a - b);
  return {
    count: sorted.length,
    p50: percentile(sorted, 50),
    p90: percentile(sorted, 90),
    min: sorted[0] ?? Number.NaN,
    max: sorted.at(-1) ?? Number.NaN,
  };
}

/** Block `block`'s order of the sides: rotated by one each block, so each side goes first in turn. */
export function rotation<T>(sides: readonly T[], block: number): T[] {
  const shift = sides.length === 0 ? 0 : block % sides.length;
  return [...sides.slice(shift), ...sides.slice(0, shift)];
}

/** `items` cut into consecutive blocks of `size` (the last may be shorter). */
export function blocks<T>(items: readonly T[], size: number): T[][] {
  const result: T[][] = [];
  for (let i = 0; i < items.length; i += size) result.push(items.slice(i, i + size));
  return result;
}
