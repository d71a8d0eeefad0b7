// Batch mode (the projector's): a whole fetched batch goes to the handler at
// once; undecodable messages are dead-lettered before it; a batch that keeps
// failing is retried one message at a time, so only the bad one is lost to the
// dead-letter topic and every other message is handled.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConsumerRunner } from '../../services/runtime/kafka/consumer.ts';
import { deadLetterHeaders } from '../../services/runtime/kafka/dead-letter.ts';
import type { ArticleDiscovered } from '../../services/runtime/events/types.generated.ts';
import { openTestTopic, readAll, sampleArticle, type TopicFixture } from './support/kafka.ts';
import { testLogger } from './support/stack.ts';
import { waitFor } from './support/wait.ts';

describe('batch consumer', () => {
  let fixture: TopicFixture;
  let runner: ConsumerRunner<ArticleDiscovered>;
  const stored = new Set<string>();
  const batchSizes: number[] = [];

  beforeAll(async () => {
    fixture = await openTestTopic('batch', 'news.articles.discovered.v1', 1);
    const { kafka, topic, producer } = fixture;
    const articles = Array.from({ length: 50 }, (_, i) =>
      sampleArticle(i, i === 25 ? { article_id: 'bad-row' } : {}),
    );
    await fixture.sendArticles(articles.slice(0, 10));
    await producer.sendRaw(topic.name, [{ key: 'garbage', value: Buffer.from('not avro'), headers: {} }]);
    await fixture.sendArticles(articles.slice(10));

    runner = new ConsumerRunner<ArticleDiscovered>({
      kafka,
      codec: topic.codec,
      producer,
      logger: testLogger,
      groupId: `batch-${topic.name}`,
      topics: [topic.name],
      retry: { maxAttempts: 2, initialBackoffMs: 10, maxBackoffMs: 20 },
      // Like a ClickHouse insert: all or nothing, and one bad row fails the lot.
      batchHandler: async (events) => {
        batchSizes.push(events.length);
        if (events.some((e) => e.value!.article_id === 'bad-row'))
          throw new Error('row 25 violates a constraint');
        for (const e of events) stored.add(e.value!.article_id);
      },
    });
    await runner.start();
    await waitFor(() => stored.has('article-49'), 'the last message to be stored');
  });

  afterAll(async () => {
    await runner?.stop();
    await fixture?.close();
  });

  it('hands whole batches to the handler', () => {
    expect(Math.max(...batchSizes)).toBeGreaterThan(1);
  });

  it('stores every good message and dead-letters only the bad one and the undecodable one, once each', async () => {
    expect(stored.size).toBe(49);
    expect(stored.has('bad-row')).toBe(false);
    const dead = await readAll(fixture.kafka, fixture.topic.deadLetters, 2);
    expect(dead.map((d) => d.key).sort()).toEqual(['bad-row', 'garbage']);
    expect(dead.find((d) => d.key === 'garbage')!.headers[deadLetterHeaders.reason]).toMatch(
      /Confluent wire format/,
    );
    expect(dead.find((d) => d.key === 'bad-row')!.headers[deadLetterHeaders.reason]).toMatch(
      /gave up after 2 attempts: Error: row 25 violates a constraint/,
    );
    expect(runner.snapshot()).toMatchObject({ processed: 49, deadLettered: 2 });
  });
});
