// An in-process cache for a single instance or for tests: bounded, so a long-running enricher
// cannot grow without limit; least recently used answers go first.
import type { CompletionCache } from './completion-cache.ts';

export interface MemoryCacheOptions {
  maxEntries?: number;
  clock?: () => number;
}

export function createMemoryCache(options: MemoryCacheOptions = {}): CompletionCache {
  const maxEntries = options.maxEntries ?? 1_000;
  const clock = options.clock ?? Date.now;
  // A Map iterates in insertion order: re-inserting on every read keeps the oldest read first.
  const entries = new Map<string, { value: string; expiresAt: number }>();

  return {
    async get(key) {
      const entry = entries.get(key);
      if (!entry) return null;
      entries.delete(key);
      if (entry.expiresAt <= clock()) return null;
      entries.set(key, entry);
      return entry.value;
    },
    async set(key, value, ttlSeconds) {
      entries.delete(key);
      entries.set(key, { value, expiresAt: clock() + ttlSeconds * 1000 });
      while (entries.size > maxEntries) {
        const oldest = entries.keys().next();
        if (oldest.done) break;
        entries.delete(oldest.value);
      }
    },
  };
}
