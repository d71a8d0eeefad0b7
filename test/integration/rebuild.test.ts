// `projector rebuild` against the real topics, in a ClickHouse database of the
// test's own (so the dev stack's read models are never swapped). The live
// projector runs as a process into that database while the rebuild replays
// every topic beside it, as in production.
//
// "The same answers as before" is checked table by table, every row, against
// the tables the switch-over retired (the ones the live projector built).
// Other suites and services may append to the real topics meanwhile, so both
// generations are first brought to the same offsets of every partition by
// replaying what was appended since the rebuild started (idempotent: rows are
// versioned by offset). That top-up cannot hide a catch-up bug: the article
// appended during the rebuild is looked for in the new tables before it.
import { randomUUID } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import type { Admin, Kafka } from 'kafkajs';
import kafkajs from 'kafkajs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadApiConfig } from '../../services/api/config.ts';
import { startApi } from '../../services/api/server.ts';
import type { ClickHouse } from '../../services/runtime/clickhouse/client.ts';
import { identifier, sql } from '../../services/runtime/clickhouse/literal.ts';
import { migrate, readMigrations } from '../../services/runtime/clickhouse/migrations.ts';
import type { FeedPoll } from '../../services/runtime/events/types.generated.ts';
import { EventProducer } from '../../services/runtime/kafka/producer.ts';
import { createSchemaRegistry, EventCodec } from '../../services/runtime/kafka/registry.ts';
import { consumerGroup, topicNames } from '../../services/runtime/kafka/topics.ts';
import { projectBatch } from '../../services/projector/projector.ts';
import { rebuild, type RebuildOptions, type RebuildPhase } from '../../services/projector/rebuild.ts';
import { appendedSince, partitionOffsets, replay } from '../../services/runtime/kafka/replay.ts';
import { projectedTableNames, projectedTables } from '../../services/projector/rows.ts';
import { rebuildDatabases } from '../../services/projector/switch-over.ts';
import { sampleArticle, testKafka } from './support/kafka.ts';
import { startProjector, type ServiceProcess } from './support/service-process.ts';
import { createTestClient, type TestClient } from './support/test-clients.ts';
import { stack, testClickHouse, testLogger } from './support/stack.ts';
import { waitFor } from './support/wait.ts';

describe('projector rebuild', () => {
  const run = randomUUID().replace(/-/g, '').slice(0, 10);
  const db = rebuildDatabases(`test_rebuild_${run}`);
  const group = `rebuild-test-live-${run}`;
  const topics = Object.keys(projectedTables);
  const tables = projectedTableNames().sort();
  const ingestMigration = readMigrations().find((m) => m.name.includes('article_ingest'))!;

  const probeSource = `src_rebuild_${run}`;
  const probeCategory = `rebuild_probe_${run}`;
  const article = (n: number) =>
    sampleArticle(n, {
      article_id: `art_rebuild_${run}_${n}`,
      source_id: probeSource,
      category: probeCategory,
    });
  const poll = (n: number): FeedPoll => ({
    poll_id: `poll_rebuild_${run}_${n}`,
    source_id: probeSource,
    feed_url: `https://rebuild-${run}.example/feed`,
    status: 'ok',
    http_status: 200,
    items_seen: 1,
    new_items: 1,
    etag: null,
    last_modified: null,
    duration_ms: 40,
    error_reason: null,
    started_at: article(n).discovered_at - 100,
    consecutive_failures: 0,
    healthy: true,
    next_poll_at: null,
    poll_interval_seconds: null,
    interval_reason: null,
    trigger: 'poll',
    skipped_items: 0,
    skipped_reasons: [],
    updated_items: 0,
    warnings: [],
    final_url: null,
    redirect_statuses: [],
    occurred_at: article(n).discovered_at,
  });

  let kafka: Kafka;
  let admin: Admin;
  let codec: EventCodec;
  let producer: EventProducer;
  let clickhouse: ClickHouse;
  let liveProjector: ServiceProcess;

  const connect = (database: string) => testClickHouse(database);
  const rebuildOf = (overrides: Partial<RebuildOptions> = {}) =>
    rebuild({
      kafka,
      codec,
      logger: testLogger,
      connect,
      database: db.live,
      migrations: readMigrations(),
      ...overrides,
    });

  /** Appends article n and a poll of its source. */
  const produce = async (n: number) => {
    await producer.send(topicNames.articlesDiscovered, [{ key: article(n).article_id, value: article(n) }]);
    await producer.send(topicNames.feedPolls, [{ key: probeSource, value: poll(n) }]);
  };
  const articleRows = (n: number) =>
    clickhouse.query<{ title: string }>(
      sql`SELECT title FROM articles FINAL WHERE article_id = ${article(n).article_id}`,
    );
  /** What the views say about the probe source. */
  const probeViews = async () => ({
    perHour: await clickhouse.query(
      sql`SELECT toString(articles) AS articles FROM articles_per_source_hour WHERE source_id = ${probeSource}`,
    ),
    perDay: await clickhouse.query(
      sql`SELECT toString(articles) AS articles FROM articles_per_category_day WHERE category = ${probeCategory}`,
    ),
    health: await clickhouse.query(
      sql`SELECT toString(polls) AS polls, toString(articles_discovered) AS discovered FROM source_health WHERE source_id = ${probeSource}`,
    ),
  });

  /** Row count and an order-independent hash of every row (FINAL), per read-model table. */
  const digest = async (database: string) => {
    const out: Record<string, { rows: string; hash: string }> = {};
    for (const table of tables) {
      // Every column hashed as itself (toString(tuple(*)) is ten times slower on 18.16); a
      // Nullable one as its value and whether it is null, since a NULL would null the whole hash.
      const columns = await clickhouse.query<{ name: string; type: string }>(
        sql`SELECT name, type FROM system.columns WHERE database = ${db.live} AND table = ${table}`,
      );
      const hashed = columns
        .map(({ name, type }) =>
          type.startsWith('Nullable') ? `assumeNotNull(${name}), isNull(${name})` : identifier(name),
        )
        .join(', ');
      const [row] = await clickhouse.query<{ rows: string; hash: string }>(
        `SELECT toString(count()) AS rows, toString(sum(cityHash64(${hashed}))) AS hash
         FROM ${identifier(database)}.${identifier(table)} FINAL`,
      );
      out[table] = row!;
    }
    return out;
  };
  const migrations = () =>
    clickhouse.query(sql`SELECT version, name, checksum FROM schema_migrations ORDER BY version`);
  const tablesIn = async (database: string) =>
    (
      await clickhouse.query<{ name: string }>(
        sql`SELECT name FROM system.tables WHERE database = ${database} ORDER BY name`,
      )
    ).map((r) => r.name);

  /** Waits until the live projector has committed everything appended to the topics so far. */
  const liveProjectorCaughtUp = async () => {
    const end = await partitionOffsets(admin, topics);
    await waitFor(
      async () => {
        const committed = new Map<string, number>();
        for (const t of await admin.fetchOffsets({ groupId: consumerGroup(group), topics }))
          for (const p of t.partitions) committed.set(`${t.topic}/${p.partition}`, Number(p.offset));
        return end.every(
          (p) => p.high === p.low || (committed.get(`${p.topic}/${p.partition}`) ?? -1) >= p.high,
        );
      },
      'the live projector to catch up with the topics',
      60_000,
      250,
    );
  };

  beforeAll(async () => {
    kafka = testKafka();
    admin = kafka.admin();
    await admin.connect();
    codec = new EventCodec(createSchemaRegistry(stack.SCHEMA_REGISTRY_URL));
    producer = await EventProducer.connect(kafka, codec);
    clickhouse = await connect(db.live);
    await migrate(clickhouse, readMigrations(), testLogger);
    // It starts from the beginning of every topic, like the rebuild, and both run at once.
    liveProjector = startProjector({ CLICKHOUSE_DATABASE: db.live, PROJECTOR_GROUP: group });
  });

  afterAll(async () => {
    liveProjector?.child.kill('SIGTERM');
    await liveProjector?.exited;
    await producer?.disconnect();
    await admin?.deleteGroups([consumerGroup(group)]).catch(() => undefined);
    await admin?.disconnect();
    // The client's own database last: dropping it first would fail the other drops.
    for (const database of [db.scratch, db.retired, db.live])
      await clickhouse?.command(`DROP DATABASE IF EXISTS ${database}`);
    await clickhouse?.close();
  });

  it('rebuilds every table beside the live one and switches over: same answers, nothing lost', async () => {
    const appliedMigrations = await migrations();
    const started = await partitionOffsets(admin, topics);
    const phases: RebuildPhase[] = [];
    const summary = await rebuildOf({
      onPhase: async (phase) => {
        phases.push(phase);
        if (phase !== 'switching-over') return;
        // Appended after the rebuild captured its end offsets: the live projector writes it into
        // the tables about to be retired, and only the catch-up can bring it into the new ones.
        await produce(1);
        await liveProjectorCaughtUp();
        expect(await articleRows(1)).toHaveLength(1);
      },
    });
    expect(phases).toEqual(['replaying', 'switching-over', 'catching-up']);
    expect(summary.caughtUp.events).toBeGreaterThanOrEqual(2);
    expect(await articleRows(1)).toEqual([{ title: article(1).title }]);

    // From now on the live projector writes into the new tables, and the views read those
    // (the retired tables do not have article 2).
    await produce(2);
    const bothArticles = {
      perHour: [{ articles: '2' }],
      perDay: [{ articles: '2' }],
      health: [{ polls: '2', discovered: '2' }],
    };
    await waitFor(
      async () => isDeepStrictEqual(await probeViews(), bothArticles),
      'the views to show article 2 and its poll',
    );

    // The old tables wait in the retired database, the scratch one is gone, the bookkeeping is unchanged.
    expect(await tablesIn(db.retired)).toEqual(tables);
    expect(await tablesIn(db.scratch)).toEqual([]);
    expect(await migrations()).toEqual(appliedMigrations);

    // Same answers: both generations brought to the same offsets, then compared row by row.
    liveProjector.child.kill('SIGTERM');
    await liveProjector.exited;
    const ranges = appendedSince(started, await partitionOffsets(admin, topics));
    const topUp = async (database: string) => {
      const target = await connect(database);
      // The projector writes articles through `article_ingest` and its views, which stay in the live
      // database (their targets are looked up by name, so they write into whatever tables are live).
      // To project into the retired generation, it gets an ingest table and views of its own.
      if (database === db.retired)
        for (const statement of ingestMigration.statements) await target.command(statement);
      await replay({
        kafka,
        codec,
        logger: testLogger,
        ranges,
        project: async (events) => void (await projectBatch(target, events)),
      });
      await target.close();
    };
    await Promise.all([topUp(db.live), topUp(db.retired)]);
    const [rebuilt, retired] = await Promise.all([digest(db.live), digest(db.retired)]);
    // At least the test's own two articles (on a fresh stack, where no other suite ran first, only those).
    expect(Number(rebuilt.articles!.rows)).toBeGreaterThanOrEqual(2);
    expect(rebuilt).toEqual(retired);

    // And the API answers the same from either generation.
    const [fromRebuilt, fromRetired] = [await apiAnswers(db.live), await apiAnswers(db.retired)];
    expect(fromRebuilt[`/v1/articles?source=${probeSource}`]).toContain(article(2).article_id);
    expect(fromRebuilt).toEqual(fromRetired);
  }, 120_000);

  let apiClient: TestClient | undefined;
  /** The API's answers to a set of requests, served from one database. */
  const apiAnswers = async (database: string) => {
    // Created before the API starts, so its client directory has it when it is ready.
    apiClient ??= await createTestClient({ kafka, codec, producer }, { name: `Rebuild ${run}` });
    const api = await startApi(
      // One public address for both, or every signed audio_url would carry its own API's port.
      loadApiConfig({
        ...process.env,
        PORT: '0',
        CLICKHOUSE_DATABASE: database,
        LOG_LEVEL: 'silent',
        API_PUBLIC_URL: `https://rebuild-${run}.example`,
      }),
      testLogger,
    );
    try {
      const get = async (path: string) => {
        const response = await fetch(`${api.url}${path}`, {
          headers: { authorization: `Bearer ${apiClient!.apiKey}` },
        });
        expect(response.status, path).toBe(200);
        return response.text();
      };
      const paths = [
        `/v1/articles?source=${probeSource}`,
        `/v1/articles/${article(1).article_id}`,
        '/v1/articles?limit=100',
        '/v1/articles?limit=100&offset=100',
        '/v1/articles?category=business&language=en&limit=50',
        '/v1/sources?limit=1000',
      ];
      const out: Record<string, string> = {};
      // An audio_url's expiry is rounded to the hour, so two answers a moment apart may still straddle
      // one: the key in the URL is compared, its expiry and signature are not.
      for (const path of paths)
        out[path] = (await get(path)).replace(/\?expires=\d+&signature=[\w.-]+/g, '?signed');
      // Scores depend on the clock; which articles come in which order does not.
      const ranked = JSON.parse(await get('/api/v1/feeds/personalized?topics=article,business&limit=50')) as {
        articles: { id: string }[];
      };
      out.personalized = ranked.articles.map((a) => a.id).join(',');
      return out;
    } finally {
      await api.close();
    }
  };

  // No swap leaves this row, which no event writes, in the live articles table.
  const marker = `marker_${run}`;
  const markLiveTables = () =>
    clickhouse.insert('articles', [{ article_id: marker, published_at: '2026-01-01 00:00:00', version: 0 }]);
  const markerRows = async () =>
    (await clickhouse.query(sql`SELECT article_id FROM articles FINAL WHERE article_id = ${marker}`)).length;

  it('aborts on a ClickHouse failure during the replay, leaving the live tables untouched', async () => {
    await markLiveTables();
    // The scratch database vanishing under the replay: every insert into it fails.
    const dropScratch = async (phase: RebuildPhase) => {
      if (phase === 'replaying') await clickhouse.command(`DROP DATABASE ${db.scratch}`);
    };
    await expect(rebuildOf({ onPhase: dropScratch })).rejects.toThrow(
      new RegExp(`rebuild aborted, the live tables in ${db.live} are untouched.*ClickHouse rejected`),
    );
    expect(await markerRows()).toBe(1);
    expect(await tablesIn(db.live)).toEqual(expect.arrayContaining(tables));
    expect(await tablesIn(db.retired)).toEqual([]);
  });

  it('aborts when Kafka cannot be reached, leaving the live tables untouched', async () => {
    await markLiveTables();
    const unreachable = new kafkajs.Kafka({
      brokers: ['127.0.0.1:1'],
      retry: { retries: 0 },
      logLevel: kafkajs.logLevel.NOTHING,
    });
    await expect(rebuildOf({ kafka: unreachable })).rejects.toThrow(/rebuild aborted.*untouched.*Connection/);
    expect(await markerRows()).toBe(1);
    expect(await tablesIn(db.retired)).toEqual([]);
  });

  it('exits non-zero with the reason when run as a command and ClickHouse is down', async () => {
    const command = startProjector({ CLICKHOUSE_URL: 'http://127.0.0.1:1', CLICKHOUSE_DATABASE: db.live }, [
      'rebuild',
    ]);
    expect(await command.exited).toBe(1);
    expect(command.output()).toMatch(/rebuild failed: rebuild aborted, the live tables .* are untouched/);
  });
});
