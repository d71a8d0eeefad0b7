// The hourly allowance's sliding window against real Redis: the Lua script's check and count, the hour
// before weighed by what of it is still within the last 60 minutes, refused calls not counted.
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { Registry } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RateLimiter } from '../../services/api/limits/rate-limiter.ts';
import { stack, testLogger } from './support/stack.ts';

describe('the hourly allowance in Redis', () => {
  const prefix = `test:${randomUUID().slice(0, 8)}:rate:`;
  let redis: Redis;
  let now = 0;
  let limiter: RateLimiter;
  const hour = (h: number, minutes = 0) => (h * 3600 + minutes * 60) * 1000;

  beforeAll(() => {
    redis = new Redis(stack.REDIS_URL);
    limiter = new RateLimiter({
      redis,
      logger: testLogger,
      metrics: new Registry(),
      prefix,
      clock: () => now,
    });
  });

  afterAll(async () => {
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length) await redis.del(...keys);
    await redis.quit();
  });

  const calls = async (holder: string, count: number) => {
    const decisions = [];
    for (let i = 0; i < count; i++) decisions.push(await limiter.hit(holder, 10));
    return decisions;
  };

  it('does not give a whole allowance again at the turn of the clock hour', async () => {
    // The allowance spent in the last minute of an hour.
    now = hour(493_000, 59);
    const spent = await calls('turn', 11);
    expect(spent.map((d) => d.allowed)).toEqual([...Array<boolean>(10).fill(true), false]);
    expect(spent.map((d) => d.remaining).slice(0, 10)).toEqual([9, 8, 7, 6, 5, 4, 3, 2, 1, 0]);
    // A second into the next clock hour those ten calls are within the last 60 minutes still, but for the
    // sliver of the hour that has aged out: one call more, not ten.
    now = hour(493_001, 0) + 1000;
    const [oneMore, refused] = await calls('turn', 2);
    expect(oneMore).toMatchObject({ allowed: true, remaining: 0 });
    expect(refused).toMatchObject({ allowed: false, remaining: 0 });
    // 10 × (1 − t/3600) + 1 < 10 once t is past 360 s: in 360 s (whole seconds) from 1 s in.
    expect(refused!.resetSeconds).toBe(360);
    // Half an hour in, the last hour's ten weigh five: four calls more (one was made), not ten.
    now = hour(493_001, 30);
    expect((await calls('turn', 5)).map((d) => d.allowed)).toEqual([true, true, true, true, false]);
  });

  it('does not count refused calls, so a client that keeps calling is let in as the hour ages', async () => {
    now = hour(493_010, 0);
    await calls('eager', 10);
    // Calls refused all hour long...
    for (let minute = 1; minute < 60; minute += 5) {
      now = hour(493_010, minute);
      expect((await calls('eager', 1))[0]!.allowed).toBe(false);
    }
    // ...and the next hour, as the last one ages out, calls are admitted again.
    now = hour(493_011, 6) + 1000;
    expect((await calls('eager', 1))[0]!.allowed).toBe(true);
  });
});
