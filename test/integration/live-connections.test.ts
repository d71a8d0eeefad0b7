// The live-connection leases on the real Redis: the limit, release, expiry of a holder that stopped
// renewing (a dead API instance), and no limit at all for unlimited plans.
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { LiveConnections } from '../../services/api/limits/live-connections.ts';
import { stack } from './support/stack.ts';

describe('live-connection leases', () => {
  const redis = new Redis(stack.REDIS_URL);
  afterAll(() => redis.disconnect());
  let now = 1_000_000;
  const leases = new LiveConnections(redis, {
    prefix: `test:live:${randomUUID()}:`,
    leaseMs: 3_000,
    clock: () => now,
  });

  it('admits up to the limit, and one more once a lease is released', async () => {
    const held = await Promise.all([1, 2, 3].map((n) => leases.acquire('client-a', `c${n}`, 3)));
    expect(held.every((lease) => lease !== null)).toBe(true);
    expect(await leases.acquire('client-a', 'c4', 3)).toBeNull();
    expect(await leases.acquire('client-b', 'c1', 3)).not.toBeNull(); // per holder
    await held[0]!.release();
    expect(await leases.count('client-a')).toBe(2);
    expect(await leases.acquire('client-a', 'c4', 3)).not.toBeNull();
  });

  it('lets leases that are not renewed expire, and keeps renewed ones', async () => {
    const renewed = (await leases.acquire('client-c', 'r', 2))!;
    await leases.acquire('client-c', 'dead', 2);
    expect(await leases.acquire('client-c', 'x', 2)).toBeNull();
    now += 2_000;
    await renewed.renew();
    now += 1_500; // 'dead' is past its 3 s; 'r' was renewed 1.5 s ago
    expect(await leases.count('client-c')).toBe(1);
    expect(await leases.acquire('client-c', 'x', 2)).not.toBeNull();
  });

  it('never refuses an unlimited holder', async () => {
    for (let n = 0; n < 50; n++) expect(await leases.acquire('client-d', `u${n}`, null)).not.toBeNull();
    expect(await leases.count('client-d')).toBe(50);
  });
});
