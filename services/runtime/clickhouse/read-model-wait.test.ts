import { describe, expect, it } from 'vitest';
import { ReadModelWait } from './read-model-wait.ts';

describe('ReadModelWait', () => {
  it('waits up to its bound after the event', () => {
    const wait = new ReadModelWait(60_000, () => 0);
    expect(wait.waiting(1_000, 60_999)).toBe(true);
    expect(wait.waiting(1_000, 61_000)).toBe(false);
  });

  it('waits up to its bound after the last failed read, when that is later than the event', async () => {
    let now = 10_000;
    const wait = new ReadModelWait(60_000, () => now);
    await expect(wait.read(async () => Promise.reject(new Error('ECONNREFUSED')))).rejects.toThrow(
      'ECONNREFUSED',
    );
    now = 50_000;
    await expect(wait.read(async () => Promise.reject(new Error('ECONNREFUSED')))).rejects.toThrow();
    expect(await wait.read(async () => 'rows')).toBe('rows');
    expect(wait.waiting(1_000, 109_999)).toBe(true);
    expect(wait.waiting(1_000, 110_000)).toBe(false);
    // An event after the outage counts from itself.
    expect(wait.waiting(100_000, 159_999)).toBe(true);
  });
});
