// A message that cannot be processed lands in `<topic>.dlq` with its reason,
// and the messages behind it on the same partition are still processed.
import { Registry } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConsumerRunner } from '../../services/runtime/kafka/consumer.ts';
import { deadLetterHeaders } from '../../services/runtime/kafka/dead-letter.ts';
import { DependencyUnavailableError, PoisonMessageError } from '../../services/runtime/kafka/errors.ts';
import type { ArticleDiscovered } from '../../services/runtime/events/types.generated.ts';
import { openTestTopic, readAll, sampleArticle, type TopicFixture } from './support/kafka.ts';
import { testLogger } from './support/stack.ts';
import { waitFor } from './support/wait.ts';

describe('dead letters', () => {
  let fixture: TopicFixture;
  let runner: ConsumerRunner<ArticleDiscovered>;
  const handled: string[] = [];
  const attemptsOf = new Map<string, number>();
  const metrics = new Registry();
  const garbage = Buffer.from('definitely not avro \u0000\u0001', 'utf8');
  const wrongSchemaId = Buffer.from([0, 0x7f, 0xff, 0xff, 0xf0, 1, 2, 3]);

  beforeAll(async () => {
    fixture = await openTestTopic('dlq', 'news.articles.discovered.v1', 1);
    const { kafka, topic, producer } = fixture;

    // All on partition 0, in this order.
    await producer.sendTo(topic.name, [{ key: 'a1', value: sampleArticle(1) }]);
    await producer.sendRaw(topic.name, [{ key: 'garbage', value: garbage, headers: { origin: 'test' } }]);
    await producer.sendRaw(topic.name, [{ key: 'unknown-schema', value: wrongSchemaId, headers: {} }]);
    await producer.sendTo(topic.name, [
      { key: 'a2', value: sampleArticle(2) },
      { key: 'rejected', value: sampleArticle(3, { article_id: 'rejected' }) },
      { key: 'flaky', value: sampleArticle(4, { article_id: 'flaky' }) },
      { key: 'hopeless', value: sampleArticle(5, { article_id: 'hopeless' }) },
      { key: 'outage', value: sampleArticle(7, { article_id: 'outage' }) },
      { key: 'a6', value: sampleArticle(6) },
    ]);

    runner = new ConsumerRunner<ArticleDiscovered>({
      kafka,
      codec: topic.codec,
      producer,
      logger: testLogger,
      groupId: `dlq-${topic.name}`,
      topics: [topic.name],
      metrics,
      retry: { maxAttempts: 3, initialBackoffMs: 10, maxBackoffMs: 50 },
      handler: async ({ value }) => {
        const id = value!.article_id;
        const attempt = (attemptsOf.get(id) ?? 0) + 1;
        attemptsOf.set(id, attempt);
        if (id === 'rejected') throw new PoisonMessageError('article has no usable title');
        if (id === 'flaky' && attempt < 3) throw new Error('ClickHouse briefly unavailable');
        if (id === 'hopeless') throw new Error('downstream keeps failing');
        if (id === 'outage' && attempt <= 4) throw new DependencyUnavailableError('ClickHouse is down');
        handled.push(id);
      },
    });
    await runner.start();
    await waitFor(() => handled.includes('article-6'), 'the last message to be handled');
  });

  afterAll(async () => {
    await runner?.stop();
    await fixture?.close();
  });

  it('processes the messages behind the poison ones, in order', () => {
    expect(handled).toEqual(['article-1', 'article-2', 'flaky', 'outage', 'article-6']);
  });

  it('retries a transient failure and does not dead-letter it once it succeeds', () => {
    expect(attemptsOf.get('flaky')).toBe(3);
  });

  it('waits out an unavailable dependency beyond maxAttempts, without dead-lettering', () => {
    expect(attemptsOf.get('outage')).toBe(5);
  });

  it('dead-letters undecodable bytes, unknown schema ids, declared poison and exhausted retries, with reasons', async () => {
    const dead = await readAll(fixture.kafka, fixture.topic.deadLetters, 4);
    expect(dead.map((d) => d.key)).toEqual(['garbage', 'unknown-schema', 'rejected', 'hopeless']);

    const [notAvro, unknownSchema, rejected, hopeless] = dead;
    expect(notAvro!.value).toEqual(garbage); // original bytes, unchanged
    expect(notAvro!.headers.origin).toBe('test'); // original headers kept
    expect(notAvro!.headers[deadLetterHeaders.reason]).toMatch(/not in the Confluent wire format/);
    expect(notAvro!.headers[deadLetterHeaders.topic]).toBe(fixture.topic.name);
    expect(notAvro!.headers[deadLetterHeaders.partition]).toBe('0');
    expect(notAvro!.headers[deadLetterHeaders.offset]).toBe('1');
    expect(notAvro!.headers[deadLetterHeaders.attempts]).toBe('1');
    expect(Date.parse(notAvro!.headers[deadLetterHeaders.failedAt]!)).not.toBeNaN();

    expect(unknownSchema!.headers[deadLetterHeaders.reason]).toMatch(
      /schema id \d+ is unknown to the registry/,
    );
    expect(rejected!.headers[deadLetterHeaders.reason]).toBe(
      'PoisonMessageError: article has no usable title',
    );
    expect(hopeless!.headers[deadLetterHeaders.reason]).toBe(
      'gave up after 3 attempts: Error: downstream keeps failing',
    );
    expect(hopeless!.headers[deadLetterHeaders.attempts]).toBe('3');
  });

  it('counts processed, retried and dead-lettered messages and exposes them as metrics', async () => {
    const stats = runner.snapshot();
    expect(stats.processed).toBe(5);
    expect(stats.deadLettered).toBe(4);
    expect(stats.retried).toBe(2 + 2); // flaky twice, hopeless twice before giving up
    await waitFor(() => runner.snapshot().lag[`${fixture.topic.name}/0`] === 0, 'lag to reach 0');
    const text = await metrics.metrics();
    expect(text).toMatch(
      new RegExp(
        `news_consumer_messages_dead_lettered_total\\{group="dlq-${fixture.topic.name.replace(/\./g, '\\.')}",topic="[^"]+"\\} 4`,
      ),
    );
  });
});
