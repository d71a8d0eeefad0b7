// Deferred commits (the projector's): a batch handed over lets the consumer fetch on, but its offsets
// are committed only once the write that carried it succeeded; a failed write is never committed, its
// range is read again and handled like a batch handler's (retried, split, the bad message
// dead-lettered), and every other message is written.
import { afterAll, describe, expect, it } from 'vitest';
import type { ArticleDiscovered } from '../../services/runtime/events/types.generated.ts';
import { ConsumerRunner, type ConsumedEvent } from '../../services/runtime/kafka/consumer.ts';
import { consumerGroup } from '../../services/runtime/kafka/topics.ts';
import { GroupInsert } from '../../services/projector/group-insert.ts';
import { openTestTopic, readAll, sampleArticle, type TopicFixture } from './support/kafka.ts';
import { testLogger } from './support/stack.ts';
import { waitFor } from './support/wait.ts';

/** The offset the group committed on partition 0 of the fixture's topic (-1: none). */
async function committed(fixture: TopicFixture, groupId: string): Promise<number> {
  const [topic] = await fixture.admin.fetchOffsets({
    groupId: consumerGroup(groupId),
    topics: [fixture.topic.name],
  });
  return Number(topic!.partitions.find((p) => p.partition === 0)!.offset);
}

describe('deferred commits', () => {
  const fixtures: TopicFixture[] = [];
  const runners: ConsumerRunner<ArticleDiscovered>[] = [];

  afterAll(async () => {
    for (const runner of runners) await runner.stop();
    for (const fixture of fixtures) await fixture.close();
  });

  it('fetches on while a write is in flight and commits nothing until it succeeded', async () => {
    const fixture = await openTestTopic('deferred-hold', 'news.articles.discovered.v1', 1);
    fixtures.push(fixture);
    const groupId = `deferred-hold-${fixture.topic.name}`;
    const handed: string[] = [];
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const runner = new ConsumerRunner<ArticleDiscovered>({
      kafka: fixture.kafka,
      codec: fixture.topic.codec,
      producer: fixture.producer,
      logger: testLogger,
      groupId,
      topics: [fixture.topic.name],
      handOver: async (events) => {
        handed.push(...events.map((e) => e.value!.article_id));
        return { written: held };
      },
    });
    runners.push(runner);
    await fixture.sendArticles(Array.from({ length: 10 }, (_, i) => sampleArticle(i)));
    await runner.start();
    await waitFor(() => handed.length >= 10, 'the first batch to be handed over');
    // The next fetch does not wait for the write.
    await fixture.sendArticles(Array.from({ length: 5 }, (_, i) => sampleArticle(10 + i)));
    await waitFor(() => handed.length >= 15, 'the next batch to be handed over while the first is unwritten');
    expect(await committed(fixture, groupId)).toBe(-1);
    release();
    await waitFor(
      async () => (await committed(fixture, groupId)) === 15,
      'the written offsets to be committed',
    );
    expect(runner.snapshot().processed).toBe(15);
  }, 60_000);

  it('reads a failed write again, dead-letters only the bad message and the undecodable one, once each, and commits all', async () => {
    const fixture = await openTestTopic('deferred-fail', 'news.articles.discovered.v1', 1);
    fixtures.push(fixture);
    const groupId = `deferred-fail-${fixture.topic.name}`;
    const articles = Array.from({ length: 50 }, (_, i) =>
      sampleArticle(i, i === 25 ? { article_id: 'bad-row' } : {}),
    );
    await fixture.sendArticles(articles.slice(0, 10));
    await fixture.producer.sendRaw(fixture.topic.name, [
      { key: 'garbage', value: Buffer.from('not avro'), headers: {} },
    ]);
    await fixture.sendArticles(articles.slice(10));
    const stored = new Map<string, number>(); // article -> times written
    const writes: number[] = [];
    // Like the projector's group insert: one bad row fails the whole insert and every batch it carried.
    const write = async (batches: ConsumedEvent<ArticleDiscovered>[][]) => {
      const events = batches.flat();
      writes.push(events.length);
      if (events.some((e) => e.value!.article_id === 'bad-row'))
        throw new Error('row 25 violates a constraint');
      for (const e of events) stored.set(e.value!.article_id, (stored.get(e.value!.article_id) ?? 0) + 1);
    };
    const group = new GroupInsert<ConsumedEvent<ArticleDiscovered>[]>({
      maxRows: 1_000,
      maxBytes: 2 ** 30,
      maxInFlight: 2,
      size: (events) => ({ rows: events.length, bytes: 0 }),
      write,
    });
    const runner = new ConsumerRunner<ArticleDiscovered>({
      kafka: fixture.kafka,
      codec: fixture.topic.codec,
      producer: fixture.producer,
      logger: testLogger,
      groupId,
      topics: [fixture.topic.name],
      retry: { maxAttempts: 2, initialBackoffMs: 10, maxBackoffMs: 20 },
      // As the projector's: a batch read again after a failure is written alone.
      handOver: async (events, { replay }) => (replay ? { written: write([events]) } : group.add(events)),
      idle: () => group.idle(),
    });
    runners.push(runner);
    await runner.start();
    await waitFor(() => stored.has('article-49'), 'the last message to be stored');
    await waitFor(async () => (await committed(fixture, groupId)) === 51, 'every offset to be committed');
    expect(stored.size).toBe(49);
    expect(stored.has('bad-row')).toBe(false);
    expect(writes[0]).toBeGreaterThan(1); // whole batches were handed over first
    const dead = await readAll(fixture.kafka, fixture.topic.deadLetters, 2);
    expect(dead.map((d) => d.key).sort()).toEqual(['bad-row', 'garbage']);
    expect(runner.snapshot()).toMatchObject({ processed: 49, deadLettered: 2 });
  }, 60_000);
});
