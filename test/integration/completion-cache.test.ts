// The Redis completion cache against the real Redis, and the promise that goes with it: Redis
// being away costs money (answers are not reused), never an enrichment.
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadOpenAiConfig } from '../support/openai-config.ts';
import { createOpenAiProvider } from '../../services/intelligence/openai/openai-provider.ts';
import { createRedisCache } from '../../services/intelligence/openai/redis-cache.ts';
import type { ArticleText } from '../../services/intelligence/provider.ts';
import { freePort } from './support/api-process.ts';
import {
  startChatCompletionsServer,
  type ChatCompletionsServer,
} from '../support/chat-completions-server.ts';
import { waitFor } from './support/wait.ts';

const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const prefix = `test:completion-cache:${randomUUID()}:`;
const article: ArticleText = {
  title: 'Tidal station opens',
  text: 'The tidal power station opened today. '.repeat(20),
};

let redis: Redis;
let server: ChatCompletionsServer;

beforeAll(() => {
  redis = new Redis(redisUrl);
});
afterAll(async () => {
  const keys = await redis.keys(`${prefix}*`);
  if (keys.length > 0) await redis.del(...keys);
  redis.disconnect();
});
beforeEach(async () => {
  server = await startChatCompletionsServer();
});
afterEach(async () => {
  await server.close();
});

const providerWith = (cacheRedis: Redis, commandTimeoutMs?: number) =>
  createOpenAiProvider({
    config: loadOpenAiConfig({ OPENAI_BASE_URL: server.baseUrl, OPENAI_API_KEY: server.apiKey }),
    cache: createRedisCache({ redis: cacheRedis, prefix, ...(commandTimeoutMs ? { commandTimeoutMs } : {}) }),
  });

describe('Redis completion cache', () => {
  it('returns null for an unknown key and the value set for a known one, under its prefix and TTL', async () => {
    const cache = createRedisCache({ redis, prefix });
    expect(await cache.get('missing')).toBeNull();
    await cache.set('answer', '{"summary":"x"}', 120);
    expect(await cache.get('answer')).toBe('{"summary":"x"}');
    const ttl = await redis.ttl(`${prefix}answer`);
    expect(ttl).toBeGreaterThan(100);
    expect(ttl).toBeLessThanOrEqual(120);
  });

  it('forgets an entry when its TTL runs out', async () => {
    const cache = createRedisCache({ redis, prefix });
    await cache.set('short-lived', 'v', 1);
    await waitFor(async () => (await cache.get('short-lived')) === null, 'the entry to expire', 5_000);
  });

  it('lets a second provider (another enricher instance) reuse an answer the first paid for', async () => {
    const first = providerWith(redis);
    const other = new Redis(redisUrl);
    try {
      const second = providerWith(other);
      const paid = await first.enrich(article, { length: 'short', related: [] });
      const reused = await second.enrich(article, { length: 'short', related: [] });
      expect(reused).toEqual(paid);
      expect(server.requests).toHaveLength(1);
    } finally {
      other.disconnect();
    }
  });

  it('does not fail an enrichment when Redis cannot be reached', async () => {
    const unreachable = new Redis(`redis://127.0.0.1:${await freePort()}`);
    unreachable.on('error', () => undefined);
    try {
      const started = Date.now();
      const result = await providerWith(unreachable, 200).enrich(article, { length: 'short', related: [] });
      expect(result.provider).toBe('openai');
      expect(server.requests).toHaveLength(1);
      expect(Date.now() - started).toBeLessThan(3_000);
    } finally {
      unreachable.disconnect();
    }
  });

  it('does not fail an enrichment when the Redis connection has gone', async () => {
    const closed = new Redis(redisUrl);
    closed.on('error', () => undefined);
    await closed.ping();
    closed.disconnect();
    const result = await providerWith(closed).enrich(article, { length: 'long', related: [] });
    expect(result.provider).toBe('openai');
    expect(server.requests).toHaveLength(1);
  });
});
