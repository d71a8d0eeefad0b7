// The sliding window's arithmetic (the Lua script does the same sums; test/integration/rate-limiter.test.ts
// runs it against Redis).
import { describe, expect, it } from 'vitest';
import { slidingWindow } from './rate-limiter.ts';

describe('the sliding hourly window', () => {
  it('counts the previous hour by how much of it is still within the last 60 minutes', () => {
    // 30 minutes in, 100 calls last hour weigh 50.
    expect(slidingWindow({ previous: 100, current: 20, limit: 100, elapsed: 1800, admitted: true })).toEqual({
      allowed: true,
      remaining: 30,
      resetSeconds: 1800,
    });
  });

  it('says when a refused call would be admitted: once the previous hour weighs less than what is left', () => {
    // 1,000 calls last hour and 983 this one, 60 s in: this hour leaves 17, which the last hour's calls
    // fill until they weigh less.
    expect(
      slidingWindow({ previous: 1000, current: 983, limit: 1000, elapsed: 60, admitted: false }),
    ).toEqual({
      allowed: false,
      remaining: 0,
      // 1000 × (1 − t/3600) < 17 from t = 3538.8 s on.
      resetSeconds: 3479,
    });
  });

  it('with this hour at the limit, waits for the next hour and then for this one to weigh less', () => {
    expect(slidingWindow({ previous: 0, current: 1000, limit: 1000, elapsed: 600, admitted: false })).toEqual(
      {
        allowed: false,
        remaining: 0,
        resetSeconds: 3001,
      },
    );
  });

  it('never says 0 seconds', () => {
    const refused = slidingWindow({ previous: 10, current: 5, limit: 10, elapsed: 1800, admitted: false });
    expect(refused.resetSeconds).toBeGreaterThanOrEqual(1);
  });

  it('rounds up once: a refusal with this window at the limit waits until just past the end of the window', () => {
    // 600.5 s into the hour, 1,000 of 1,000: admitted again just after the turn of the hour, 2,999.5 s on.
    expect(
      slidingWindow({ previous: 0, current: 1000, limit: 1000, elapsed: 600.5, admitted: false })
        .resetSeconds,
    ).toBe(3000);
    // Over a minute (credential guessing): 0.3 s in, the limit reached, 59.7 s to the turn.
    expect(
      slidingWindow({ previous: 0, current: 4, limit: 4, elapsed: 0.3, admitted: false, window: 60 })
        .resetSeconds,
    ).toBe(60);
  });
});
