// npm run bench:api — read-model benchmark (a benchmark, not a test).
//
// Projection: N synthetic articles (default 1,000,000, from the BBC corpus, ./synthetic-articles.ts)
// are appended to the namespace's news.articles.discovered.v1, then projected into the namespace's
// database as the live projector does it (ConsumerRunner with deferred commits + groupedProjection, the
// group commit of projector.ts); events/s = N / time from consumer start to the last row visible.
// Baseline in the same run: the same rows (rowFor's output, JSONEachRow; the version is the article's
// index instead of its offset) inserted by
// `clickhouse-client` into a copy of the table, timing only the insert; BENCH_BASELINE_RUNS times (3),
// each into a fresh copy, and the ratio uses the median.
// API: the API process against that database; for a few common filter sets autocannon measures
// GET /v1/articles (req/s, p50, p99), then the same with API_SHARE_LIST_READS=false ("alone": the
// connections' identical requests do not share reads), then, straight to ClickHouse over HTTP with the same tool,
// connections and number of answers, the page query as it was before issue 18 ("before": the whole
// archive's matches sorted) and a read of the same page's rows by primary key ("floor")
// (./list-queries.ts, ./load.ts).
// Targets: projection at least half the direct insert rate (issue 4); at 1,000,000 articles, API p50
// under 50 ms (100 ms for q) and at least 100 requests/s with 10 connections (issue 18). Each phase also
// prints the CPU its processes used (./cpu.ts): on two shared cores that says where the time went
// better than the wall clock does.
//
// Everything happens in the run's namespace (../support/bench-namespace.ts), so nothing touches the
// live topics, the `news` database or the live Redis keys: the articles go to the namespace's
// news.articles.discovered.v1 (its schema registered under the namespace's subject), the projection's
// consumer group is the namespace's, the database is the namespace's (migrated when the namespace is
// made; BENCH_KEEP_DATABASE=true keeps it at the end for a look afterwards), and the API processes
// inherit the namespace from this one's environment: the key of a client made for the run
// (./bench-client.ts) is in the namespace's clients topic, its rate-limit counters under the
// namespace's Redis prefix. All of it is removed at the end, also on failure and Ctrl-C.
//
// Environment: BENCH_ARTICLES (1000000), BENCH_CONNECTIONS (10), BENCH_SECONDS (10),
// BENCH_WARMUP_SECONDS (3), BENCH_MIN_RESPONSES (20), BENCH_QUERY_WORD (world), BENCH_LISTS (the filter sets
// to measure, of newest, category, language, q, source; empty: all), BENCH_BASELINE_RUNS (3), BENCH_KEEP_DATABASE
// (false), BENCH_API (true; false skips the API phase), CLICKHOUSE_NATIVE_PORT (9000, for
// clickhouse-client), and the infrastructure variables every service reads (KAFKA_BROKERS, ...).
import { spawn } from 'node:child_process';
import { closeSync, createWriteStream, openSync, rmSync, statSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Kafka } from 'kafkajs';
import { readCorpus } from '../../../services/demo/corpus.ts';
import { projectorTypes } from '../../../services/projector/article-batch.ts';
import {
  groupedProjection,
  projectorConcurrency,
  projectorFetch,
} from '../../../services/projector/projector.ts';
import { rowFor } from '../../../services/projector/rows.ts';
import { ClickHouse, clickHouseSettings } from '../../../services/runtime/clickhouse/client.ts';
import {
  boolean,
  commaList,
  infrastructureEnv,
  integer,
  loadConfig,
  text,
} from '../../../services/runtime/config.ts';
import { createKafka } from '../../../services/runtime/kafka/client.ts';
import { ConsumerRunner } from '../../../services/runtime/kafka/consumer.ts';
import { EventProducer, idempotentProducer } from '../../../services/runtime/kafka/producer.ts';
import { createSchemaRegistry, EventCodec } from '../../../services/runtime/kafka/registry.ts';
import { topicNames } from '../../../services/runtime/kafka/topics.ts';
import { createLogger } from '../../../services/runtime/logger.ts';
import { startApi, type ApiProcess } from './api-process.ts';
import { createBenchClient } from './bench-client.ts';
import { cpuSeconds, describeCpu, meterCpu, stackPid } from './cpu.ts';
import {
  byKeyQuery,
  clickhouseUrl,
  isListId,
  listIds,
  listRequests,
  samePage,
  type ListRequest,
} from './list-queries.ts';
import { load, type LoadResult } from './load.ts';
import { syntheticArticles } from './synthetic-articles.ts';
import type { BenchContext } from '../support/bench-namespace.ts';
import type { CleanUp } from '../support/clean-up.ts';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const config = loadConfig({
  ...infrastructureEnv,
  BENCH_ARTICLES: integer(1_000_000, 1_000, 10_000_000),
  BENCH_CONNECTIONS: integer(10, 1, 1_000),
  BENCH_SECONDS: integer(10, 1, 600),
  BENCH_WARMUP_SECONDS: integer(3, 0, 60),
  BENCH_MIN_RESPONSES: integer(20, 1, 10_000),
  BENCH_QUERY_WORD: text('world'),
  // The filter sets to measure (empty: all). A name that is none of them fails here, before the long
  // projection, rather than measure nothing.
  BENCH_LISTS: commaList('').refine((ids) => ids.every(isListId), {
    message: `expected a comma-separated list of ${listIds.join(', ')}`,
  }),
  // Read by ../api.ts (the namespace keeps its database); here only checked, as every setting is.
  BENCH_KEEP_DATABASE: boolean(false),
  /** false: measure the projection only (for trying projector settings). */
  BENCH_API: boolean(true),
  CLICKHOUSE_NATIVE_PORT: integer(9000, 1, 65_535),
  /** Runs of the baseline insert (each into a fresh table); the ratio uses their median. */
  BENCH_BASELINE_RUNS: integer(3, 1, 9),
});
const logger = createLogger('bench', 'warn');
const n = config.BENCH_ARTICLES;
/** The namespace's news.articles.discovered.v1. */
const topic = topicNames.articlesDiscovered;
/** The namespace's database. */
const database = config.CLICKHOUSE_DATABASE;
const directTable = 'articles_direct';
const log = (line: string) => process.stdout.write(`${line}\n`);
const seconds = (since: number) => (performance.now() - since) / 1000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const thousands = (x: number) => Math.round(x).toLocaleString('en-US');
const ms = (x: number) => `${x.toFixed(1)} ms`;
const load1 = () => loadavg()[0]!.toFixed(1);

// CPU of the processes that do the work. ClickHouse and Kafka are shared: their figures include
// whatever else the machine asked of them meanwhile.
const clickhousePid = stackPid('clickhouse');
const kafkaPid = stackPid('kafka');
const shared = {
  ...(clickhousePid ? { clickhouse: () => cpuSeconds(clickhousePid) } : {}),
  ...(kafkaPid ? { kafka: () => cpuSeconds(kafkaPid) } : {}),
};
const benchCpu = () => cpuSeconds(process.pid);

// ---- clean-up, also on failure and Ctrl-C --------------------------------------------------------

let exit!: CleanUp;
const onCleanup = (name: string, task: () => Promise<unknown>) => exit.onCleanup(name, task);
let apiProcess: ApiProcess | undefined;
let unsharedProcess: ApiProcess | undefined;
// Last resort if the process exits without the clean-up: never leave the API behind.
process.once('exit', () => {
  apiProcess?.child.kill('SIGKILL');
  unsharedProcess?.child.kill('SIGKILL');
});

// ---- ClickHouse ----------------------------------------------------------------------------------

async function scalar(clickhouse: ClickHouse, sql: string): Promise<number> {
  const [row] = await clickhouse.query<{ n: string }>(sql);
  return Number(row?.n ?? 0);
}
const count = (clickhouse: ClickHouse, table: string) =>
  scalar(clickhouse, `SELECT count() AS n FROM ${table}`);
const activeParts = (clickhouse: ClickHouse, table: string) =>
  scalar(
    clickhouse,
    `SELECT count() AS n FROM system.parts WHERE database = '${database}' AND table = '${table}' AND active`,
  );

/** Waits (at most `capSeconds`) until no merge runs in the namespace's database for 3 s. */
async function mergesSettled(clickhouse: ClickHouse, capSeconds: number): Promise<number> {
  const started = performance.now();
  let quiet = 0;
  while (seconds(started) < capSeconds && quiet < 3) {
    const merges = await scalar(
      clickhouse,
      `SELECT count() AS n FROM system.merges WHERE database = '${database}'`,
    );
    quiet = merges === 0 ? quiet + 1 : 0;
    await sleep(1000);
  }
  return seconds(started);
}

// ---- phase 1: events into the namespace's topic, rows into a file -----------------------------------

async function produce(kafka: Kafka, codec: EventCodec, rowsFile: string) {
  // Loading is not what is measured: several sends in flight (the idempotent producer still writes one
  // request at a time per broker), while the next chunk is encoded.
  const producer = idempotentProducer(kafka);
  await producer.connect();
  const rows = createWriteStream(rowsFile);
  onCleanup('remove the rows file', async () => rmSync(rowsFile, { force: true }));
  const articles = syntheticArticles(readCorpus(), { now: Date.now(), days: 90 });
  const started = performance.now();
  const inFlight: Promise<unknown>[] = [];
  let bytes = 0;
  let lastReport = started;
  const chunk = 300; // ~50 per partition: record batches well under the broker's 1 MiB limit
  for (let from = 0; from < n; from += chunk) {
    // Generating and encoding is CPU-bound: let signals (Ctrl-C) in between chunks.
    await new Promise((r) => setImmediate(r));
    if (exit.interrupted) throw new Error('interrupted');
    const messages: { key: string; value: Buffer }[] = [];
    const lines: string[] = [];
    for (let i = from; i < Math.min(from + chunk, n); i++) {
      const article = articles.article(i);
      const value = await codec.encode(topic, article);
      bytes += value.length;
      messages.push({ key: article.article_id, value });
      lines.push(JSON.stringify(rowFor(topic, article.article_id, article, i, article.occurred_at)));
    }
    inFlight.push(producer.send({ topic, acks: -1, messages }));
    if (inFlight.length >= 4) await inFlight.shift();
    if (!rows.write(`${lines.join('\n')}\n`)) await new Promise<void>((r) => rows.once('drain', () => r()));
    if (performance.now() - lastReport > 15_000) {
      lastReport = performance.now();
      log(`  ${seconds(started).toFixed(0)} s: ${thousands(from + messages.length)} events appended`);
    }
  }
  await Promise.all(inFlight);
  await new Promise<void>((resolve, reject) =>
    rows.end((error?: Error | null) => (error ? reject(error) : resolve())),
  );
  await producer.disconnect();
  return { seconds: seconds(started), bytes, fileBytes: statSync(rowsFile).size };
}

// ---- phase 2: the baseline insert ---------------------------------------------------------------

async function insertDirectly(rowsFile: string): Promise<{ seconds: number; cpu: Record<string, number> }> {
  const input = openSync(rowsFile, 'r');
  // The client's CPU shows in ours as a waited-for child's.
  const cpu = meterCpu({ 'clickhouse-client': () => cpuSeconds(process.pid, true), ...shared });
  const started = performance.now();
  try {
    const client = spawn(
      'clickhouse-client',
      [
        '--host',
        new URL(config.CLICKHOUSE_URL).hostname,
        '--port',
        String(config.CLICKHOUSE_NATIVE_PORT),
        '--user',
        config.CLICKHOUSE_USER,
        ...(config.CLICKHOUSE_PASSWORD ? ['--password', config.CLICKHOUSE_PASSWORD] : []),
        '--database',
        database,
        // The default block of 1,048,576 rows is ~2.8 GB of these articles, over the stack's 3.7 GiB
        // per-query memory limit once parsed: 100,000-row blocks (ten parts per million rows).
        '--max_insert_block_size',
        '100000',
        '--query',
        `INSERT INTO ${directTable} FORMAT JSONEachRow`,
      ],
      { stdio: [input, 'ignore', 'inherit'] },
    );
    const code = await new Promise<number | null>((resolve, reject) => {
      client.once('error', reject);
      client.once('exit', resolve);
    });
    if (code !== 0) throw new Error(`clickhouse-client exited with ${code}`);
    return { seconds: seconds(started), cpu: cpu() };
  } finally {
    closeSync(input);
  }
}

// ---- phase 3: the projection, as the live projector runs it -------------------------------------

async function project(kafka: Kafka, codec: EventCodec, clickhouse: ClickHouse) {
  const producer = await EventProducer.connect(kafka, codec); // for dead letters; none are expected
  // As services/projector/main.ts: group commit and deferred commits, with the default caps.
  const projection = groupedProjection(clickhouse);
  // Where the time goes: how many fetched batches, how many inserts (groups), how big, and how long.
  const batches = { count: 0, events: 0 };
  let peakRss = process.memoryUsage.rss();
  const runner = new ConsumerRunner({
    kafka,
    codec: new EventCodec(createSchemaRegistry(config.SCHEMA_REGISTRY_URL), projectorTypes()), // as main.ts
    producer,
    logger,
    groupId: 'bench-api', // the runner puts it in the namespace
    topics: [topic],
    fromBeginning: true,
    partitionsConcurrently: projectorConcurrency,
    fetch: projectorFetch, // as services/projector/main.ts
    handOver: (events, context) => {
      batches.count++;
      batches.events += events.length;
      return projection.handOver(events, context);
    },
    idle: projection.idle,
  });
  // Stopped before the ClickHouse client closes and the namespace goes, also on Ctrl-C: a group with a
  // member left could not be deleted.
  const stop = async () => {
    await runner.stop();
    await producer.disconnect();
  };
  onCleanup('stop the projection', stop);
  const cpu = meterCpu({ bench: benchCpu, ...shared });
  const started = performance.now();
  let firstRow: number | undefined;
  let lastReport = started;
  await runner.start();
  try {
    for (;;) {
      if (exit.interrupted) throw new Error('interrupted');
      const rows = await count(clickhouse, 'articles');
      if (rows > 0 && firstRow === undefined) firstRow = seconds(started);
      peakRss = Math.max(peakRss, process.memoryUsage.rss());
      if (rows >= n) break;
      if (seconds(started) > 1800) throw new Error(`gave up after 1800 s with ${rows} rows projected`);
      if (performance.now() - lastReport > 15_000) {
        lastReport = performance.now();
        log(`  ${seconds(started).toFixed(0)} s: ${thousands(rows)} rows projected`);
      }
      await sleep(200);
    }
    return {
      seconds: seconds(started),
      firstRow: firstRow ?? 0,
      batches,
      inserts: { ...projection.stats },
      peakRss,
      cpu: cpu(),
    };
  } finally {
    await stop();
  }
}

// ---- phase 4: the API under load ----------------------------------------------------------------

interface Measured {
  request: ListRequest;
  returned: number;
  viaApi: LoadResult;
  /** The API with API_SHARE_LIST_READS=false: every request reads on its own. */
  alone: LoadResult;
  before: LoadResult;
  floor: LoadResult;
}

async function measureApi(
  clickhouse: ClickHouse,
  kafka: Kafka,
  codec: EventCodec,
  run: string,
): Promise<Measured[]> {
  const producer = await EventProducer.connect(kafka, codec);
  onCleanup('disconnect the client producer', () => producer.disconnect());
  // In the namespace's clients topic, removed with it.
  const client = await createBenchClient({ kafka, codec, producer }, `Benchmark ${run}`);
  const headers = { authorization: client.authorization };
  // The API processes inherit the namespace (topics, database, Redis prefix) from our environment.
  // All the load comes from one client: it may have every connection's request in progress at once.
  const inFlight = String(Math.max(32, config.BENCH_CONNECTIONS));
  apiProcess = await startApi(root, { LOG_LEVEL: 'warn', API_MAX_IN_FLIGHT_PER_CLIENT: inFlight });
  const api = apiProcess;
  onCleanup('stop the API', () => api.stop());
  // The same API with every request reading on its own: the cost of one request, with nothing shared.
  unsharedProcess = await startApi(root, {
    LOG_LEVEL: 'warn',
    API_SHARE_LIST_READS: 'false',
    API_MAX_IN_FLIGHT_PER_CLIENT: inFlight,
  });
  const unshared = unsharedProcess;
  onCleanup('stop the unshared API', () => unshared.stop());
  const sourceName = (
    await clickhouse.query<{ source_name: string }>(
      'SELECT source_name FROM articles GROUP BY source_name ORDER BY source_name LIMIT 1',
    )
  )[0]?.source_name;
  const options = {
    connections: config.BENCH_CONNECTIONS,
    seconds: config.BENCH_SECONDS,
    warmupSeconds: config.BENCH_WARMUP_SECONDS,
    minResponses: config.BENCH_MIN_RESPONSES,
  };
  /** Load on `url`, and the CPU `processes` used during the measured run (not the warm-up). */
  const measure = async (
    url: string,
    processes: Record<string, () => number>,
    headers: Record<string, string> = {},
  ) => {
    let cpu = meterCpu(processes);
    let started = performance.now();
    const result = await load(url, {
      ...options,
      headers,
      beforeMeasuring: () => {
        cpu = meterCpu(processes);
        started = performance.now();
      },
    });
    return { ...result, cpu: describeCpu(cpu(), seconds(started)) };
  };
  const show = (label: string, r: Awaited<ReturnType<typeof measure>>) =>
    log(
      `    ${label.padEnd(6)} ${r.requestsPerSecond.toFixed(1).padStart(7)} req/s  p50 ${ms(r.p50).padStart(10)}  ` +
        `p99 ${ms(r.p99).padStart(10)}  (${r.ok} answers${r.failed ? `, ${r.failed} FAILED` : ''})  cpu: ${r.cpu}`,
    );
  const results: Measured[] = [];
  const requests = listRequests({
    word: config.BENCH_QUERY_WORD,
    sourceName: sourceName ?? '',
    only: config.BENCH_LISTS.filter(isListId),
  });
  for (const request of requests) {
    const apiUrl = `${api.url}/v1/articles?${request.query}`;
    const sqlUrl = clickhouseUrl(config.CLICKHOUSE_URL, request.sql, {
      database,
      user: config.CLICKHOUSE_USER,
      password: config.CLICKHOUSE_PASSWORD,
    });
    const keys = await samePage(apiUrl, headers, sqlUrl);
    const floorUrl = clickhouseUrl(config.CLICKHOUSE_URL, byKeyQuery(keys), {
      database,
      user: config.CLICKHOUSE_USER,
      password: config.CLICKHOUSE_PASSWORD,
    });
    log(`  ${request.name}: ${request.query}  (${keys.length} articles per page)`);
    const viaApi = await measure(
      apiUrl,
      { api: () => cpuSeconds(api.child.pid!), ...shared, autocannon: benchCpu },
      headers,
    );
    show('API', viaApi);
    const alone = await measure(
      `${unshared.url}/v1/articles?${request.query}`,
      { api: () => cpuSeconds(unshared.child.pid!), ...shared, autocannon: benchCpu },
      headers,
    );
    show('alone', alone);
    const before = await measure(sqlUrl, { ...shared, autocannon: benchCpu });
    show('before', before);
    const floor = await measure(floorUrl, { ...shared, autocannon: benchCpu });
    show('floor', floor);
    results.push({ request, returned: keys.length, viaApi, alone, before, floor });
  }
  return results;
}

// ---- the run --------------------------------------------------------------------------------------

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export default async function api({ namespace, cleanUp }: BenchContext): Promise<number> {
  exit = cleanUp;
  const { run } = namespace;
  // The namespace's database, migrated when the namespace was made.
  const clickhouse = await ClickHouse.connect(clickHouseSettings(config), { createDatabase: false });
  onCleanup('close the ClickHouse client', () => clickhouse.close());
  const kafka = createKafka({ brokers: config.KAFKA_BROKERS, clientId: 'bench-api', logger });
  const codec = new EventCodec(createSchemaRegistry(config.SCHEMA_REGISTRY_URL));
  const kafkaAdmin = kafka.admin();
  await kafkaAdmin.connect();
  const [metadata] = (await kafkaAdmin.fetchTopicMetadata({ topics: [topic] })).topics;
  await kafkaAdmin.disconnect();

  log(
    `bench:api: ${thousands(n)} articles, topic ${topic} (${metadata!.partitions.length} partitions), ` +
      `database ${database}; load average ${load1()} on ${availableParallelism()} cores`,
  );
  const rowsFile = path.join(tmpdir(), `bench-api-${run}.jsonl`);
  const produced = await produce(kafka, codec, rowsFile);
  log(
    `  appended in ${produced.seconds.toFixed(1)} s (${(produced.bytes / 2 ** 20).toFixed(0)} MiB of Avro); ` +
      `rows file ${(produced.fileBytes / 2 ** 20).toFixed(0)} MiB`,
  );

  log(
    `baseline: clickhouse-client --max_insert_block_size 100000 INSERT INTO ${directTable} FORMAT JSONEachRow < rows file`,
  );
  // The same insert BENCH_BASELINE_RUNS times, each into a fresh table: on this shared machine one run
  // swung from 36,000 to 55,000 rows/s between bench runs, so the ratio uses the median (the first
  // run's figure, the only one before, is printed beside it).
  const directRates: number[] = [];
  for (let i = 0; i < config.BENCH_BASELINE_RUNS; i++) {
    await clickhouse.command(`CREATE TABLE ${directTable} AS articles`);
    const direct = await insertDirectly(rowsFile);
    const directRows = await count(clickhouse, directTable);
    if (directRows !== n) throw new Error(`the direct insert left ${directRows} rows, not ${n}`);
    directRates.push(n / direct.seconds);
    log(
      `  ${thousands(n)} rows in ${direct.seconds.toFixed(1)} s; cpu: ${describeCpu(direct.cpu, direct.seconds)}` +
        (config.BENCH_BASELINE_RUNS > 1 ? ` (run ${i + 1}; load average ${load1()})` : ''),
    );
    await clickhouse.command(`DROP TABLE ${directTable}`); // its merges must not run during the projection
  }
  const directRate = median(directRates);
  const firstDirectRate = directRates[0]!;
  rmSync(rowsFile, { force: true });

  log(
    `projection: ConsumerRunner (deferred commits) + groupedProjection from the beginning of the topic; load average ${load1()}`,
  );
  const projected = await project(kafka, codec, clickhouse);
  const projectionRate = n / projected.seconds;
  const distinct = await scalar(clickhouse, 'SELECT count() AS n FROM articles FINAL');
  if (distinct !== n) throw new Error(`the projection left ${distinct} articles, not ${n}`);
  const { batches, inserts } = projected;
  log(
    `  ${thousands(n)} rows in ${projected.seconds.toFixed(1)} s (first row after ${projected.firstRow.toFixed(1)} s); ` +
      `cpu: ${describeCpu(projected.cpu, projected.seconds)}`,
  );
  log(
    `  ${thousands(batches.count)} fetched batches of ${thousands(batches.events / Math.max(1, batches.count))} events ` +
      `(up to ${projectorConcurrency} partitions at once) went as ${thousands(inserts.groups)} inserts of ` +
      `${thousands(inserts.rows / Math.max(1, inserts.groups))} events; projectBatch took ` +
      `${ms(inserts.ms / Math.max(1, inserts.groups))} each, ${(inserts.ms / 1000).toFixed(1)} s in all; ` +
      `bench process at most ${(projected.peakRss / 2 ** 20).toFixed(0)} MiB resident`,
  );
  const partsAfter = await activeParts(clickhouse, 'articles');
  const waited = await mergesSettled(clickhouse, 120);
  log(
    `  ${partsAfter} active parts after the projection, ${await activeParts(clickhouse, 'articles')} after ` +
      `${waited.toFixed(0)} s of background merges`,
  );

  if (config.BENCH_API)
    log(
      `API: GET /v1/articles vs the query before issue 18 and a read by key, straight to ClickHouse; ${config.BENCH_CONNECTIONS} connections, ` +
        `~${config.BENCH_SECONDS} s (at least ${config.BENCH_MIN_RESPONSES} answers) each after a ` +
        `${config.BENCH_WARMUP_SECONDS} s warm-up; load average ${load1()}`,
    );
  const measured = config.BENCH_API ? await measureApi(clickhouse, kafka, codec, run) : [];

  log('');
  log(
    `projection     ${thousands(projectionRate)} events/s  (${thousands(n)} in ${projected.seconds.toFixed(1)} s)`,
  );
  log(
    `baseline       clickhouse-client JSONEachRow insert: ${thousands(directRate)} rows/s` +
      (directRates.length > 1
        ? ` (median of ${directRates.length} runs: ${directRates.map(thousands).join(', ')}; the first alone ${thousands(firstDirectRate)})`
        : ''),
  );
  log(
    `ratio          projection / direct insert = ${(projectionRate / directRate).toFixed(3)}` +
      (directRates.length > 1
        ? ` (to the first run alone ${(projectionRate / firstDirectRate).toFixed(3)})`
        : ''),
  );
  // The consumer group's join (a few seconds before the first fetch) is in the figure above; at 100,000
  // articles it is a tenth of the run. The rate once rows flow says what the projector keeps up.
  const steadyRate = n / Math.max(0.001, projected.seconds - projected.firstRow);
  log(
    `steady         ${thousands(steadyRate)} events/s from the first row on, ` +
      `ratio ${(steadyRate / directRate).toFixed(3)}; ` +
      Object.entries(projected.cpu)
        .filter(([, s]) => Number.isFinite(s))
        .map(([name, s]) => `${name} ${Math.round((s * 1e6) / n)} µs of CPU an article`)
        .join(', '),
  );
  log(`load average   ${load1()} at the end (${availableParallelism()} cores)`);
  log('');
  const row = (target: string, figure: string, met: string) =>
    log(`${target.padEnd(46)}${figure.padEnd(72)}${met}`);
  row('target', 'figure', 'met?');
  const verdict = (ok: boolean) => (ok ? 'met' : 'NOT met');
  row(
    'projection >= 0.5 x direct insert',
    `${(projectionRate / directRate).toFixed(2)} x`,
    verdict(projectionRate >= 0.5 * directRate),
  );
  for (const { request, viaApi, alone, before, floor } of measured) {
    // Issue 18's targets at 1,000,000 articles (printed at any size; compare runs for the flatness).
    const p50Target = request.name.startsWith('q=') ? 100 : 50;
    row(
      `API p50 < ${p50Target} ms: ${request.name}`,
      `${ms(viaApi.p50)} (alone ${ms(alone.p50)}, before ${ms(before.p50)}, floor ${ms(floor.p50)})`,
      verdict(viaApi.p50 < p50Target && viaApi.failed === 0),
    );
    row(
      `API >= 100 req/s: ${request.name}`,
      `${viaApi.requestsPerSecond.toFixed(1)} (alone ${alone.requestsPerSecond.toFixed(1)}, before ${before.requestsPerSecond.toFixed(1)}, floor ${floor.requestsPerSecond.toFixed(1)})`,
      verdict(viaApi.requestsPerSecond >= 100),
    );
  }
  return 0;
}
