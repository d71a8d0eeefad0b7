import { describe, expect, it } from 'vitest';
import { inWindow, listWindows, readNewestFirst, windowSpans, windowStarts } from './time-windows.ts';

const day = 86_400_000;

describe('newest windows', () => {
  it('widen from hours to years, then drop the bound', () => {
    const starts = windowStarts(1000 * day);
    expect(starts).toHaveLength(windowSpans.length + 1);
    expect(starts.at(-1)).toBeNull();
    const bounded = starts.slice(0, -1) as number[];
    expect(bounded).toEqual([...bounded].sort((a, b) => b - a));
    expect(bounded[0]).toBe(1000 * day - 6 * 3_600_000);
  });

  it('stop widening below the date range: its own start bounds the last read', () => {
    expect(windowStarts(100 * day, 99 * day)).toEqual([100 * day - 6 * 3_600_000, null]);
    expect(windowStarts(100 * day, 100 * day)).toEqual([null]);
  });

  it('read until a window fills the page plus one, or the archive as a whole', async () => {
    // Matching articles, one a day, the newest at day 100.
    const times = Array.from({ length: 60 }, (_, i) => (100 - i) * day);
    const reads: (number | null)[] = [];
    const read = async (start: number | null) => {
      reads.push(start);
      return times.filter((t) => start === null || t >= start);
    };
    // 20 + 1 needs three weeks: 6 h (1), 2 days (3), 14 days (15), 90 days (60 > 21).
    expect(await readNewestFirst(windowStarts(100 * day), 20, read)).toHaveLength(60);
    expect(reads).toHaveLength(4);
    reads.length = 0;
    expect(await readNewestFirst(windowStarts(100 * day), 100, read)).toHaveLength(60);
    expect(reads.at(-1)).toBeNull();
  });

  it('start at the earliest of now, the date range end and a cursor, and narrow the filter to a window', () => {
    const range = { from: new Date(10 * day), to: new Date(50 * day) };
    expect(listWindows(range, 100 * day)[0]).toBe(50 * day - 6 * 3_600_000);
    expect(listWindows(range, 100 * day, 40 * day)[0]).toBe(40 * day - 6 * 3_600_000);
    expect(listWindows(undefined, 100 * day)[0]).toBe(100 * day - 6 * 3_600_000);
    const filter = { categories: ['science'], dateRange: range };
    expect(inWindow(filter, 45 * day)).toEqual({
      categories: ['science'],
      dateRange: { from: new Date(45 * day), to: range.to },
    });
    expect(inWindow(filter, null)).toBe(filter);
  });
});
