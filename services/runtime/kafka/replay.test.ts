import { describe, expect, it } from 'vitest';
import { appendedSince, eventsIn, wholeLog, type PartitionOffsets } from './replay.ts';

const at = (partition: number, low: number, high: number): PartitionOffsets => ({
  topic: 'news.articles.discovered.v1',
  partition,
  low,
  high,
});

describe('wholeLog', () => {
  it('reads each partition from its first retained offset to its high watermark', () => {
    expect(wholeLog([at(0, 0, 10), at(1, 4, 4)])).toEqual([
      { topic: 'news.articles.discovered.v1', partition: 0, from: 0, to: 10 },
      { topic: 'news.articles.discovered.v1', partition: 1, from: 4, to: 4 },
    ]);
    expect(eventsIn(wholeLog([at(0, 0, 10), at(1, 4, 4)]))).toBe(10);
  });
});

describe('appendedSince', () => {
  it('covers exactly what was appended after the first capture', () => {
    const ranges = appendedSince([at(0, 0, 10), at(1, 0, 5)], [at(0, 0, 12), at(1, 0, 5)]);
    expect(ranges.map((r) => [r.from, r.to])).toEqual([
      [10, 12],
      [5, 5],
    ]);
    expect(eventsIn(ranges)).toBe(2);
  });

  it('reads a partition created meanwhile from its start', () => {
    expect(appendedSince([at(0, 0, 10)], [at(0, 0, 10), at(1, 0, 3)])[1]).toMatchObject({ from: 0, to: 3 });
  });

  it('starts no earlier than what retention left', () => {
    expect(appendedSince([at(0, 0, 10)], [at(0, 15, 20)])[0]).toMatchObject({ from: 15, to: 20 });
  });
});
