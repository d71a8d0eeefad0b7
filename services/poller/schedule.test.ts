import { describe, expect, it } from 'vitest';
import { firstPollDelay, maxBackoffMs, maxDelayMs, nextPollDelay } from './schedule.ts';

const minute = 60_000;

describe('nextPollDelay', () => {
  it('polls healthy sources at their interval, ±10% jitter', () => {
    expect(
      nextPollDelay({ intervalMs: 10 * minute, consecutiveFailures: 0, retryAfterMs: null, random: 0 }),
    ).toBe(9 * minute);
    expect(
      nextPollDelay({ intervalMs: 10 * minute, consecutiveFailures: 0, retryAfterMs: null, random: 1 }),
    ).toBe(11 * minute);
  });

  it('backs off exponentially after failures, capped at six hours', () => {
    const at = (failures: number) =>
      nextPollDelay({
        intervalMs: 10 * minute,
        consecutiveFailures: failures,
        retryAfterMs: null,
        random: 0.5,
      });
    expect(at(1)).toBe(20 * minute);
    expect(at(2)).toBe(40 * minute);
    expect(at(10)).toBe(maxBackoffMs);
  });

  it('honours a later Retry-After, but never beyond a day', () => {
    expect(
      nextPollDelay({ intervalMs: minute, consecutiveFailures: 1, retryAfterMs: 30 * minute, random: 0.5 }),
    ).toBe(30 * minute);
    expect(
      nextPollDelay({
        intervalMs: minute,
        consecutiveFailures: 1,
        retryAfterMs: 10 * maxDelayMs,
        random: 0.5,
      }),
    ).toBe(maxDelayMs);
  });
});

describe('firstPollDelay', () => {
  it('spreads first polls over at most ten seconds (or the interval if shorter)', () => {
    expect(firstPollDelay(15 * minute, 1)).toBe(10_000);
    expect(firstPollDelay(4_000, 1)).toBe(4_000);
    expect(firstPollDelay(15 * minute, 0)).toBe(0);
  });
});
