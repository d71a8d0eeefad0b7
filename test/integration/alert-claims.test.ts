// The (monitor, article URL) claims in real Redis: SET NX GET in one pipeline, the holder answered to
// every later claim, the window kept as the key's TTL, and Redis away turned into a dependency wait.
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisAlertClaims } from '../../services/monitors/alert-claims.ts';
import { DependencyUnavailableError } from '../../services/runtime/kafka/errors.ts';
import { stack } from './support/stack.ts';

describe('alert claims in Redis', () => {
  const prefix = `test:${randomUUID().slice(0, 8)}:`;
  let redis: Redis;
  let claims: RedisAlertClaims;

  beforeAll(() => {
    redis = new Redis(stack.REDIS_URL);
    claims = new RedisAlertClaims(redis, { prefix, windowSeconds: 3_600 });
  });

  afterAll(async () => {
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length) await redis.del(...keys);
    await redis.quit();
  });

  it('gives each (monitor, URL) pair to the first article that claims it, for the window', async () => {
    const url = 'https://news.example/story?id=1';
    const holder = (articleId: string, revision: number | null) => ({ articleId, revision });
    expect(
      await claims.holders([
        { monitorId: 'm1', url, articleId: 'top', revision: 1 },
        { monitorId: 'm1', url, articleId: 'business', revision: 1 },
        { monitorId: 'm2', url, articleId: 'business', revision: 2 },
      ]),
    ).toEqual([holder('top', 1), holder('top', 1), holder('business', 2)]);
    expect(await claims.holders([{ monitorId: 'm1', url, articleId: 'business', revision: 1 }])).toEqual([
      holder('top', 1),
    ]);
    // the holder's edit finds its own first revision there
    expect(await claims.holders([{ monitorId: 'm1', url, articleId: 'top', revision: 2 }])).toEqual([
      holder('top', 1),
    ]);
    const key = claims.keyOf({ monitorId: 'm1', url });
    expect(key.startsWith(`${prefix}alert-url:m1:`)).toBe(true);
    expect(await redis.get(key)).toBe('top 1');
    // a claim kept before revisions were: the id alone
    await redis.set(claims.keyOf({ monitorId: 'm3', url }), 'older');
    expect(await claims.holders([{ monitorId: 'm3', url, articleId: 'x', revision: 1 }])).toEqual([
      holder('older', null),
    ]);
    const ttl = await redis.ttl(key);
    expect(ttl).toBeGreaterThan(3_500);
    expect(ttl).toBeLessThanOrEqual(3_600);
  });

  it('makes the batch wait (a dependency error) while Redis cannot be reached', async () => {
    const away = new Redis('redis://127.0.0.1:1', {
      maxRetriesPerRequest: 0,
      enableOfflineQueue: false,
      lazyConnect: true,
      retryStrategy: () => null,
    });
    away.on('error', () => undefined);
    const unreachable = new RedisAlertClaims(away, { prefix, windowSeconds: 60 });
    await expect(
      unreachable.holders([{ monitorId: 'm1', url: 'https://news.example/x', articleId: 'a', revision: 1 }]),
    ).rejects.toBeInstanceOf(DependencyUnavailableError);
    away.disconnect();
  });
});
