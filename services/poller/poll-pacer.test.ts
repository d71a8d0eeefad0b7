import { describe, expect, it } from 'vitest';
import { PollPacer } from './poll-pacer.ts';

describe('PollPacer', () => {
  it('lets a burst through, then one start per 1/rate, and refills while idle up to the burst', () => {
    const pacer = new PollPacer(10, 3, 0);
    expect([pacer.take(0), pacer.take(0), pacer.take(0)]).toEqual([0, 0, 0]);
    expect(pacer.take(0)).toBe(100);
    expect(pacer.take(50)).toBe(50);
    expect(pacer.take(100)).toBe(0);
    expect(pacer.take(100)).toBe(100);
    // Ten idle seconds refill three tokens, not a hundred.
    const starts = [0, 0, 0, 0].map(() => pacer.take(10_100));
    expect(starts).toEqual([0, 0, 0, 100]);
  });

  it('does not pace at rate 0', () => {
    const pacer = new PollPacer(0, 1, 0);
    for (let i = 0; i < 1_000; i++) expect(pacer.take(0)).toBe(0);
  });
});
