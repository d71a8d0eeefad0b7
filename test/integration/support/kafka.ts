// Per-test topics: each suite gets fresh topics (with their dead-letter
// topics and registered schemas) so suites never see each other's messages.
import { randomUUID } from 'node:crypto';
import type { Admin, Kafka } from 'kafkajs';
import { createKafka } from '../../../services/runtime/kafka/client.ts';
import { EventProducer } from '../../../services/runtime/kafka/producer.ts';
import { createTopicsAndWait } from '../../../services/runtime/kafka/create-topics.ts';
import { withClusterReplication } from '../../../services/runtime/kafka/replication.ts';
import {
  createSchemaRegistry,
  EventCodec,
  localTypes,
  registerSchemas,
} from '../../../services/runtime/kafka/registry.ts';
import { deadLetterTopicName, type TopicSpec } from '../../../services/runtime/kafka/topics.ts';
import type {
  ArticleDiscovered,
  ArticleEnriched,
  ArticleNarrated,
  StoryEvent,
} from '../../../services/runtime/events/types.generated.ts';
import { stack, testLogger } from './stack.ts';
import { discoveredArticle } from '../../support/discovered-article.ts';

export const testKafka = (): Kafka =>
  createKafka({ brokers: stack.KAFKA_BROKERS, clientId: 'integration-test', logger: testLogger });

export interface TestTopic {
  name: string;
  deadLetters: string;
  codec: EventCodec;
}

/** Creates `test.<name>.<uuid>` carrying the schema of `schemaOf`, plus its DLQ. */
export async function createTestTopic(
  admin: Admin,
  name: string,
  schemaOf = 'news.articles.discovered.v1',
  partitions = 6,
): Promise<TestTopic> {
  const topic = `test.${name}.${randomUUID().slice(0, 8)}`;
  const spec: TopicSpec = {
    name: topic,
    kind: 'stream',
    schemaOf,
    retentionMs: 3_600_000,
    description: 'test',
  };
  await createTopicsAndWait(
    admin,
    await withClusterReplication(admin, [
      { topic, numPartitions: partitions },
      { topic: deadLetterTopicName(topic), numPartitions: 1 },
    ]),
  );
  const types = localTypes([spec]);
  const registry = createSchemaRegistry(stack.SCHEMA_REGISTRY_URL);
  await registerSchemas(registry, types);
  return { name: topic, deadLetters: deadLetterTopicName(topic), codec: new EventCodec(registry, types) };
}

/** Deletes a test topic and its dead-letter topic (suites clean up after themselves). */
export async function deleteTestTopic(admin: Admin, topic: TestTopic | undefined): Promise<void> {
  if (!topic) return;
  await admin.deleteTopics({ topics: [topic.name, topic.deadLetters] }).catch(() => undefined);
}

export async function connectProducer(kafka: Kafka, codec: EventCodec): Promise<EventProducer> {
  return EventProducer.connect(kafka, codec);
}

/** A suite's own topic, with the clients it talks to it through. */
export interface TopicFixture {
  kafka: Kafka;
  admin: Admin;
  topic: TestTopic;
  producer: EventProducer;
  /** Appends articles keyed by their id. */
  sendArticles(articles: readonly ArticleDiscovered[]): Promise<void>;
  /** Disconnects and deletes the topic and its DLQ. */
  close(): Promise<void>;
}

/** createTestTopic plus a connected admin and producer: the set-up of every consumer-runtime suite. */
export async function openTestTopic(
  name: string,
  schemaOf?: string,
  partitions?: number,
): Promise<TopicFixture> {
  const kafka = testKafka();
  const admin = kafka.admin();
  await admin.connect();
  const topic = await createTestTopic(admin, name, schemaOf, partitions);
  const producer = await connectProducer(kafka, topic.codec);
  return {
    kafka,
    admin,
    topic,
    producer,
    sendArticles: (articles) =>
      producer.sendTo(
        topic.name,
        articles.map((a) => ({ key: a.article_id, value: a })),
      ),
    async close() {
      await producer.disconnect();
      await deleteTestTopic(admin, topic);
      await admin.disconnect();
    },
  };
}

export function sampleArticle(n: number, overrides: Partial<ArticleDiscovered> = {}): ArticleDiscovered {
  const at = Date.UTC(2026, 10, 20, 12, 0, 0) + n * 1000;
  return discoveredArticle(`article-${n}`, at, {
    source_id: 'source-bbc',
    source_name: 'BBC News',
    guid: `guid-${n}`,
    url: `https://news.example/articles/${n}`,
    original_url: `https://news.example/articles/${n}?utm_source=rss`,
    title: `Article number ${n} — “quoted” ünïcödé`,
    summary: `Summary ${n}`,
    content: `Full text of article ${n}.`,
    discovered_at: at + 500,
    category: 'business',
    occurred_at: at + 500,
    ...overrides,
  });
}

/** Reads every message currently in a topic (from the beginning) with a throwaway group. */
export async function readAll(
  kafka: Kafka,
  topic: string,
  expected: number,
  timeoutMs = 30_000,
): Promise<
  { key: string | null; value: Buffer | null; headers: Record<string, string>; partition: number }[]
> {
  const consumer = kafka.consumer({ groupId: `reader-${randomUUID()}` });
  const out: {
    key: string | null;
    value: Buffer | null;
    headers: Record<string, string>;
    partition: number;
  }[] = [];
  await consumer.connect();
  await consumer.subscribe({ topic, fromBeginning: true });
  let done!: () => void;
  const finished = new Promise<void>((resolve) => (done = resolve));
  await consumer.run({
    eachMessage: async ({ message, partition }) => {
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(message.headers ?? {})) headers[k] = String(v);
      out.push({ key: message.key?.toString() ?? null, value: message.value, headers, partition });
      if (out.length >= expected) done();
    },
  });
  const timer = setTimeout(done, timeoutMs);
  await finished;
  clearTimeout(timer);
  await consumer.disconnect();
  return out;
}

/** A succeeded enrichment of an article, at `at`. */
export function sampleEnrichment(
  articleId: string,
  at: number,
  overrides: Partial<ArticleEnriched> = {},
): ArticleEnriched {
  return {
    article_id: articleId,
    status: 'succeeded',
    failure_reason: null,
    summary: 'A short summary.',
    context: null,
    context_article_ids: [],
    insights: ['Profits rose 76%.'],
    sentiment: { label: 'positive', score: 0.6 },
    entities: [{ name: 'Time Warner', type: 'organization', salience: 0.9, mentions: 3 }],
    keywords: ['profit'],
    category: 'business',
    language: 'en',
    reading_time_seconds: 42,
    provider: 'embedded',
    model: 'extractive-1',
    enriched_at: at,
    revision: 1,
    occurred_at: at,
    article_url: null,
    article_title: null,
    ...overrides,
  };
}

/** The audio store key of sampleNarration (no file is behind it). */
export const sampleAudioKey = `${'c'.repeat(40)}.mp3`;

/** The clusterer opening story `storyId` with `article` (a business story in English), now. */
export function openedStory(
  storyId: string,
  article: Pick<ArticleDiscovered, 'article_id' | 'source_id'>,
): StoryEvent {
  return {
    type: 'opened',
    story_id: storyId,
    article_id: article.article_id,
    source_id: article.source_id,
    language: 'en',
    category: 'business',
    article_at: Date.now(),
    similarity: null,
    terms: [],
    distinct_terms: [],
    merged_into: null,
    article_ids: [],
    occurred_at: Date.now(),
  };
}

/** A succeeded narration of an article, at `at`. */
export function sampleNarration(articleId: string, at: number): ArticleNarrated {
  return {
    article_id: articleId,
    status: 'succeeded',
    failure_reason: null,
    audio_url: `http://localhost/v1/audio/${sampleAudioKey}`,
    audio_key: sampleAudioKey,
    voice: 'en-GB-standard',
    format: 'mp3',
    duration_ms: 61_000,
    characters: 900,
    provider: 'espeak-ng',
    occurred_at: at,
  };
}
