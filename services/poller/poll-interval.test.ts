import { describe, expect, it } from 'vitest';
import {
  defaultIntervalSettings,
  duration,
  keptPublications,
  pollInterval,
  rememberPublications,
  type IntervalInput,
} from './poll-interval.ts';

const now = Date.UTC(2026, 10, 20, 12);
const minute = 60_000;
const hour = 60 * minute;
const day = 24 * hour;

/** `count` publications `gapMs` apart, the newest `ageMs` ago. */
const every = (gapMs: number, count = 20, ageMs = 0) =>
  Array.from({ length: count }, (_, i) => now - ageMs - i * gapMs);

const interval = (
  input: Partial<Omit<IntervalInput, 'hints'>> & { hints?: Partial<IntervalInput['hints']> },
) =>
  pollInterval({
    configuredSeconds: 900,
    publications: [],
    now,
    websubLease: null,
    settings: defaultIntervalSettings,
    ...input,
    hints: { ttlSeconds: null, updateIntervalSeconds: null, freshForMs: null, ...input.hints },
  });

describe('pollInterval from the publishing pace', () => {
  it('polls a feed that publishes every minimum interval at the minimum', () => {
    expect(interval({ publications: every(2 * minute) })).toEqual({
      seconds: 120,
      reason: 'median gap 2 min between the last 20 items',
    });
  });

  it('polls a feed a hundred times quieter ten times less often (the square root of the pace)', () => {
    expect(interval({ publications: every(200 * minute) })).toEqual({
      seconds: 1200,
      reason: 'median gap 3.3 h between the last 20 items',
    });
  });

  it('keeps a busy feed at the minimum', () => {
    expect(interval({ publications: every(70_000) })).toEqual({
      seconds: 120,
      reason: 'median gap 70 s between the last 20 items, raised to the minimum',
    });
  });

  it('keeps a quiet feed at the maximum', () => {
    expect(interval({ publications: every(40 * day, 5) })).toEqual({
      seconds: 10_800,
      reason: 'median gap 40 days between the last 5 items, capped at the maximum',
    });
  });

  it('follows the median, not the mean: one long pause does not slow a busy feed', () => {
    const publications = [...every(2 * minute, 19), now - 30 * day];
    expect(interval({ publications }).seconds).toBe(120);
  });

  it('stretches the interval of a feed silent for more than four median gaps', () => {
    // Every 10 min: √(600 × 120) ≈ 268 s. Silent 2 h: as if it published every 30 min, √(1800 × 120).
    expect(interval({ publications: every(10 * minute, 20, 30 * minute) }).seconds).toBe(268);
    expect(interval({ publications: every(10 * minute, 20, 2 * hour) })).toEqual({
      seconds: 465,
      reason: 'no new item for 2 h (median gap 10 min between the last 20 items)',
    });
    // A busy feed that stopped publishing a month ago ends at the maximum.
    expect(interval({ publications: every(2 * minute, 20, 60 * day) }).seconds).toBe(10_800);
  });

  it('bounds by the settings, whatever they are', () => {
    const settings = { ...defaultIntervalSettings, minSeconds: 10, maxSeconds: 600 };
    expect(interval({ publications: every(1000), settings })).toEqual({
      seconds: 10,
      reason: 'median gap 5 s between the last 4 items, raised to the minimum',
    });
    expect(interval({ publications: every(10_000), settings }).seconds).toBe(10);
    expect(interval({ publications: every(day), settings }).seconds).toBe(600);
    expect(interval({ publications: every(1000 * 1000), settings }).seconds).toBe(100);
  });
});

describe('pollInterval without a publishing history', () => {
  it("uses the publisher's sy:updatePeriod/sy:updateFrequency, within the bounds", () => {
    const publications = every(5 * minute, 2);
    expect(interval({ publications, hints: { updateIntervalSeconds: 3600 } })).toEqual({
      seconds: 3600,
      reason: "publisher's sy:updatePeriod/sy:updateFrequency: every 60 min",
    });
    expect(interval({ hints: { updateIntervalSeconds: 86_400 } }).seconds).toBe(10_800);
    expect(interval({ hints: { updateIntervalSeconds: 30 } }).seconds).toBe(120);
  });

  it('ignores sy:update once the feed has a history of its own', () => {
    expect(
      interval({ publications: every(2 * minute), hints: { updateIntervalSeconds: 86_400 } }).seconds,
    ).toBe(120);
  });

  it("uses the source's configured interval as it is", () => {
    expect(interval({ configuredSeconds: 900 })).toEqual({
      seconds: 900,
      reason: 'configured interval (fewer than 3 dated items)',
    });
    expect(interval({ configuredSeconds: 10, publications: every(minute, 2) }).seconds).toBe(10);
  });
});

describe("pollInterval and the publisher's floor", () => {
  it('never polls more often than the ttl allows', () => {
    expect(interval({ publications: every(2 * minute), hints: { ttlSeconds: 3600 } })).toEqual({
      seconds: 3600,
      reason: "publisher's ttl: 60 min",
    });
    expect(interval({ publications: every(600 * minute), hints: { ttlSeconds: 600 } }).seconds).toBe(2078);
  });

  it('never polls more often than Cache-Control or Expires keep the response fresh', () => {
    expect(interval({ publications: every(2 * minute), hints: { freshForMs: 600_000 } })).toEqual({
      seconds: 600,
      reason: 'response fresh for 10 min (Cache-Control/Expires)',
    });
    // The later of the two.
    expect(
      interval({ hints: { ttlSeconds: 1800, freshForMs: 3_600_000 }, configuredSeconds: 60 }).seconds,
    ).toBe(3600);
  });

  it('takes no-cache as no floor', () => {
    expect(interval({ publications: every(2 * minute), hints: { freshForMs: 0 } }).seconds).toBe(120);
  });

  it('caps the floor at the maximum, and says so', () => {
    expect(interval({ publications: every(2 * minute), hints: { ttlSeconds: 7 * 86_400 } })).toEqual({
      seconds: 10_800,
      reason: "publisher's ttl: 7 days, capped at 3 h",
    });
    expect(interval({ hints: { freshForMs: 2 * 86_400_000 } })).toEqual({
      seconds: 10_800,
      reason: 'response fresh for 2 days, capped at 3 h (Cache-Control/Expires)',
    });
    expect(interval({ hints: { ttlSeconds: 10_800 } }).reason).toBe("publisher's ttl: 3 h");
  });
});

describe('pollInterval, fixed and pushed', () => {
  it('polls at the configured interval when adaptive polling is off, whatever the feed does', () => {
    const settings = { ...defaultIntervalSettings, adaptive: false };
    expect(
      interval({
        settings,
        publications: every(2 * minute),
        hints: { ttlSeconds: 3600 },
        configuredSeconds: 300,
      }),
    ).toEqual({ seconds: 300, reason: 'configured interval (POLLER_ADAPTIVE=false)' });
  });

  it('polls a source its WebSub hub pushes only as a safety net', () => {
    const lease = { upkeepAt: null };
    expect(interval({ publications: every(2 * minute), websubLease: lease })).toEqual({
      seconds: 3600,
      reason: 'WebSub active: polled only as a safety net',
    });
    // Never more often than without WebSub.
    expect(interval({ publications: every(40 * day, 5), websubLease: lease }).seconds).toBe(10_800);
    const fixed = { ...defaultIntervalSettings, adaptive: false };
    expect(interval({ settings: fixed, websubLease: lease }).seconds).toBe(3600);
  });

  it('polls a pushed source again by the time its subscription is due for renewal', () => {
    const due = 'WebSub active: polled when its subscription is due for renewal';
    // A hub granting a lease of an hour: renewed half-way, before the safety net's hour is over.
    expect(
      interval({ publications: every(2 * minute), websubLease: { upkeepAt: now + 30 * minute } }),
    ).toEqual({
      seconds: 1800,
      reason: due,
    });
    // A quiet feed polled every 3 hours is polled by then too.
    expect(interval({ publications: every(40 * day, 5), websubLease: { upkeepAt: now + 2 * hour } })).toEqual(
      {
        seconds: 7200,
        reason: due,
      },
    );
    // Due later than the interval: the interval stands.
    expect(interval({ publications: every(2 * minute), websubLease: { upkeepAt: now + 9 * day } })).toEqual({
      seconds: 3600,
      reason: 'WebSub active: polled only as a safety net',
    });
    // Due now or past due (the keeper acts after this poll): not sooner than the minimum interval.
    expect(interval({ websubLease: { upkeepAt: now - hour } })).toEqual({ seconds: 120, reason: due });
    expect(interval({ websubLease: { upkeepAt: now + 1000 } }).seconds).toBe(120);
  });
});

describe('pollInterval on odd publication times', () => {
  it('takes dates in the future as now', () => {
    const future = [now + hour, now + 2 * hour, now + day];
    // All three are "now": one publication, no history.
    expect(interval({ publications: future }).reason).toBe('configured interval (fewer than 3 dated items)');
    // A future date among real ones is the newest publication, not a long silence in reverse.
    expect(
      interval({ publications: [now + 365 * day, ...every(200 * minute, 19, 200 * minute)] }).seconds,
    ).toBe(1200);
  });

  it('counts a batch of items published together (within half a minimum interval) once', () => {
    // Four items at once every 6 h: the gap is 6 h, not 0.
    const batches = every(6 * hour, 6).flatMap((at) => [at, at, at - 1000, at - 30_000]);
    expect(interval({ publications: batches }).reason).toBe('median gap 6 h between the last 6 items');
  });

  it('drops what is not a time, and reads them in any order', () => {
    const times = [...every(200 * minute, 10).reverse(), Number.NaN, -5, 0, Number.POSITIVE_INFINITY];
    expect(interval({ publications: times })).toEqual({
      seconds: 1200,
      reason: 'median gap 3.3 h between the last 10 items',
    });
  });
});

describe('rememberPublications', () => {
  it('keeps the newest publications, newest first, to whole seconds, each batch once', () => {
    const kept = rememberPublications(every(hour, 30), [now + 500, now - 10_000, now - 90 * day], now, 120);
    expect(kept).toHaveLength(keptPublications);
    expect(kept[0]).toBe(now);
    expect(kept[1]).toBe(now - hour);
    expect(kept.every((at) => at % 1000 === 0)).toBe(true);
    expect(kept.at(-1)).toBe(now - 19 * hour);
  });

  it('reads a state of nothing as nothing', () => {
    expect(rememberPublications([], [], now, 120)).toEqual([]);
  });
});

describe('duration', () => {
  it('reads as a person would say it', () => {
    expect([45, 119.6, 840, 7199, 7200, 9000, 172_800, 216_000].map(duration)).toEqual([
      '45 s',
      '120 s',
      '14 min',
      '120 min',
      '2 h',
      '2.5 h',
      '2 days',
      '2.5 days',
    ]);
  });
});
