// Article freshness during a chaos run: the time from an article's release at the feed server to its
// first sight in the projection. The run samples what is visible about once a second; from those
// samples come the normal p99 (of the articles released in the fault-free warm-up) and, for each
// fault, how long the pipeline took to catch up once the fault ended: the first sample from which the
// oldest article still not visible is younger than that p99 (so everything older has arrived).
import type { ReleasedArticle } from './release-schedule.ts';

export interface LagSample {
  at: number;
  /** Age of the oldest released article not yet visible at `at`; 0 when every one is. */
  lagMs: number;
}

export class FreshnessTracker {
  /** seq → epoch ms of the first sample that saw it. */
  readonly visibleAt = new Map<number, number>();
  readonly samples: LagSample[] = [];

  /** Records a sample: `visible` are the sequence numbers seen now (null: the read failed). */
  sample(at: number, released: readonly ReleasedArticle[], visible: Iterable<number> | null): LagSample {
    if (visible) for (const seq of visible) if (!this.visibleAt.has(seq)) this.visibleAt.set(seq, at);
    const oldest = released.find((a) => !this.visibleAt.has(a.seq));
    const lag = { at, lagMs: oldest ? Math.max(0, at - oldest.releasedAt) : 0 };
    this.samples.push(lag);
    return lag;
  }

  /** Freshness (ms) of each article released in [from, to) that became visible. */
  freshness(released: readonly ReleasedArticle[], from: number, to: number): number[] {
    return released
      .filter((a) => a.releasedAt >= from && a.releasedAt < to && this.visibleAt.has(a.seq))
      .map((a) => this.visibleAt.get(a.seq)! - a.releasedAt);
  }
}

/** Nearest-rank percentile (p in 0–100); NaN when empty. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length))) - 1]!;
}

/**
 * Time from `end` to the first sample at or after it whose lag is within `thresholdMs`; null when no
 * sample after `end` is (not recovered, as far as the samples go).
 */
export function recoveryMs(samples: readonly LagSample[], end: number, thresholdMs: number): number | null {
  const first = samples.find((s) => s.at >= end && s.lagMs <= thresholdMs);
  return first ? first.at - end : null;
}
