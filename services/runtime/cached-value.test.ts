import { describe, expect, it } from 'vitest';
import { CachedValue } from './cached-value.ts';

describe('CachedValue', () => {
  it('reads once per interval, and callers during a read share it', async () => {
    let now = 0;
    let reads = 0;
    const cached = new CachedValue(
      1000,
      async () => ++reads,
      () => now,
    );
    expect(await Promise.all([cached.get(), cached.get()])).toEqual([1, 1]);
    now = 999;
    expect(await cached.get()).toBe(1);
    now = 1000;
    expect(await cached.get()).toBe(2);
    expect(reads).toBe(2);
  });

  it('does not keep a failed read', async () => {
    let fail = true;
    const cached = new CachedValue(60_000, async () => {
      if (fail) throw new Error('down');
      return 'up';
    });
    await expect(cached.get()).rejects.toThrow('down');
    fail = false;
    expect(await cached.get()).toBe('up');
  });
});
