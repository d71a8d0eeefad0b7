// Newest first, newest window first: a list sorted by publication time needs only its newest matching
// articles, and `articles` is ordered by time, so a page is read from the most recent slice of the
// archive that holds it. The slice starts small and widens until the page is full or the slice is the
// whole archive; each step reads one range of the primary key, so the common requests (the newest
// articles, optionally filtered) cost what their window holds, not what the archive holds.
//
// Exact, not approximate: the window [start, ∞) holds every matching article newer than `start`, so when
// it yields `offset + limit + 1` of them the page is the page of the whole archive. A window that yields
// fewer is widened; the last has no bound.

import type { DateRange } from '../http/date-range.ts';

const hour = 3_600_000;
const day = 24 * hour;

/** The spans tried, in order, before the archive as a whole. */
export const windowSpans = [6 * hour, 2 * day, 14 * day, 90 * day, 2 * 365 * day] as const;

/**
 * The spans for a list of a few sources, whose articles are a short range of their own in `article_list`
 * (a source publishes tens a day where the whole catalog publishes thousands): narrow windows would
 * mostly come back short, each costing a read.
 */
export const narrowSpans = [90 * day, 2 * 365 * day] as const;

/**
 * The lower bounds (ms) to read from, newest window first, ending with null (no bound). `reference` is
 * the newest time the list can show (now, the cursor's time, or the date range's end); `floor` the date
 * range's own start, below which no window needs to reach.
 */
export function windowStarts(
  reference: number,
  floor: number | null = null,
  spans: readonly number[] = windowSpans,
): (number | null)[] {
  const starts: (number | null)[] = [];
  for (const span of spans) {
    const start = reference - span;
    if (floor !== null && start <= floor) break;
    starts.push(start);
  }
  starts.push(null);
  return starts;
}

/**
 * Reads `read(start)` for each start in turn until one returns more than `needed` rows (the page is
 * full and one more shows there are more) or the reads had no bound.
 */
export async function readNewestFirst<T>(
  starts: readonly (number | null)[],
  needed: number,
  read: (start: number | null) => Promise<T[]>,
): Promise<T[]> {
  for (const start of starts) {
    const rows = await read(start);
    if (start === null || rows.length > needed) return rows;
  }
  return [];
}

/**
 * The windows of a list filtered by `dateRange`: the newest time it can show is the earliest of `now`,
 * the range's end and `before` (a cursor's time), and none reaches below the range's start.
 */
export function listWindows(
  dateRange: DateRange | undefined,
  now: number,
  before = Infinity,
  spans: readonly number[] = windowSpans,
): (number | null)[] {
  const reference = Math.min(now, dateRange?.to?.getTime() ?? Infinity, before);
  return windowStarts(reference, dateRange?.from?.getTime() ?? null, spans);
}

/** The filter with its date range starting at the window's start (unchanged for the unbounded read). */
export function inWindow<F extends { dateRange?: DateRange }>(filter: F, start: number | null): F {
  return start === null
    ? filter
    : { ...filter, dateRange: { from: new Date(start), to: filter.dateRange?.to ?? null } };
}
