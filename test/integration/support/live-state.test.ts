import { describe, expect, it } from 'vitest';
import { apartFromOtherBenchmarks, liveStateChanges, type LiveState } from './live-state.ts';

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

describe("leaving out another benchmark's namespace", () => {
  const during = state({
    topics: new Map([
      ['news.alerts.v1', '0:10,1:4'],
      ['bench.ingest.0a1b2c3d.news.articles.discovered.v1', '0:40'],
      ['bench.webhooks.9f8e7d6c.news.alerts.v1', '0:3'],
    ]),
    tables: new Map([
      ['news.alerts', 14],
      ['bench_ingest_0a1b2c3d.articles', 40],
    ]),
    subjects: ['news.alerts.v1-value', 'bench.ingest.0a1b2c3d.news.articles.discovered.v1-value'],
    redisKeys: new Map([
      ['news:seen:a', true],
      ['news:poll:s', false],
      ['bench:ingest:0a1b2c3d:seen:x', false],
    ]),
  });

  it("keeps the live system's changes and the benchmark's own namespace, drops the other's", () => {
    const changes = liveStateChanges(state(), {
      ...during,
      topics: new Map([...during.topics, ['news.alerts.v1', '0:11,1:4']]),
    });
    expect(apartFromOtherBenchmarks(changes, 'webhooks')).toEqual([
      'topic news.alerts.v1 changed: 0:10,1:4 -> 0:11,1:4',
      'topic bench.webhooks.9f8e7d6c.news.alerts.v1 appeared (0:3)',
    ]);
  });

  it("drops the other's namespace going away too, and only a namespace's exact shape", () => {
    const after = state({
      topics: new Map([
        ['news.alerts.v1', '0:10,1:4'],
        ['bench.ingest.live.v1', '0:1'],
      ]),
    });
    expect(apartFromOtherBenchmarks(liveStateChanges(during, after), 'webhooks')).toEqual([
      'topic bench.ingest.live.v1 appeared (0:1)',
      'topic bench.webhooks.9f8e7d6c.news.alerts.v1 disappeared',
    ]);
  });
});
