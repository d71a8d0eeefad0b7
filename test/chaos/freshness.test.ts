import { describe, expect, it } from 'vitest';
import { FreshnessTracker, percentile, recoveryMs } from './freshness.ts';
import type { ReleasedArticle } from './release-schedule.ts';

const article = (seq: number, releasedAt: number): ReleasedArticle => ({
  seq,
  feed: 0,
  guid: `g${seq}`,
  url: `u${seq}`,
  title: `t${seq}`,
  releasedAt,
  mentions: null,
});

describe('freshness', () => {
  it('measures the lag by the oldest article not yet visible, and keeps the first sight of each', () => {
    const released = [article(0, 1_000), article(1, 2_000), article(2, 3_000)];
    const tracker = new FreshnessTracker();
    expect(tracker.sample(4_000, released, [1])).toEqual({ at: 4_000, lagMs: 3_000 });
    // A failed read (ClickHouse down) sees nothing new: the lag keeps growing.
    expect(tracker.sample(5_000, released, null).lagMs).toBe(4_000);
    expect(tracker.sample(6_000, released, [0, 1]).lagMs).toBe(3_000);
    expect(tracker.sample(7_000, released, [2]).lagMs).toBe(0);
    expect(tracker.freshness(released, 0, 10_000)).toEqual([5_000, 2_000, 4_000]);
    expect(tracker.freshness(released, 1_500, 2_500)).toEqual([2_000]);
  });

  it('counts recovery from the end of a fault to the first sample back under the threshold', () => {
    const samples = [
      { at: 10, lagMs: 1 },
      { at: 20, lagMs: 50 },
      { at: 30, lagMs: 40 },
      { at: 40, lagMs: 9 },
      { at: 50, lagMs: 30 },
    ];
    expect(recoveryMs(samples, 15, 10)).toBe(25);
    expect(recoveryMs(samples, 45, 10)).toBeNull();
    expect(recoveryMs(samples, 5, 10)).toBe(5);
  });

  it('takes the nearest-rank percentile', () => {
    expect(percentile([5, 1, 3, 2, 4], 50)).toBe(3);
    expect(
      percentile(
        Array.from({ length: 100 }, (_, i) => i + 1),
        99,
      ),
    ).toBe(99);
    expect(percentile([], 99)).toBeNaN();
  });
});
