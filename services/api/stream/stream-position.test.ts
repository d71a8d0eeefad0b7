import { describe, expect, it } from 'vitest';
import {
  decodePosition,
  encodePosition,
  InvalidPositionError,
  reaches,
  samePosition,
  streamTopics,
} from './stream-position.ts';

describe('stream positions as event ids', () => {
  const position = [[0, 35, 1_000_000], [7, 8], [123_456_789_012], [4]];

  it('round-trips through the id text', () => {
    const id = encodePosition(position);
    expect(id).toBe('0.z.lfls~7.8~1kpqzg2c~4');
    expect(decodePosition(id, [3, 2, 1, 1])).toEqual(position);
  });

  it('starts partitions added since the id was sent at 0, so nothing on them is missed', () => {
    expect(decodePosition('5~6~7~8', [2, 1, 3, 1])).toEqual([[5, 0], [6], [7, 0, 0], [8]]);
  });

  it('resumes an id from before the stream read stories, taking the stories topic from now', () => {
    const now = [[9, 9], [9], [9], [42]];
    expect(decodePosition('5.1~6~7', [2, 1, 1, 1], now)).toEqual([[5, 1], [6], [7], [42]]);
    expect(() => decodePosition('5.1~6~7', [2, 1, 1, 1])).toThrow(InvalidPositionError);
  });

  it.each([
    ['nothing', ''],
    ['too few topics', '1.2~3'],
    ['too many topics', '1~2~3~4~5'],
    ['an empty offset', '1..2~3~4~5'],
    ['upper case', 'A~1~1~1'],
    ['a line break', '1~2~3~4\nevent: x'],
    ['more partitions than the topic has', '1.2.3~1~1~1'],
    ['an offset beyond any Kafka offset', '1~1~1~' + 'z'.repeat(13)],
    ['2,000 characters and more', '1~1~1~' + '1.'.repeat(1_500) + '1'],
  ])('refuses an id with %s', (_, id) => {
    expect(() => decodePosition(id, [2, 1, 1, 1], [[0, 0], [0], [0], [0]])).toThrow(InvalidPositionError);
  });

  it('compares positions partition by partition', () => {
    expect(reaches([[2, 3], [1]], [[2, 2], [0]])).toBe(true);
    expect(reaches([[2, 3], [1]], [[3, 0], [0]])).toBe(false);
    expect(samePosition([[2, 3]], [[2, 3]])).toBe(true);
    expect(samePosition([[2, 3]], [[2, 4]])).toBe(false);
  });

  it('reads the topics the stream is made of, in a fixed order', () => {
    expect(streamTopics).toEqual([
      'news.articles.discovered.v1',
      'news.articles.enriched.v1',
      'news.alerts.v1',
      'news.stories.v1',
    ]);
  });
});
