import { describe, expect, it } from 'vitest';
import { liveStateChanges, type LiveState } from './live-state.ts';

const state = (overrides: Partial<LiveState> = {}): LiveState => ({
  topics: new Map([['news.alerts.v1', '0:10,1:4']]),
  groups: new Map([['dispatcher.alerts', 'news.alerts.v1/0:10']]),
  subjects: ['news.alerts.v1-value'],
  tables: new Map([['news.alerts', 14]]),
  redisKeys: new Map([
    ['news:seen:a', true],
    ['news:poll:s', false],
  ]),
  ...overrides,
});

describe('comparing two snapshots of the live system', () => {
  it('finds nothing when nothing changed', () => {
    expect(liveStateChanges(state(), state())).toEqual([]);
  });

  it('names every kind of change a benchmark could leave behind', () => {
    const after = state({
      topics: new Map([
        ['news.alerts.v1', '0:11,1:4'],
        ['bench.x.news.alerts.v1', '0:3'],
      ]),
      groups: new Map([['dispatcher.alerts', 'news.alerts.v1/0:11']]),
      subjects: ['bench.x.news.alerts.v1-value', 'news.alerts.v1-value'],
      tables: new Map([['news.alerts', 15]]),
      redisKeys: new Map([
        ['news:seen:a', true],
        ['news:poll:s', false],
        ['bench:x:seen:b', false],
      ]),
    });
    expect(liveStateChanges(state(), after)).toEqual([
      'topic news.alerts.v1 changed: 0:10,1:4 -> 0:11,1:4',
      'topic bench.x.news.alerts.v1 appeared (0:3)',
      'consumer group dispatcher.alerts changed: news.alerts.v1/0:10 -> news.alerts.v1/0:11',
      'table news.alerts changed: 14 -> 15',
      'schema subject bench.x.news.alerts.v1-value appeared (true)',
      'Redis key bench:x:seen:b appeared',
    ]);
  });

  it('lets a group without commits go (Kafka removes such empty groups), but not one with commits', () => {
    const before = state({
      groups: new Map([
        ['dispatcher.alerts', 'news.alerts.v1/0:10'],
        ['api-stream-1', ''],
      ]),
    });
    expect(
      liveStateChanges(before, state({ groups: new Map([['dispatcher.alerts', 'news.alerts.v1/0:10']]) })),
    ).toEqual([]);
    expect(liveStateChanges(before, state({ groups: new Map([['api-stream-1', '']]) }))).toEqual([
      'consumer group dispatcher.alerts disappeared',
    ]);
  });

  it('lets a key with a time to live expire, but not one without', () => {
    const gone = state({ redisKeys: new Map() });
    expect(liveStateChanges(state(), gone)).toEqual(['Redis key news:poll:s (without expiry) disappeared']);
  });
});
