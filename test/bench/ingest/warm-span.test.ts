import { describe, expect, it } from 'vitest';
import { threadsStartedSince, warmSpan } from './warm-span.ts';

const tally = (feeds: number, articles: number, cpuSeconds: number) => ({
  feeds,
  articles,
  cpuSeconds,
  wallSeconds: cpuSeconds,
});
const poll = (source_id: string, started_at: number, new_items: number, updated_items = 0) => ({
  source_id,
  started_at,
  new_items,
  updated_items,
});

describe('warmSpan', () => {
  const baseline = { warm: tally(8, 160, 4), separate: tally(2, 1200, 0.6) };

  it('counts the polls started from the warm span on, and the large feeds in the share it took', () => {
    const polls = [
      poll('a', 90, 20),
      poll('b', 100, 20, 1), // started at the cut: counted
      poll('c', 150, 18),
      poll('big1', 120, 600),
      poll('big2', 50, 600), // in the warm-up
    ];
    const warm = warmSpan(polls, 100, new Set(['big1', 'big2']), baseline);
    expect(warm).toMatchObject({ polls: 3, articles: 21 + 18 + 600, largePolls: 1 });
    // The small bodies after the parse's warm-up, and half the large ones (one of two).
    expect(warm.parse).toEqual({ feeds: 9, articles: 160 + 600, cpuSeconds: 4.3, wallSeconds: 4.3 });
  });

  it('counts the large bodies of every pass of the parse-only loop', () => {
    // Two passes over two large feeds: four large bodies, of which the poller's warm span took half.
    const twoPasses = { warm: tally(16, 320, 8), separate: tally(4, 2400, 1.2) };
    const polls = [poll('a', 200, 20), poll('big1', 150, 600), poll('big2', 10, 600)];
    expect(warmSpan(polls, 100, new Set(['big1', 'big2']), twoPasses).parse).toEqual({
      feeds: 18,
      articles: 320 + 1200,
      cpuSeconds: 8.6,
      wallSeconds: 8.6,
    });
  });

  it('leaves the large bodies out when the warm span of the poller had none of them, or there are none', () => {
    const polls = [poll('a', 200, 20), poll('big', 10, 600)];
    expect(warmSpan(polls, 100, new Set(['big']), baseline).parse).toEqual(baseline.warm);
    expect(warmSpan([poll('a', 200, 20)], 100, new Set(), baseline)).toEqual({
      polls: 1,
      articles: 20,
      largePolls: 0,
      parse: baseline.warm,
    });
  });
});

describe('threadsStartedSince', () => {
  it('sums the CPU of the threads that were not there before', () => {
    const then = new Map([
      ['1', 5],
      ['2', 1],
    ]);
    const now = new Map([
      ['1', 9],
      ['2', 1.5],
      ['7', 0.4],
      ['8', 0.25],
    ]);
    expect(threadsStartedSince(then, now)).toBeCloseTo(0.65, 9);
    expect(threadsStartedSince(now, now)).toBe(0);
  });
});
