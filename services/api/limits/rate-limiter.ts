// Calls per credential holder per hour, counted in Redis so that every API
// instance shares the count. A fixed window aligned to the hour: one atomic
// INCR (with the expiry set when the window opens) per request, in one Lua
// script, so concurrent requests on any number of instances never over-admit.
// If Redis cannot be reached the request is let through (fail-open): the API
// keeps serving, and the outage is counted and logged once a minute.
import type { Redis } from 'ioredis';
import { Counter, type Registry } from 'prom-client';
import type { Logger } from '../../runtime/logger.ts';

export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the window resets. */
  resetSeconds: number;
  /** True when Redis could not be asked and the request was let through. */
  failedOpen: boolean;
}

const windowSeconds = 3600;

// KEYS[1] = counter of this holder and window; ARGV[1] = window length in seconds.
const countScript = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('EXPIRE', KEYS[1], ARGV[1]) end
return count`;

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
    const resetSeconds = windowStart + windowSeconds - Math.floor(now / 1000);
    if (limit === null) {
      return {
        allowed: true,
        limit: Number.MAX_SAFE_INTEGER,
        remaining: Number.MAX_SAFE_INTEGER,
        resetSeconds,
        failedOpen: false,
      };
    }
    try {
      const count = Number(
        await this.deps.redis.eval(
          countScript,
          1,
          `${this.deps.prefix}${holder}:${windowStart}`,
          windowSeconds,
        ),
      );
      return {
        allowed: count <= limit,
        limit,
        remaining: Math.max(0, limit - count),
        resetSeconds,
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
      return { allowed: true, limit, remaining: limit, resetSeconds, failedOpen: true };
    }
  }
}
