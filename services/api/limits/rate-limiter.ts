// Calls per credential holder per hour, counted in Redis so that every API instance shares the count.
//
// A sliding window, estimated from two hourly counters (the approach Cloudflare describes): the calls of
// this clock hour, plus those of the hour before weighted by how much of it still lies within the last
// 60 minutes. A fixed clock-hour window let a client make its whole allowance at 10:59 and again at
// 11:00, twice the plan in two minutes; here any 60 minutes hold about the allowance at most. The check
// and the count are one Lua script, so concurrent requests on any number of instances never over-admit,
// and a refused call is not counted, so a client that keeps calling while refused is let in again as
// the last hour's calls age out rather than never.
//
// If Redis cannot be reached the request is let through (fail-open): the API keeps serving, and the
// outage is counted and logged once a minute.
import type { Redis } from 'ioredis';
import { Counter, type Registry } from 'prom-client';
import type { Logger } from '../../runtime/logger.ts';

export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /**
   * Seconds until the call would be admitted, when it was refused (what Retry-After says); otherwise until
   * the previous clock hour's calls no longer count.
   */
  resetSeconds: number;
  /** True when Redis could not be asked and the request was let through. */
  failedOpen: boolean;
}

export const windowSeconds = 3600;

// KEYS[1] = this hour's counter, KEYS[2] = the previous hour's; ARGV[1] = limit, ARGV[2] = the weight of
// the previous hour (0–1), ARGV[3] = how long a counter is kept (two windows: it is the previous one for
// the second). Returns {admitted (1/0), previous count, this hour's count after the call}.
const countScript = `
local previous = tonumber(redis.call('GET', KEYS[2]) or '0')
local current = tonumber(redis.call('GET', KEYS[1]) or '0')
if previous * tonumber(ARGV[2]) + current >= tonumber(ARGV[1]) then
  return {0, previous, current}
end
current = redis.call('INCR', KEYS[1])
if current == 1 then redis.call('EXPIRE', KEYS[1], ARGV[3]) end
return {1, previous, current}`;

/**
 * The estimate of what the last `window` seconds hold, `elapsed` seconds into this window: all of this
 * window's count, and the previous window's weighted by how much of it is still within them. Not rounded
 * down: a floor would let one more in at the turn of the window (10 × 0.9997 → 9).
 */
export function weightedCount(counts: {
  previous: number;
  current: number;
  elapsed: number;
  window: number;
}): number {
  return counts.previous * (1 - counts.elapsed / counts.window) + counts.current;
}

/**
 * What the two counters say, `elapsed` seconds into this window (a clock hour unless `window` says how
 * many seconds). Pure: the script's arithmetic. Also counts failed credentials (auth/credential-guessing.ts),
 * over a minute.
 */
export function slidingWindow(counts: {
  previous: number;
  current: number;
  limit: number;
  elapsed: number;
  admitted: boolean;
  window?: number;
}): Pick<RateDecision, 'allowed' | 'remaining' | 'resetSeconds'> {
  const { previous, current, limit, elapsed, admitted } = counts;
  const window = counts.window ?? windowSeconds;
  const used = weightedCount({ previous, current, elapsed, window });
  const toWindowEnd = window - elapsed;
  if (admitted)
    return {
      allowed: true,
      remaining: Math.max(0, Math.floor(limit - used)),
      resetSeconds: Math.max(1, Math.ceil(toWindowEnd)),
    };
  // Refused: when does the weighted count and this window's fall under the limit? With this window's count at
  // the limit, only once it is the previous window and weighs less than the limit; otherwise once the
  // previous window weighs less than what this one leaves. Rounded up once, at the end: the window's end
  // rounded up first, and then the whole again, said a second too many whenever `elapsed` had a fraction.
  let wait: number;
  if (current >= limit) wait = toWindowEnd + window * (1 - limit / current);
  else wait = window * (1 - (limit - current) / previous) - elapsed;
  return { allowed: false, remaining: 0, resetSeconds: Math.max(1, Math.ceil(wait + 1e-9)) };
}

export class RateLimiter {
  private readonly failOpens: Counter;
  private lastFailureLog = 0;

  constructor(
    private readonly deps: {
      redis: Redis;
      logger: Logger;
      metrics: Registry;
      prefix: string;
      clock?: () => number;
    },
  ) {
    this.failOpens = new Counter({
      name: 'api_rate_limit_fail_open_total',
      help: 'Requests let through without a rate-limit check because Redis could not be reached',
      registers: [deps.metrics],
    });
  }

  /** Counts one call of `holder` against `limit` per hour (null = unlimited). */
  async hit(holder: string, limit: number | null): Promise<RateDecision> {
    const now = (this.deps.clock ?? Date.now)();
    const windowStart = Math.floor(now / 1000 / windowSeconds) * windowSeconds;
    const elapsed = now / 1000 - windowStart;
    if (limit === null) {
      return {
        allowed: true,
        limit: Number.MAX_SAFE_INTEGER,
        remaining: Number.MAX_SAFE_INTEGER,
        resetSeconds: Math.max(1, Math.ceil(windowSeconds - elapsed)),
        failedOpen: false,
      };
    }
    try {
      const [admitted, previous, current] = (await this.deps.redis.eval(
        countScript,
        2,
        `${this.deps.prefix}${holder}:${windowStart}`,
        `${this.deps.prefix}${holder}:${windowStart - windowSeconds}`,
        limit,
        String(1 - elapsed / windowSeconds),
        2 * windowSeconds,
      )) as [number, number, number];
      return {
        ...slidingWindow({ previous, current, limit, elapsed, admitted: admitted === 1 }),
        limit,
        failedOpen: false,
      };
    } catch (error) {
      this.failOpens.inc();
      if (now - this.lastFailureLog >= 60_000) {
        this.lastFailureLog = now;
        this.deps.logger.error(
          { err: error },
          'rate limits cannot be checked (Redis unreachable); letting requests through until it is back',
        );
      }
      return {
        allowed: true,
        limit,
        remaining: limit,
        resetSeconds: Math.max(1, Math.ceil(windowSeconds - elapsed)),
        failedOpen: true,
      };
    }
  }
}
