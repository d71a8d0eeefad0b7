import { describe, expect, it } from 'vitest';
import { createMemoryCache } from './memory-cache.ts';

describe('memory cache', () => {
  it('returns what was set until it expires', async () => {
    let now = 1_000_000;
    const cache = createMemoryCache({ clock: () => now });
    await cache.set('k', 'v', 60);
    expect(await cache.get('k')).toBe('v');
    now += 59_999;
    expect(await cache.get('k')).toBe('v');
    now += 1;
    expect(await cache.get('k')).toBeNull();
  });

  it('evicts the least recently used entry beyond its bound', async () => {
    const cache = createMemoryCache({ maxEntries: 2 });
    await cache.set('a', '1', 60);
    await cache.set('b', '2', 60);
    await cache.get('a');
    await cache.set('c', '3', 60);
    expect(await cache.get('a')).toBe('1');
    expect(await cache.get('b')).toBeNull();
    expect(await cache.get('c')).toBe('3');
  });
});
