// The body of `npm run chaos` (../chaos.ts): the whole pipeline as real processes, a steady feed of
// articles, a flaky webhook receiver, and the fault schedule; at the end, the ledger. See
// docs/reliability.md for what it shows. Runs inside the namespace ../chaos.ts made
// (../bench/support/bench-namespace.ts): its topics, groups, database and Redis keys are the run's.
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import type kafkajs from 'kafkajs';
import { ClickHouse, clickHouseSettings } from '../../services/runtime/clickhouse/client.ts';
import { inList, sql } from '../../services/runtime/clickhouse/literal.ts';
import { infrastructureEnv, loadConfig } from '../../services/runtime/config.ts';
import { createKafka } from '../../services/runtime/kafka/client.ts';
import { EventProducer, idempotentProducer } from '../../services/runtime/kafka/producer.ts';
import { createSchemaRegistry, EventCodec } from '../../services/runtime/kafka/registry.ts';
import { consumerGroup, topicNames } from '../../services/runtime/kafka/topics.ts';
import { createLogger } from '../../services/runtime/logger.ts';
import type { BenchContext } from '../bench/support/bench-namespace.ts';
import { freePort } from '../integration/support/api-process.ts';
import { createTestClient } from '../integration/support/test-clients.ts';
import { startFeedServer } from '../support/feed-server.ts';
import { startOpenAiSpeechServer } from '../support/openai-speech-server.ts';
import { faultSchedule, restoreStack } from './fault-schedule.ts';
import { startFlakyReceiver } from './flaky-receiver.ts';
import { FreshnessTracker, percentile, recoveryMs } from './freshness.ts';
import { countLedger, type DeadLetter, type FaultOutcome } from './ledger.ts';
import {
  feedName,
  monitoredCompanies,
  releaseSchedule,
  seqOfUrl,
  type MonitorKey,
} from './release-schedule.ts';
import { printLedger } from './report.ts';
import { chaosServices, ServiceFleet, type ChaosService } from './service-fleet.ts';
import { chaosSettings, seededRandom } from './settings.ts';
import { reportStall } from './stall-report.ts';
import { brokerComponents } from './stack-faults.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function waitUntil(condition: () => boolean | Promise<boolean>, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await condition()) return true;
    await sleep(500);
  }
  return condition();
}

const feeds = 4;
/** The sources' poll interval (the API's smallest). */
const pollIntervalSeconds = 10;

export default async function chaos({ namespace, cleanUp, log }: BenchContext): Promise<number> {
  const settings = chaosSettings(process.env, process.argv.slice(2));
  const config = loadConfig(infrastructureEnv);
  const random = seededRandom(settings.seed);
  const run = namespace.run;
  const brokers = brokerComponents();
  log(
    `chaos ${run}: seed ${settings.seed} (CHAOS_SEED repeats it), ${settings.short ? 'short' : 'full'} schedule, ` +
      `articles for at least ${settings.releaseMs / 60_000} min at ${settings.ratePerSecond}/s, ` +
      `${brokers.length} broker(s), load average ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
  );

  const workDir = await mkdtemp(path.join(tmpdir(), `chaos-${run}-`));
  const audioDir = path.join(workDir, 'audio');
  log(`  service logs in ${workDir}`);
  const speech = await startOpenAiSpeechServer();
  cleanUp.onCleanup('speech server', () => speech.close());
  const feedServer = await startFeedServer({ corpus: [] });
  cleanUp.onCleanup('feed server', () => feedServer.close());
  // A share of the deliveries fail: 500, held past the dispatcher's timeout (3 s here), or cut off.
  const receiver = await startFlakyReceiver({
    random,
    shares: { error: 0.1, timeout: 0.04, closed: 0.04 },
    holdMs: 4_000,
  });
  cleanUp.onCleanup('webhook receiver', () => receiver.close());

  const logger = createLogger('chaos', 'error');
  const kafka = createKafka({ brokers: config.KAFKA_BROKERS, clientId: `chaos-${run}`, logger });
  const admin = kafka.admin();
  await admin.connect();
  cleanUp.onCleanup('kafka admin', () => admin.disconnect());
  const codec = new EventCodec(createSchemaRegistry(config.SCHEMA_REGISTRY_URL));
  const producer = await EventProducer.connect(kafka, codec);
  cleanUp.onCleanup('producer', () => producer.disconnect());
  const client = await createTestClient({ kafka, codec, producer }, { name: `Chaos ${run}` });
  const clickhouse = await ClickHouse.connect(clickHouseSettings(config, namespace.database));
  cleanUp.onCleanup('clickhouse client', () => clickhouse.close());

  const apiPort = await freePort();
  const apiUrl = `http://127.0.0.1:${apiPort}`;
  const redisPort = Number(new URL(config.REDIS_URL).port || 6379);
  const common = {
    OUTBOUND_ALLOW_LIST: '127.0.0.1',
    AUDIO_DIR: audioDir,
    API_PUBLIC_URL: apiUrl,
    // Narration through a local server speaking OpenAI's speech protocol: the pipeline's path is the
    // same, and the two cores go to the services under test rather than to Festival.
    SPEECH_PROVIDER: 'openai',
    OPENAI_SPEECH_BASE_URL: speech.baseUrl,
    OPENAI_SPEECH_API_KEY: speech.apiKey,
    WEBHOOK_TIMEOUT_MS: '3000',
    // The namespace is new: the matcher owes alerts from its first article.
    MATCHER_FROM_BEGINNING: 'true',
    // The feeds publish every few seconds: adaptive polling keeps them at the sources' interval.
    POLLER_MIN_INTERVAL_SECONDS: String(pollIntervalSeconds),
  };
  const envOf = (service: ChaosService): Record<string, string> =>
    service === 'api'
      ? {
          ...common,
          PORT: String(apiPort),
          API_HOST: '127.0.0.1',
          API_SOURCE_POLL_INTERVAL_SECONDS: String(pollIntervalSeconds),
        }
      : common;
  const fleet = new ServiceFleet(envOf, workDir, apiUrl, log);
  // Newest first at the end: the services stop, then the stack is made whole again.
  cleanUp.onCleanup('restore the stack', () => restoreStack(redisPort));
  cleanUp.onCleanup('stop the services', () => fleet.close());

  const startedAt = Date.now();
  await Promise.all(chaosServices.map((s) => fleet.startReady(s, 180_000)));
  log(`  ${chaosServices.length} services up in ${((Date.now() - startedAt) / 1000).toFixed(0)} s`);

  const call = async <T>(method: string, url: string, body?: unknown): Promise<T> => {
    const response = await fetch(`${apiUrl}${url}`, {
      method,
      headers: {
        authorization: `Bearer ${client.apiKey}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? null : JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${url} answered ${response.status}: ${text}`);
    return JSON.parse(text) as T;
  };

  const monitorPaths = {} as Record<MonitorKey, string>;
  for (const m of monitoredCompanies) {
    const path = `/alerts/${m.key}`;
    const created = await call<{ signing: { secret: string } }>('POST', '/api/v1/crm/monitor', {
      contact_id: `contact-${m.key}-${run}`,
      company: m.company,
      alert_webhook: receiver.url(path),
    });
    receiver.setSecret(path, created.signing.secret);
    monitorPaths[m.key] = path;
  }
  // The feeds (empty until the schedule starts), then their sources.
  const schedule = releaseSchedule({ server: feedServer, run, feeds, ratePerSecond: settings.ratePerSecond });
  const sourceIds: string[] = [];
  for (let f = 0; f < feeds; f++) {
    const subscribed = await call<{ source: { id: string } }>('POST', '/v1/sources', {
      url: `${feedServer.url}/feeds/${feedName(f)}.xml`,
      name: `Chaos ${run} ${f}`,
      category: 'general',
      country: 'gb',
    });
    sourceIds.push(subscribed.source.id);
  }
  const polled = await waitUntil(
    () =>
      Array.from({ length: feeds }, (_, f) => feedServer.hits.get(`/feeds/${feedName(f)}.xml`) ?? 0).every(
        (n) => n > 0,
      ),
    60_000,
  );
  if (!polled) throw new Error('the poller did not poll every feed within 60 s');

  // Poisoned on purpose: the registry's schema id of the topic, then Avro bytes cut short (a string
  // of 100 bytes with 2 of them). Every group reading the topic must dead-letter them, nothing else.
  const poisonedKeys = [`chaos-poison-${run}-0`, `chaos-poison-${run}-1`];
  const subject = `${topicNames.articlesDiscovered}-value`;
  const latest = (await (
    await fetch(`${config.SCHEMA_REGISTRY_URL}/subjects/${encodeURIComponent(subject)}/versions/latest`)
  ).json()) as { id: number };
  const poison = Buffer.from([0, 0, 0, 0, 0, 0xc8, 0x01, 0x41, 0x41]);
  poison.writeUInt32BE(latest.id, 1);
  const rawProducer = idempotentProducer(kafka);
  await rawProducer.connect();
  await rawProducer.send({
    topic: topicNames.articlesDiscovered,
    messages: poisonedKeys.map((key) => ({ key, value: poison })),
  });
  await rawProducer.disconnect();

  // Freshness, sampled about once a second, on two paths: an article's release to its row in the
  // projection (poller, Kafka, projector), and the release of an article that names a monitored company
  // to the first accepted delivery of its alert (poller, enricher, narrator, matcher, dispatcher, and
  // the receiver's failures with the retries they cost).
  const articles = new FreshnessTracker();
  const alerts = new FreshnessTracker();
  const owingAlerts = () => schedule.released.filter((a) => a.mentions !== null);
  const guidSeq = (guid: string) => Number(guid.slice(guid.lastIndexOf('-') + 1));
  const alertedSeqs = () =>
    receiver.deliveries
      .filter((d) => d.answer === 204 && d.verified && d.articleUrl !== null)
      .map((d) => seqOfUrl(d.articleUrl!, run))
      .filter((seq): seq is number => seq !== null);
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      const at = Date.now();
      // A ping first: while ClickHouse is down the client would log every failed query.
      const up = (await fetch(`${config.CLICKHOUSE_URL}/ping`).catch(() => null))?.ok === true;
      const rows = !up
        ? null
        : await clickhouse
            .query<{ guid: string }>(
              sql`SELECT DISTINCT guid FROM articles WHERE source_id IN ${inList(sourceIds)} AND guid IS NOT NULL`,
            )
            .catch(() => null);
      articles.sample(at, schedule.released, rows?.map((r) => guidSeq(r.guid)) ?? null);
      alerts.sample(at, owingAlerts(), alertedSeqs());
      await sleep(Math.max(0, 1_000 - (Date.now() - at)));
    }
  })();
  cleanUp.onCleanup('sampler', async () => {
    sampling = false;
    schedule.stop();
    await sampler;
  });
  const feedStart = Date.now();
  schedule.start();

  // Warm-up without faults: the normal freshness of each path.
  const warmMs = settings.short ? 40_000 : 60_000;
  await sleep(warmMs);
  const warmEnd = Date.now();
  await waitUntil(
    () =>
      schedule.released.filter((a) => a.releasedAt < warmEnd).every((a) => articles.visibleAt.has(a.seq)) &&
      owingAlerts()
        .filter((a) => a.releasedAt < warmEnd)
        .every((a) => alerts.visibleAt.has(a.seq)),
    90_000,
  );
  // The first poll interval is left out: the sources' first polls were not yet spread out.
  const normalFrom = feedStart + pollIntervalSeconds * 1000;
  const normal = {
    articles: articles.freshness(schedule.released, normalFrom, warmEnd),
    alerts: alerts.freshness(owingAlerts(), normalFrom, warmEnd),
  };
  const p99 = { articles: percentile(normal.articles, 99), alerts: percentile(normal.alerts, 99) };
  if (!Number.isFinite(p99.articles) || !Number.isFinite(p99.alerts))
    throw new Error('no article became visible, or no alert arrived, during the warm-up');
  // One sampling interval of slack.
  const threshold = { articles: p99.articles + 1_000, alerts: p99.alerts + 1_000 };
  for (const path of ['articles', 'alerts'] as const)
    log(
      `  warm-up ${path}: ${normal[path].length}, freshness p50 ${(percentile(normal[path], 50) / 1000).toFixed(1)} s, ` +
        `p99 ${(p99[path] / 1000).toFixed(1)} s: caught up when nothing older than ${(threshold[path] / 1000).toFixed(1)} s is missing`,
    );

  const faults = faultSchedule(
    { fleet, admin, topicPrefix: namespace.topicPrefix, redisPort, log },
    settings.short,
  );
  const outcomes: FaultOutcome[] = [];
  /** The report of the first fault not recovered from (those after it are often its consequences). */
  let firstStall: string[] | undefined;
  const seconds = (ms: number | null) => (ms === null ? 'never' : `${(ms / 1000).toFixed(1)} s`);
  for (const fault of faults) {
    const faultStart = Date.now();
    log(`  fault: ${fault.name}`);
    await fault.start();
    await sleep(fault.pauseMs);
    await fault.end();
    const endedAt = Date.now();
    const recovered = () => ({
      articles: recoveryMs(articles.samples, endedAt, threshold.articles),
      alerts: recoveryMs(alerts.samples, endedAt, threshold.alerts),
    });
    await waitUntil(
      () => recovered().articles !== null && recovered().alerts !== null,
      settings.recoveryLimitMs,
    );
    const { articles: articlesMs, alerts: alertsMs } = recovered();
    if (articlesMs === null || alertsMs === null) {
      // Diagnostics only: a failure to gather them must not end the run (its ledger is what counts).
      const report = await reportStall({
        faultName: fault.name,
        faultStartedAt: faultStart,
        released: schedule.released,
        articles,
        alerts,
        deliveries: receiver.deliveries,
        clickhouse,
        admin,
        topicPrefix: namespace.topicPrefix,
        logDir: workDir,
        log,
      }).catch((error: unknown) => [`    (the stall report failed: ${(error as Error).message})`]);
      firstStall ??= report;
    }
    const worst = (t: FreshnessTracker) =>
      Math.max(0, ...t.samples.filter((s) => s.at >= faultStart).map((s) => s.lagMs));
    outcomes.push({
      name: fault.name,
      startedAt: faultStart,
      endedAt,
      articlesMs,
      alertsMs,
      recoveryMs: articlesMs === null || alertsMs === null ? null : Math.max(articlesMs, alertsMs),
    });
    log(
      `    held ${((endedAt - faultStart) / 1000).toFixed(0)} s; worst lag: articles ${seconds(worst(articles))}, ` +
        `alerts ${seconds(worst(alerts))}; caught up after: articles ${seconds(articlesMs)}, alerts ${seconds(alertsMs)}`,
    );
    await sleep(5_000);
  }

  const left = settings.releaseMs - (Date.now() - feedStart);
  if (left > 0) await sleep(left);
  schedule.stop();
  const released = schedule.released;
  log(
    `  released ${released.length} articles in ${((Date.now() - feedStart) / 1000).toFixed(0)} s; draining`,
  );

  // Drain: every article visible, every alert delivered (the retry schedule's tail), within 5 minutes.
  const expectedAlerts = released.filter((a) => a.mentions).length;
  const deliveredAlerts = () =>
    new Set(
      receiver.deliveries
        .filter((d) => d.answer === 204 && d.articleUrl !== null)
        .map((d) => `${d.path} ${d.articleUrl}`),
    ).size;
  await waitUntil(
    () => released.every((a) => articles.visibleAt.has(a.seq)) && deliveredAlerts() >= expectedAlerts,
    300_000,
  );
  await sleep(5_000); // late duplicates, if any, have time to show
  sampling = false;
  await sampler;

  const projected = await clickhouse.query<{ guid: string; rows: string }>(
    sql`SELECT guid, count() AS rows FROM articles FINAL WHERE source_id IN ${inList(sourceIds)} GROUP BY guid`,
  );
  const apiUrls: string[] = [];
  for (const source of sourceIds) {
    let cursor: string | null = null;
    do {
      const page: { articles: { url: string }[]; paging: { next_cursor: string | null } } = await call(
        'GET',
        `/v1/articles?source=${encodeURIComponent(source)}&limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      );
      apiUrls.push(...page.articles.map((a) => a.url));
      cursor = page.paging.next_cursor;
    } while (cursor);
  }
  const deadLetters = await readDeadLetters(kafka, admin, namespace.topicPrefix);

  const ledger = countLedger({
    released,
    projectedRows: new Map(projected.map((r) => [r.guid, Number(r.rows)])),
    apiUrls,
    monitorPaths,
    deliveries: receiver.deliveries,
    seqOfUrl: (url) => seqOfUrl(url, run),
    deadLetters,
    poisonedKeys,
    faults: outcomes,
  });
  printLedger(ledger, {
    log,
    seed: settings.seed,
    short: settings.short,
    brokers: brokers.length,
    normal: {
      articles: { p50: percentile(normal.articles, 50), p99: p99.articles },
      alerts: { p50: percentile(normal.alerts, 50), p99: p99.alerts },
    },
    unexpectedExits: fleet.unexpectedExits,
    seconds: (Date.now() - startedAt) / 1000,
    load: loadavg(),
  });
  // Again after the ledger, where CI's excerpt of the output (its end) shows it.
  if (firstStall) for (const line of ['the first fault not recovered from, again:', ...firstStall]) log(line);
  if (ledger.problems.length === 0) {
    await rm(workDir, { recursive: true, force: true }).catch(() => undefined);
    return 0;
  }
  // What the services wrote is what tells why a fault was not recovered from: keep it.
  log(`  service logs kept in ${workDir}`);
  return 1;
}

/** Every message of the run's dead-letter topics, read from the beginning to their ends. */
async function readDeadLetters(
  kafka: kafkajs.Kafka,
  admin: kafkajs.Admin,
  prefix: string,
): Promise<DeadLetter[]> {
  const topics = (await admin.listTopics()).filter((t) => t.startsWith(prefix) && t.endsWith('.dlq'));
  let total = 0;
  for (const topic of topics)
    for (const p of await admin.fetchTopicOffsets(topic)) total += Number(p.high) - Number(p.low);
  if (total === 0) return [];
  const letters: DeadLetter[] = [];
  const consumer = kafka.consumer({ groupId: consumerGroup('chaos-ledger', prefix) });
  await consumer.connect();
  try {
    await consumer.subscribe({ topics, fromBeginning: true });
    await consumer.run({
      eachMessage: async ({ topic, message }) => {
        letters.push({
          group: message.headers?.['dlq.consumer.group']?.toString() ?? '?',
          sourceTopic: topic.slice(0, -'.dlq'.length),
          key: message.key?.toString() ?? null,
        });
      },
    });
    if (!(await waitUntil(() => letters.length >= total, 60_000)))
      throw new Error(`read ${letters.length} of the ${total} dead letters in 60 s`);
  } finally {
    await consumer.disconnect();
  }
  return letters;
}
