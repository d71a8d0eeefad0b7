// From what was sent (delivery id → the alert's occurred_at) and what arrived (delivery id → arrival
// times), the figures of one phase: how many arrived, missing and duplicated, the span of the arrivals,
// and each delivery's latency (its first arrival − the alert's occurred_at).

export interface DeliveryFigures {
  expected: number;
  /** Distinct expected ids that arrived at least once. */
  delivered: number;
  missing: number;
  /** Arrivals beyond the first of an id (at-least-once allows them; a clean run has none). */
  duplicates: number;
  /** Epoch ms of the first and last first-arrivals (NaN when nothing arrived). */
  firstArrival: number;
  lastArrival: number;
  /** Milliseconds, ascending. */
  latencies: number[];
}

export function deliveryFigures(
  expected: ReadonlyMap<string, number>,
  arrivals: ReadonlyMap<string, readonly number[]>,
): DeliveryFigures {
  const latencies: number[] = [];
  let duplicates = 0;
  let firstArrival = Number.POSITIVE_INFINITY;
  let lastArrival = Number.NEGATIVE_INFINITY;
  for (const [id, occurredAt] of expected) {
    const times = arrivals.get(id);
    if (!times || times.length === 0) continue;
    duplicates += times.length - 1;
    const first = Math.min(...times);
    firstArrival = Math.min(firstArrival, first);
    lastArrival = Math.max(lastArrival, first);
    latencies.push(first - occurredAt);
  }
  latencies.sort((a, b) => a - b);
  const delivered = latencies.length;
  return {
    expected: expected.size,
    delivered,
    missing: expected.size - delivered,
    duplicates,
    firstArrival: delivered > 0 ? firstArrival : Number.NaN,
    lastArrival: delivered > 0 ? lastArrival : Number.NaN,
    latencies,
  };
}

/** Nearest-rank percentile of ascending `sorted` (p in 0–100); NaN when empty. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1]!;
}

/** How many of `expected` have arrived (cheap enough to poll). */
export function arrivedCount(
  expected: ReadonlyMap<string, number>,
  arrivals: ReadonlyMap<string, readonly number[]>,
): number {
  let n = 0;
  for (const id of expected.keys()) if (arrivals.has(id)) n++;
  return n;
}
