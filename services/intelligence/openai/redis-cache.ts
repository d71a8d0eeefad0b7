// Shared across enricher instances and restarts, so an answer paid for once is reused by all.
// Every command is bounded in time: with Redis away, ioredis may hold commands in its offline
// queue, and a cache must never be the reason an enrichment stalls. Failures are thrown; the
// provider logs them and carries on without the cache.
import type { Redis } from 'ioredis';
import type { CompletionCache } from './completion-cache.ts';

export interface RedisCacheOptions {
  redis: Redis;
  /** Namespace of the keys, e.g. "news:openai:completion:". */
  prefix?: string;
  /** Longest wait for one Redis command before giving up on it. */
  commandTimeoutMs?: number;
}

export function createRedisCache(options: RedisCacheOptions): CompletionCache {
  const { redis } = options;
  const prefix = options.prefix ?? 'news:openai:completion:';
  const timeoutMs = options.commandTimeoutMs ?? 500;

  return {
    async get(key) {
      return withTimeout(redis.get(prefix + key), timeoutMs, 'GET');
    },
    async set(key, value, ttlSeconds) {
      await withTimeout(redis.set(prefix + key, value, 'EX', ttlSeconds), timeoutMs, 'SET');
    },
  };
}

async function withTimeout<T>(command: Promise<T>, ms: number, name: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`Redis ${name} took longer than ${ms} ms`)), ms);
  });
  // The command may still settle after the timeout; its late rejection must not go unhandled.
  command.catch(() => undefined);
  try {
    return await Promise.race([command, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
