// Events on the real topics -> the projector -> ClickHouse read models, and a
// full replay of every topic into the same tables changes no answer.
import { randomUUID } from 'node:crypto';
import type { Kafka } from 'kafkajs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClickHouse } from '../../services/runtime/clickhouse/client.ts';
import { sql } from '../../services/runtime/clickhouse/literal.ts';
import type { FeedPoll } from '../../services/runtime/events/types.generated.ts';
import { ConsumerRunner } from '../../services/runtime/kafka/consumer.ts';
import { EventProducer } from '../../services/runtime/kafka/producer.ts';
import { createSchemaRegistry, EventCodec } from '../../services/runtime/kafka/registry.ts';
import { topicNames } from '../../services/runtime/kafka/topics.ts';
import { groupedProjection } from '../../services/projector/projector.ts';
import { projectedTables } from '../../services/projector/rows.ts';
import { sourceState } from '../../services/sources/source.ts';
import {
  sampleArticle,
  sampleAudioKey,
  sampleEnrichment,
  sampleNarration,
  testKafka,
} from './support/kafka.ts';
import { stack, testClickHouse, testLogger } from './support/stack.ts';
import { waitFor, waitUntilEqual } from './support/wait.ts';

describe('projector', () => {
  const run = randomUUID().replace(/-/g, '').slice(0, 10);
  const database = `test_projection_${run}`;
  let kafka: Kafka;
  let codec: EventCodec;
  let producer: EventProducer;
  let clickhouse: ClickHouse;
  const runners: ConsumerRunner[] = [];

  const at = Date.UTC(2026, 10, 20, 9, 30, 0);
  const articles = [1, 2, 3].map((n) =>
    sampleArticle(n, {
      article_id: `art_${run}_${n}`,
      source_id: `src_${run}`,
      published_at: at + n * 3_600_000,
    }),
  );
  const source = sourceState(
    {
      name: `Projection ${run}`,
      feed_url: `https://proj-${run}.example/feed`,
      category: 'business',
      language: 'en',
      country: 'gb',
    },
    null,
    at,
  );
  const gone = sourceState(
    {
      name: `Gone ${run}`,
      feed_url: `https://gone-${run}.example/feed`,
      category: 'world',
      language: 'en',
      country: 'us',
    },
    null,
    at,
  );
  const poll = (n: number, status: FeedPoll['status']): FeedPoll => ({
    poll_id: `poll_${run}_${n}`,
    source_id: source.source_id,
    feed_url: source.feed_url,
    status,
    http_status: status === 'ok' ? 200 : 503,
    items_seen: status === 'ok' ? 3 : 0,
    new_items: status === 'ok' ? 3 : 0,
    etag: null,
    last_modified: null,
    duration_ms: 40 + n,
    error_reason: status === 'ok' ? null : 'HTTP 503 Service Unavailable',
    started_at: at + n * 60_000,
    consecutive_failures: status === 'ok' ? 0 : 1,
    healthy: true,
    next_poll_at: at + (n + 15) * 60_000,
    poll_interval_seconds: null,
    interval_reason: null,
    trigger: 'poll',
    skipped_items: 0,
    skipped_reasons: [],
    updated_items: 0,
    warnings: [],
    final_url: null,
    redirect_statuses: [],
    occurred_at: at + n * 60_000 + 40,
  });
  const enrichment = sampleEnrichment(articles[0]!.article_id, at + 1000);
  const narration = sampleNarration(articles[0]!.article_id, at + 2000);

  const startProjector = async (group: string) => {
    // As services/projector/main.ts: group commit and deferred commits.
    const projection = groupedProjection(clickhouse);
    const runner = new ConsumerRunner({
      kafka,
      codec,
      producer,
      logger: testLogger,
      groupId: group,
      topics: Object.keys(projectedTables),
      fromBeginning: true,
      partitionsConcurrently: 3,
      handOver: projection.handOver,
      idle: projection.idle,
    });
    runners.push(runner);
    await runner.start();
    return runner;
  };

  /** Everything the read models answer about this test's entities. */
  const answers = async () => ({
    articles: await clickhouse.query(
      sql`SELECT article_id, title, toString(published_at) AS published_at, language, category FROM articles FINAL WHERE source_id = ${`src_${run}`} ORDER BY article_id`,
    ),
    enrichment: await clickhouse.query(
      sql`SELECT summary, sentiment_label, entity_names FROM article_enrichments FINAL WHERE article_id = ${articles[0]!.article_id}`,
    ),
    narration: await clickhouse.query(
      sql`SELECT audio_url, duration_ms FROM article_narrations FINAL WHERE article_id = ${articles[0]!.article_id}`,
    ),
    sources: await clickhouse.query(
      sql`SELECT source_id, name, poll_interval_seconds, deleted FROM sources FINAL WHERE source_id IN (${source.source_id}, ${gone.source_id}) ORDER BY name`,
    ),
    health: await clickhouse.query(
      sql`SELECT last_status, last_error, polls, polls_ok, articles_discovered FROM source_health WHERE source_id = ${source.source_id}`,
    ),
    perHour: await clickhouse.query(
      sql`SELECT toString(hour) AS hour, articles FROM articles_per_source_hour WHERE source_id = ${`src_${run}`} ORDER BY hour`,
    ),
  });

  beforeAll(async () => {
    kafka = testKafka();
    codec = new EventCodec(createSchemaRegistry(stack.SCHEMA_REGISTRY_URL));
    producer = await EventProducer.connect(kafka, codec);
    clickhouse = await testClickHouse(database, { migrated: true });

    await producer.send(
      topicNames.articlesDiscovered,
      articles.map((a) => ({ key: a.article_id, value: a })),
    );
    // The same article again (a re-poll after Redis lost its memory): still one row.
    await producer.send(topicNames.articlesDiscovered, [
      { key: articles[0]!.article_id, value: articles[0]! },
    ]);
    await producer.send(topicNames.sources, [
      { key: source.source_id, value: source },
      { key: gone.source_id, value: gone },
      { key: source.source_id, value: { ...source, poll_interval_seconds: 300, version: 2 } },
      { key: gone.source_id, value: null },
    ]);
    await producer.send(
      topicNames.feedPolls,
      [poll(1, 'ok'), poll(2, 'failed'), poll(3, 'ok')].map((p) => ({ key: p.source_id, value: p })),
    );
    await producer.send(topicNames.articlesEnriched, [{ key: enrichment.article_id, value: enrichment }]);
    await producer.send(topicNames.articlesNarrated, [{ key: narration.article_id, value: narration }]);
  });

  afterAll(async () => {
    for (const r of runners) await r.stop();
    await producer?.send(topicNames.sources, [{ key: source.source_id, value: null }]);
    await producer?.disconnect();
    await clickhouse?.command(`DROP DATABASE IF EXISTS ${database}`);
    await clickhouse?.close();
  });

  let first: Awaited<ReturnType<typeof answers>>;

  it('projects articles, enrichments, narrations, sources (with tombstones) and polls', async () => {
    await startProjector(`projector-test-${run}`);
    // Every table arrives on its own topic, in its own time: wait for the whole expected answer.
    first = await waitUntilEqual(
      answers,
      {
        articles: articles.map((a) => ({
          article_id: a.article_id,
          title: a.title,
          published_at: new Date(a.published_at).toISOString().slice(0, 19).replace('T', ' '),
          language: 'en',
          category: 'business',
        })),
        enrichment: [
          { summary: 'A short summary.', sentiment_label: 'positive', entity_names: ['Time Warner'] },
        ],
        narration: [{ audio_url: `http://localhost/v1/audio/${sampleAudioKey}`, duration_ms: '61000' }],
        sources: [
          { source_id: gone.source_id, name: '', poll_interval_seconds: 0, deleted: 1 },
          { source_id: source.source_id, name: source.name, poll_interval_seconds: 300, deleted: 0 },
        ],
        health: [
          // Recovered: the failed poll's error is not the latest poll's (which has none).
          {
            last_status: 'ok',
            last_error: null,
            polls: '3',
            polls_ok: '2',
            articles_discovered: '6',
          },
        ],
        perHour: [0, 1, 2].map((n) => ({
          hour: new Date(at + (n + 1) * 3_600_000).toISOString().slice(0, 13).replace('T', ' ') + ':00:00',
          articles: '1',
        })),
      },
      "the projection of this test's events",
      90_000,
    );
  }, 120_000);

  it('leaves identical answers after every topic is replayed into the same tables', async () => {
    const replay = await startProjector(`projector-replay-${run}`);
    const original = runners[0]!.snapshot().processed;
    await waitFor(() => replay.snapshot().processed >= original, 'the replay to catch up', 120_000);
    const rows = await clickhouse.query<{ c: string }>(
      sql`SELECT count() AS c FROM articles WHERE source_id = ${`src_${run}`}`,
    );
    expect(Number(rows[0]!.c)).toBeGreaterThanOrEqual(3); // duplicates may sit unmerged...
    expect(await answers()).toEqual(first); // ...but every answer is the same
  }, 150_000);
});
