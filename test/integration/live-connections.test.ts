// Live-connection leases in the real Redis: the plan's limit holds across
// "instances" (two clients of their own), a released or expired lease frees
// its slot, and a renewed one does not expire.
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { LiveConnections, mayAddAlertEndpoint } from '../../services/api/limits/live-connections.ts';
import { stack } from './support/stack.ts';

describe('live connections', () => {
  const prefix = `test:${randomUUID()}:live:`;
  const redisA = new Redis(stack.REDIS_URL);
  const redisB = new Redis(stack.REDIS_URL);
  afterAll(async () => {
    const keys = await redisA.keys(`${prefix}*`);
    if (keys.length) await redisA.del(...keys);
    redisA.disconnect();
    redisB.disconnect();
  });

  it('admits up to the limit across instances, and frees released and expired leases', async () => {
    const a = new LiveConnections(redisA, { prefix, leaseMs: 300 });
    const b = new LiveConnections(redisB, { prefix, leaseMs: 300 });
    const first = await a.acquire('cli_x', 'c1', 2);
    const second = await b.acquire('cli_x', 'c2', 2);
    expect(first && second).toBeTruthy();
    expect(await a.acquire('cli_x', 'c3', 2)).toBeNull();
    expect(await b.acquire('cli_y', 'c1', 2)).not.toBeNull(); // another holder has its own count
    await first!.release();
    const third = await a.acquire('cli_x', 'c3', 2);
    expect(third).not.toBeNull();
    // c2 is renewed, c3 is not: after the lease time only c2 still counts.
    await new Promise((r) => setTimeout(r, 200));
    await second!.renew();
    await new Promise((r) => setTimeout(r, 200));
    expect(await a.count('cli_x')).toBe(1);
    expect(await a.acquire('cli_x', 'c4', null)).not.toBeNull(); // unlimited (Enterprise)
  });

  it('counts alert endpoints against the plan', () => {
    expect(mayAddAlertEndpoint(2, 3)).toBe(true);
    expect(mayAddAlertEndpoint(3, 3)).toBe(false);
    expect(mayAddAlertEndpoint(500, null)).toBe(true);
  });
});
