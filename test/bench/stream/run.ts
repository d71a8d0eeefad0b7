// npm run bench:stream — GET /v1/stream fanning Kafka out to many SSE clients (a benchmark, not a test).
//
// BENCH_CLIENTS (1,000) clients connect to one API process (./bench-api.ts: the real startApi, its
// stream reading the namespace's topics) and, in the same run, to a bare Node SSE server
// (./bare-sse-server.ts: one KafkaJS consumer, decode, write the same JSON to every client).
// Two phases, each against both servers: BENCH_EVENTS (500) articles appended to the namespace's
// news.articles.discovered.v1 at BENCH_RATE (50) per second (a load both keep up with: the delay), then
// BENCH_FLOOD_EVENTS (2,000) as fast as Kafka takes them (what each can fan out). Each article is
// stamped with the time it was appended; every client counts what arrives (./sse-load.ts).
// Rounds alternate bare, API, bare, API (BENCH_ROUNDS, 2) so a noisy machine hits both alike.
// Figures per server: events fanned out per second (deliveries over the span from the first append to
// the last arrival), delay from append to arrival p50/p99 over every delivery, the server's CPU
// seconds and its peak resident memory; then the ratio API / bare (target >= 0.5 for events/s).
// The exit code says only whether every client of the API got every event (as bench:webhooks fails
// only when a delivery never arrives): whether the target is met is printed. A ratio missed by a tiny
// run on a busy machine (20 events flooded, in the suite's bench-isolation, load 4.4: 0.30) is a
// figure to read, not a failure.
//
// Everything happens in the run's namespace (../support/bench-namespace.ts), so nothing touches the
// live topics, read models or Redis keys: the articles go to the namespace's topic, which both servers
// read (they inherit the namespace from this process's environment) with consumer groups of the
// namespace's; the API's database (migrated when the namespace is made) and Redis keys are the
// namespace's; all of it is removed at the end, also on failure and Ctrl-C.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import type { ArticleDiscovered } from '../../../services/runtime/events/types.generated.ts';
import { infrastructureEnv, integer, loadConfig } from '../../../services/runtime/config.ts';
import { createKafka } from '../../../services/runtime/kafka/client.ts';
import { idempotentProducer } from '../../../services/runtime/kafka/producer.ts';
import { createSchemaRegistry, EventCodec } from '../../../services/runtime/kafka/registry.ts';
import { topicNames } from '../../../services/runtime/kafka/topics.ts';
import { createLogger } from '../../../services/runtime/logger.ts';
import { cpuSeconds } from '../api/cpu.ts';
import { startApi, type ApiProcess } from '../api/api-process.ts';
import type { BenchContext } from '../support/bench-namespace.ts';
import { openClients, type LoadResult } from './sse-load.ts';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const config = loadConfig({
  ...infrastructureEnv,
  BENCH_CLIENTS: integer(1_000, 1, 20_000),
  BENCH_EVENTS: integer(500, 10, 1_000_000),
  BENCH_RATE: integer(50, 1, 100_000),
  BENCH_FLOOD_EVENTS: integer(2_000, 0, 1_000_000),
  BENCH_ROUNDS: integer(2, 1, 10),
});
const logger = createLogger('bench', 'warn');
const log = (line: string) => process.stdout.write(`${line}\n`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const load1 = () => loadavg()[0]!.toFixed(1);
const apiKey = `bench-${randomUUID()}`;
/** The namespace's news.articles.discovered.v1, which both servers read. */
const topic = topicNames.articlesDiscovered;

const kafka = createKafka({ brokers: config.KAFKA_BROKERS, clientId: 'bench-stream', logger });
const codec = new EventCodec(createSchemaRegistry(config.SCHEMA_REGISTRY_URL));
const admin = kafka.admin();
const producer = idempotentProducer(kafka);

const rssMb = (pid: number) => {
  try {
    const kb = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb ? Number(kb) / 1024 : Number.NaN;
  } catch {
    return Number.NaN;
  }
};
const percentile = (sorted: Float64Array, p: number) =>
  sorted.length === 0
    ? Number.NaN
    : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

interface Figures {
  eventsPerSecond: number;
  p50: number;
  p99: number;
  cpu: number;
  rss: number;
  complete: number;
  dropped: number;
  /** Seconds from the first append to the last arrival. */
  span: number;
}

interface Phase {
  name: string;
  events: number;
  /** Appends per second; 0: as fast as Kafka takes them, in batches of 100. */
  rate: number;
}

async function append(phase: Phase, run: string): Promise<void> {
  if (phase.rate > 0) {
    const started = Date.now();
    for (let n = 0; n < phase.events; n++) {
      const wait = started + (n * 1_000) / phase.rate - Date.now();
      if (wait > 0) await sleep(wait);
      const value = await codec.encode(topic, article(n, run));
      await producer.send({ topic, acks: -1, messages: [{ key: `bench-${run}-${n}`, value }] });
    }
    return;
  }
  for (let n = 0; n < phase.events; n += 100) {
    const batch = Array.from({ length: Math.min(100, phase.events - n) }, (_, i) => article(n + i, run));
    const messages = await Promise.all(
      batch.map(async (a) => ({ key: a.article_id, value: await codec.encode(topic, a) })),
    );
    await producer.send({ topic, acks: -1, messages });
  }
}

async function measure(
  run: string,
  phase: Phase,
  server: ApiProcess,
  path: string,
  headers: Record<string, string>,
): Promise<Figures> {
  const pid = server.child.pid!;
  const load = await openClients(`${server.url}${path}`, config.BENCH_CLIENTS, headers, phase.events);
  await sleep(1_000); // every client registered before the first event
  const cpuBefore = cpuSeconds(pid);
  let peak = rssMb(pid);
  const sampler = setInterval(() => (peak = Math.max(peak, rssMb(pid))), 250);
  const started = Date.now();
  await append(phase, run);
  const expected = phase.events * config.BENCH_CLIENTS;
  const deadline = Date.now() + 60_000;
  let lastCount = -1;
  let lastChange = Date.now();
  while (load.received() < expected && Date.now() < deadline) {
    if (load.received() !== lastCount) [lastCount, lastChange] = [load.received(), Date.now()];
    if (Date.now() - lastChange > 10_000) break; // nothing more is coming
    await sleep(100);
  }
  const span = (Date.now() - started) / 1000;
  clearInterval(sampler);
  const cpu = cpuSeconds(pid) - cpuBefore;
  const result: LoadResult = load.finish();
  const sorted = result.delays.sort();
  await sleep(500);
  return {
    eventsPerSecond: result.received / span,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    cpu,
    rss: peak,
    complete: result.received / expected,
    dropped: result.dropped,
    span,
  };
}

function article(n: number, run: string): ArticleDiscovered {
  const now = Date.now();
  return {
    article_id: `bench-${run}-${n}`,
    source_id: `bench-stream-${run}`,
    source_name: 'Bench Stream',
    guid: null,
    url: `https://bench.example/${run}/${n}`,
    original_url: `https://bench.example/${run}/${n}`,
    title: `Benchmark article ${n} of run ${run} about markets and the economy`,
    summary: `t=${now}`,
    content: '',
    author: null,
    published_at: now,
    published_at_clamped: false,
    discovered_at: now,
    language: 'en',
    category: 'business',
    image_url: null,
    publisher_name: null,
    publisher_url: null,
    occurred_at: now,
    revision: 1,
    changed_fields: [],
    first_published_at: null,
    first_discovered_at: null,
  };
}

const describe = (name: string, f: Figures) =>
  `${name.padEnd(5)} ${Math.round(f.eventsPerSecond).toLocaleString('en-US').padStart(8)} events/s   ` +
  `delay p50 ${f.p50.toFixed(0).padStart(4)} ms  p99 ${f.p99.toFixed(0).padStart(5)} ms   ` +
  `CPU ${f.cpu.toFixed(1)} s (${((f.cpu * 1e6) / Math.max(1, f.eventsPerSecond * f.span)).toFixed(1)} µs/event)   peak RSS ${f.rss.toFixed(0)} MB   delivered ${(f.complete * 100).toFixed(1)}%` +
  (f.dropped ? `   dropped ${f.dropped}` : '') +
  `   (load ${load1()})`;

export default async function stream({ namespace, cleanUp }: BenchContext): Promise<number> {
  const { run } = namespace;
  await admin.connect();
  await producer.connect();
  cleanUp.onCleanup('disconnect', async () => {
    await producer.disconnect();
    await admin.disconnect();
  });
  const [metadata] = (await admin.fetchTopicMetadata({ topics: [topic] })).topics;
  const partitions = metadata?.partitions.length ?? 0;

  // Both inherit the namespace (topics, groups, database, Redis prefix) from our environment.
  const api = await startApi(
    root,
    { LOG_LEVEL: 'warn', BENCH_API_KEY: apiKey, STREAM_BUFFER_BYTES: String(8 * 1_048_576) },
    'test/bench/stream/bench-api.ts',
  );
  cleanUp.onCleanup('stop the API', () => api.stop());
  const bare = await startApi(root, { LOG_LEVEL: 'warn' }, 'test/bench/stream/bare-sse-server.ts');
  cleanUp.onCleanup('stop the bare server', () => bare.stop());

  log(
    `bench:stream — ${config.BENCH_CLIENTS} clients, ${config.BENCH_EVENTS} events at ${config.BENCH_RATE}/s, ` +
      `${partitions} partitions, ${config.BENCH_ROUNDS} round(s); load ${load1()}`,
  );
  const phases: Phase[] = [
    {
      name: `paced, ${config.BENCH_EVENTS} events at ${config.BENCH_RATE}/s`,
      events: config.BENCH_EVENTS,
      rate: config.BENCH_RATE,
    },
    ...(config.BENCH_FLOOD_EVENTS > 0
      ? [
          {
            name: `flood, ${config.BENCH_FLOOD_EVENTS} events as fast as Kafka takes them`,
            events: config.BENCH_FLOOD_EVENTS,
            rate: 0,
          },
        ]
      : []),
  ];
  const median = (values: number[]) => values.toSorted((x, y) => x - y)[Math.floor((values.length - 1) / 2)]!;
  let complete = true;
  for (const phase of phases) {
    log(`-- ${phase.name}`);
    const results: { bare: Figures[]; api: Figures[] } = { bare: [], api: [] };
    for (let round = 1; round <= config.BENCH_ROUNDS; round++) {
      const b = await measure(run, phase, bare, '/', {});
      log(describe('bare', b));
      results.bare.push(b);
      const a = await measure(run, phase, api, '/v1/stream?category=business', {
        authorization: `Bearer ${apiKey}`,
      });
      log(describe('api', a));
      results.api.push(a);
    }
    const ratio =
      median(results.api.map((f) => f.eventsPerSecond)) / median(results.bare.map((f) => f.eventsPerSecond));
    const allArrived = results.api.every((f) => f.complete >= 0.999);
    const ok = ratio >= 0.5 && allArrived;
    const perEvent = (f: Figures) => f.cpu / Math.max(1, f.eventsPerSecond * f.span);
    const cpuRatio = median(results.bare.map(perEvent)) / median(results.api.map(perEvent));
    complete &&= allArrived;
    log(
      `   ratio API / bare, events/s (medians): ${ratio.toFixed(2)} (target >= 0.5: ${ok ? 'met' : 'NOT met'}); ` +
        `CPU per event bare / API: ${cpuRatio.toFixed(2)}; ` +
        `delay p50 ${median(results.api.map((f) => f.p50)).toFixed(0)} vs ${median(results.bare.map((f) => f.p50)).toFixed(0)} ms, ` +
        `p99 ${median(results.api.map((f) => f.p99)).toFixed(0)} vs ${median(results.bare.map((f) => f.p99)).toFixed(0)} ms`,
    );
  }
  if (!complete) log('some client of the API did not get every event (delivered below 100.0% above)');
  return complete ? 0 : 1;
}
