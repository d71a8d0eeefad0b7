// Redis losing the poller's memory of emitted articles, with the real Redis, Kafka, registry and a real
// poller process: the memory is rebuilt from news.articles.discovered.v1 and nothing still in the feed
// is emitted again, whether Redis loses its data under a running poller or before a poller starts.
// First the Redis side alone: the mark that a look needs, and the rebuild's writes, which never replace
// what the memory holds as new or newer.
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import type { Consumer, Kafka } from 'kafkajs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ArticleDiscovered, FeedPoll } from '../../services/runtime/events/types.generated.ts';
import { EventProducer } from '../../services/runtime/kafka/producer.ts';
import { createSchemaRegistry, EventCodec } from '../../services/runtime/kafka/registry.ts';
import { topicNames } from '../../services/runtime/kafka/topics.ts';
import type { ArticleRecord } from '../../services/poller/article-revision.ts';
import {
  decodeRecord,
  encodeRecord,
  SeenArticles,
  SeenMemoryLost,
} from '../../services/poller/seen-articles.ts';
import { SeenMemory } from '../../services/poller/seen-memory.ts';
import { SourceRegistry } from '../../services/sources/source-registry.ts';
import { startFeedServer, type FeedServer } from '../support/feed-server.ts';
import { testKafka } from './support/kafka.ts';
import { startPoller, type PollerProcess } from './support/poller-process.ts';
import { stack, testLogger } from './support/stack.ts';
import { waitFor } from './support/wait.ts';

const record = (revision: number): ArticleRecord => ({
  revision,
  fingerprint: {
    title: `t${revision}`,
    summary: 's',
    content: 'c',
    author: 'a',
    published_at: 'p',
    url: 'u',
  },
  firstPublishedAt: 1_000,
  firstDiscoveredAt: 2_000,
  lastRevisionAt: 2_000,
  recentUpdates: [],
});

const item = (n: number, guids: string) =>
  `<item><guid>${guids}${n}</guid><title>Memory item ${n}</title><link>http://news.example/memory/${n}</link>` +
  `<pubDate>Tue, 01 Mar 2005 1${n}:00:00 GMT</pubDate></item>`;
/** `guids`: what the items' guids start with (a feed may change them all: its items are the same). */
const feedOf = (count: number, guids = 'memory-') =>
  `<?xml version="1.0"?><rss version="2.0"><channel><title>Memory</title><link>http://news.example/</link>${Array.from(
    { length: count },
    (_, i) => item(i, guids),
  ).join('')}</channel></rss>`;

describe("the poller's memory in Redis", () => {
  const run = randomUUID().slice(0, 8);
  const prefix = `test:${run}:seen:`;
  const mark = `test:${run}:seen-memory`;
  let redis: Redis;

  beforeAll(() => {
    redis = new Redis(stack.REDIS_URL);
  });
  afterAll(async () => {
    const keys = await redis.keys(`test:${run}:*`);
    if (keys.length) await redis.del(...keys);
    await redis.quit();
  });

  it('claims nothing without its mark, and says why', async () => {
    const seen = new SeenArticles(redis, { ttlSeconds: 3600, prefix, mark });
    await expect(seen.lookAndClaim(['a', 'b'])).rejects.toBeInstanceOf(SeenMemoryLost);
    expect(await redis.exists(`${prefix}a`, `${prefix}b`)).toBe(0);
    await redis.set(mark, '{}');
    const { claimed } = await seen.lookAndClaim(['a', 'b']);
    expect([...claimed].sort()).toEqual(['a', 'b']);
  });

  it('is rebuilt by one poller while the others wait, and rebuilt again if lost during its rebuild', async () => {
    const lock = `test:${run}:rebuild-lock`;
    const marked = `test:${run}:rebuild-mark`;
    let rebuilds = 0;
    let flushDuringFirst = true;
    const rebuild = async () => {
      rebuilds++;
      await new Promise((resolve) => setTimeout(resolve, 300));
      // Redis losing its data again half way: the lock goes with it.
      if (flushDuringFirst) {
        flushDuringFirst = false;
        await redis.del(lock);
      }
      return { events: rebuilds, written: 0, skipped: 0, ranges: [] };
    };
    const memory = () =>
      new SeenMemory({ redis, mark: marked, lock, rebuild, logger: testLogger, waitStepMs: 50 });
    await Promise.all([memory().ensure(), memory().ensure(), memory().ensure()]);
    expect(rebuilds).toBe(2);
    expect(JSON.parse((await redis.get(marked))!)).toMatchObject({ events: 2 });
    expect(await redis.exists(lock)).toBe(0);
    // Marked: nothing to do.
    await memory().ensure();
    expect(rebuilds).toBe(2);
  });

  it('does not rebuild again when the holder marks the memory whole between the look and the claim', async () => {
    const lock = `test:${run}:race-lock`;
    const marked = `test:${run}:race-mark`;
    let rebuilds = 0;
    // The other poller finishes right after this one found no mark: it marks and lets go of the lock.
    let looks = 0;
    const racing = new Proxy(redis, {
      get(target, key, receiver) {
        if (key !== 'exists') return Reflect.get(target, key, receiver) as unknown;
        return async (...keys: string[]) => {
          const found = await target.exists(...keys);
          if (keys[0] === marked && looks++ === 0) await target.set(marked, '{"events":7}');
          return found;
        };
      },
    });
    await new SeenMemory({
      redis: racing,
      mark: marked,
      lock,
      rebuild: async () => {
        rebuilds++;
        return { events: 0, written: 0, skipped: 0, ranges: [] };
      },
      logger: testLogger,
      waitStepMs: 50,
    }).ensure();
    expect(rebuilds).toBe(0);
    expect(await redis.exists(lock)).toBe(0);
    expect(JSON.parse((await redis.get(marked))!)).toEqual({ events: 7 });
  });

  it('writes rebuilt records only over nothing, a legacy memory or an older revision', async () => {
    const seen = new SeenArticles(redis, { ttlSeconds: 3600, prefix });
    await redis.set(`${prefix}claimed`, 'claimed');
    await redis.set(`${prefix}legacy`, 'seen');
    await redis.set(`${prefix}older`, encodeRecord(record(1)));
    await redis.set(`${prefix}newer`, encodeRecord(record(3)));
    await redis.set(`${prefix}same`, encodeRecord(record(2)));
    await redis.set(`${prefix}unreadable`, '{"v":2,broken');
    const ids = ['absent', 'claimed', 'legacy', 'older', 'newer', 'same', 'unreadable'];
    const written = await seen.remember(
      new Map(ids.map((id) => [id, { record: record(2), expiresInSeconds: 600 }])),
    );
    expect(written).toBe(3);
    const values = await redis.mget(...ids.map((id) => `${prefix}${id}`));
    expect(
      Object.fromEntries(ids.map((id, i) => [id, decodeRecord(values[i] ?? '')?.revision ?? values[i]])),
    ).toEqual({
      absent: 2,
      claimed: 'claimed',
      legacy: 2,
      older: 2,
      newer: 3,
      same: 2,
      unreadable: '{"v":2,broken',
    });
    // Kept for what is left of the memory's time, not for ever.
    const ttl = await redis.ttl(`${prefix}absent`);
    expect(ttl).toBeGreaterThan(590);
    expect(ttl).toBeLessThanOrEqual(600);
  });
});

describe('a poller whose Redis lost its memory', () => {
  const run = randomUUID().slice(0, 8);
  let server: FeedServer;
  let kafka: Kafka;
  let codec: EventCodec;
  let producer: EventProducer;
  let redis: Redis;
  let watcher: Consumer;
  let sourceId = '';
  const discovered: ArticleDiscovered[] = [];
  const polls: FeedPoll[] = [];
  const pollers: PollerProcess[] = [];
  const env = {
    POLLER_GROUP: `poller-memory-test-${run}`,
    REDIS_KEY_PREFIX: `test:${run}:`,
    OUTBOUND_ALLOW_LIST: '127.0.0.1',
    POLLER_REBUILD_MEMORY: 'true',
  };
  /** Everything this run's pollers keep in Redis: the memory and its mark, poll states, locks. */
  const loseRedis = async () => {
    const keys = await redis.keys(`test:${run}:*`);
    if (keys.length) await redis.del(...keys);
  };

  beforeAll(async () => {
    server = await startFeedServer();
    server.setMutable(feedOf(3));
    kafka = testKafka();
    codec = new EventCodec(createSchemaRegistry(stack.SCHEMA_REGISTRY_URL));
    producer = await EventProducer.connect(kafka, codec);
    redis = new Redis(stack.REDIS_URL);
    watcher = kafka.consumer({ groupId: `poller-memory-watch-${run}` });
    await watcher.connect();
    await watcher.subscribe({
      topics: [topicNames.articlesDiscovered, topicNames.feedPolls],
      fromBeginning: false,
    });
    const joined = new Promise<void>((resolve) => watcher.on(watcher.events.GROUP_JOIN, () => resolve()));
    const read = new Set<string>();
    await watcher.run({
      eachMessage: async ({ topic, partition, message }) => {
        // A rebalance of the watcher (a busy machine missing heartbeats) hands it messages again: count
        // each offset once, so that what is counted twice was appended twice.
        const at = `${topic}/${partition}/${message.offset}`;
        if (read.has(at)) return;
        read.add(at);
        const value = (await codec.decode(topic, message.value)) as ArticleDiscovered | FeedPoll;
        if (value.source_id !== sourceId) return;
        if (topic === topicNames.articlesDiscovered) discovered.push(value as ArticleDiscovered);
        else polls.push(value as FeedPoll);
      },
    });
    await joined;
    const [added] = await new SourceRegistry({ kafka, codec, producer }).addMany([
      {
        name: `Memory (${run})`,
        feed_url: `${server.url}/mutable.xml`,
        category: 'general',
        language: 'en',
        country: 'gb',
        poll_interval_seconds: 10,
      },
    ]);
    sourceId = added!.source.source_id;
    pollers.push(startPoller(env));
  }, 120_000);

  afterAll(async () => {
    for (const p of pollers) p.child.kill('SIGKILL');
    await producer?.send(topicNames.sources, [{ key: sourceId, value: null }]);
    await watcher?.disconnect();
    await producer?.disconnect();
    await loseRedis();
    await redis?.quit();
    await server?.close();
  });

  const titles = () => discovered.map((a) => `${a.title} r${a.revision}`).sort();
  /** For a failure's message: each article's events, with when each was found (one poll each). */
  const history = () => discovered.map((a) => `${a.title} r${a.revision} at ${a.discovered_at}`).join('; ');
  const expected = (count: number) => Array.from({ length: count }, (_, i) => `Memory item ${i} r1`).sort();

  it('is rebuilt from the log while the poller runs: the feed is not emitted again, its next item is', async () => {
    await waitFor(() => discovered.length === 3, 'the first three articles', 60_000);
    const pollsBefore = polls.length;
    await loseRedis();
    server.setMutable(feedOf(4));
    // The first poll after the loss refuses to claim (and asks for the rebuild); a poll after the
    // rebuild finds the one new item.
    await waitFor(() => discovered.length >= 4, 'the item added after the loss', 90_000);
    const mark = JSON.parse((await redis.get(`test:${run}:seen-memory`)) ?? 'null') as {
      events: number;
    } | null;
    // Rebuilt from the log: this run's three events at least (the stack's topic holds other runs' too).
    expect(mark?.events).toBeGreaterThanOrEqual(3);
    // And a poll or two later, still nothing again.
    const pollsNow = polls.length;
    await waitFor(() => polls.length >= pollsNow + 2, 'two more polls', 60_000);
    expect(polls.length).toBeGreaterThan(pollsBefore);
    expect(titles(), history()).toEqual(expected(4));
  }, 240_000);

  it('is rebuilt before the first poll of a poller started on an empty Redis, aliases and all', async () => {
    const [running] = pollers;
    running!.child.kill('SIGKILL');
    await running!.exited;
    await loseRedis();
    // The same items under new guids besides: the rebuilt memory knows them by their aliases.
    server.setMutable(feedOf(5, 'renamed-'));
    pollers.push(startPoller(env));
    await waitFor(() => discovered.length >= 5, 'the item added while no poller ran', 120_000);
    const pollsNow = polls.length;
    await waitFor(() => polls.length >= pollsNow + 2, 'two more polls', 60_000);
    expect(titles(), history()).toEqual(expected(5));
  }, 240_000);
});
