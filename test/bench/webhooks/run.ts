// npm run bench:webhooks — webhook delivery throughput and alert latency (a benchmark, not a test).
//
// A local receiver (./webhooks/receiver.ts: node:http on 127.0.0.1, 204 at once) counts requests and
// records when each webhook-id arrived. Baseline in the same run: plain undici request() POSTs of the
// body the dispatcher sends for a typical alert, with headers of the same size, BENCH_CONCURRENCY in
// flight, BENCH_DELIVERIES of them after a warm-up: POSTs/s (./webhooks/baseline.ts). The ratio is taken
// against that loop run in a child process of its own (./webhooks/baseline-process.ts), as the dispatcher
// is: a POST then wakes another process, as the dispatcher's do. That loop runs twice, before the
// dispatcher and after it has stopped, and the ratio is taken against the mean of the two: this machine's
// speed drifts by a fifth within minutes, and a baseline on one side only carried that drift into the
// ratio (each side's ratio is printed too, so the drift shows). The same loop in this process (on the
// receiver's own event loop, where a request and its answer cost no process switch) is printed beside
// it, with its ratio: it was the only baseline before 2026-11-27.
// Then the real dispatcher process (services/dispatcher/main.ts, a consumer group prefix of the run's,
// DISPATCHER_FROM_BEGINNING=false, DISPATCHER_CONCURRENCY=BENCH_CONCURRENCY, LOG_LEVEL=warn: at info
// it writes one line per attempt, which would be part of what is measured). BENCH_WEBHOOKS webhooks, one
// tenant each and a path each on the receiver, are registered on news.webhooks.v1 (secrets sealed with
// the development key) before it starts; once its alert and delivery groups have joined, a warm-up of
// BENCH_WARMUP alerts goes through (a backlog drained from a thaw, as below, when the run is one). Then
// the dispatcher's process is frozen (SIGSTOP), BENCH_DELIVERIES alerts are appended to news.alerts.v1
// round the tenants (each fans out to exactly one webhook), each stamped with the time its batch was
// appended, and it is thawed (SIGCONT) and drains them: a backlog,
// so that appending them (Avro, KafkaJS, Kafka) does not share the cores with it, as nothing shares them
// with the raw loop, and a warm process, as the raw loop's is after its warm-up (until 2026-12-02 it was
// stopped and started again, its JIT cold). BENCH_ALERTS_PER_SECOND paces them instead, appended while
// it runs, to see the latency at a load the dispatcher keeps up with.
// Figures: deliveries/s over the span of the arrivals, and from the thaw (a backlog) or the first alert
// appended (paced) to the last arrival; alert latency (arrival − the alert's occurred_at)
// p50/p90/p99/max, in a backlog mostly time queued; the CPU the dispatcher, Kafka and this process used
// (../bench/api/cpu.ts), in a backlog from the thaw on; and whether every delivery arrived exactly once.
//
// There is no target (the issue sets none): the run fails only if a delivery never arrives. Duplicates
// are allowed by at-least-once delivery but are reported, and should be 0 in a clean run.
//
// Everything happens in the run's namespace (../support/bench-namespace.ts): the webhooks, alerts and
// delivery jobs go to the namespace's topics, the dispatcher's groups are the namespace's, and all of it
// is removed at the end, also on failure and Ctrl-C; nothing reaches the live topics or read models,
// and a dispatcher running on the stack meanwhile (the demo's) neither sees this run's jobs nor sends
// its own to the receiver. Requests from anything else are still counted apart, by user-agent.
//
// Environment: BENCH_DELIVERIES (20000), BENCH_WEBHOOKS (50), BENCH_CONCURRENCY (16), BENCH_WARMUP (10000),
// BENCH_ALERTS_PER_SECOND (0 = as fast as possible),
// BENCH_RECEIVER_HOST (127.0.0.1; `localhost`: the webhooks' URLs name a host, which the dispatcher resolves
// for each delivery's outbound check, as it does for real receivers, and the baseline once a connection),
// BENCH_DISPATCHER_PROFILE (a directory: the dispatcher under test samples its CPU and writes a
// .cpuprofile there when the bench stops it; ./webhooks/cpu-profile.mjs),
// and the infrastructure variables every service reads (KAFKA_BROKERS, ...).
import { fork } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { availableParallelism, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import type { Admin } from 'kafkajs';
import type { Alert } from '../../../services/runtime/events/types.generated.ts';
import { infrastructureEnv, integer, loadConfig, oneOf, text } from '../../../services/runtime/config.ts';
import { createKafka } from '../../../services/runtime/kafka/client.ts';
import { EventProducer } from '../../../services/runtime/kafka/producer.ts';
import { createSchemaRegistry, EventCodec, localTypes } from '../../../services/runtime/kafka/registry.ts';
import { consumerGroup, topicNames } from '../../../services/runtime/kafka/topics.ts';
import { createLogger } from '../../../services/runtime/logger.ts';
import { developmentSecretBox } from '../../../services/webhooks/secret-box.ts';
import { signatureHeaders, generateWebhookSecret } from '../../../services/webhooks/signing.ts';
import { startServiceProcess, type ServiceProcess } from '../../integration/support/service-process.ts';
import { cpuSeconds, describeCpu, meterCpu, stackPid } from '../api/cpu.ts';
import { rawPosts } from './baseline.ts';
import type { BaselineDone, BaselinePosts, BaselineSetup } from './baseline-process.ts';
import { arrivedCount, deliveryFigures, percentile } from './figures.ts';
import { BenchFixtures } from './fixtures.ts';
import { groupsJoined } from './groups.ts';
import { startCountingReceiver, type CountingReceiver } from './receiver.ts';
import type { BenchContext } from '../support/bench-namespace.ts';
import type { CleanUp } from '../support/clean-up.ts';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const config = loadConfig({
  ...infrastructureEnv,
  BENCH_DELIVERIES: integer(20_000, 1, 1_000_000),
  BENCH_WEBHOOKS: integer(50, 1, 1_000),
  BENCH_CONCURRENCY: integer(16, 1, 1_000),
  BENCH_WARMUP: integer(10_000, 0, 100_000),
  BENCH_ALERTS_PER_SECOND: integer(0, 0, 1_000_000),
  BENCH_DISPATCHER_PROFILE: text(''),
  BENCH_RECEIVER_HOST: oneOf(['127.0.0.1', 'localhost'], '127.0.0.1'),
});
const logger = createLogger('bench', 'warn');
const run = randomUUID().slice(0, 8);
const n = config.BENCH_DELIVERIES;
const concurrency = config.BENCH_CONCURRENCY;
/** DISPATCHER_GROUP of the dispatcher under test; in the namespace, as its groups are. */
const group = 'bench-webhooks';
const groups = {
  alerts: consumerGroup(`${group}.alerts`),
  deliveries: consumerGroup(`${group}.deliveries`),
};
/** The user-agents that tell the dispatcher under test and the baseline apart at the receiver. */
const dispatcherAgent = `news-intelligence-webhooks/0.1 (bench ${run})`;
const baselineAgent = `undici-baseline (bench ${run})`;
/** A phase gives up when no expected delivery arrived for this long. */
const stallMs = 60_000;

const log = (line: string) => process.stdout.write(`${line}\n`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const seconds = (since: number) => (Date.now() - since) / 1000;
const thousands = (x: number) => Math.round(x).toLocaleString('en-US');
const load1 = () => loadavg()[0]!.toFixed(1);

const kafkaPid = stackPid('kafka');
// The alert path never touches ClickHouse (only article.published fan-out does), so it is not metered.
const kafkaCpu: Record<string, () => number> = kafkaPid ? { kafka: () => cpuSeconds(kafkaPid) } : {};
const benchCpu = () => cpuSeconds(process.pid);

// ---- clean-up, also on failure and Ctrl-C --------------------------------------------------------

let exit!: CleanUp;
const onCleanup = (name: string, task: () => Promise<unknown>) => exit.onCleanup(name, task);
let dispatcher: ServiceProcess | undefined;
// Last resort if the process exits without the clean-up: never leave the dispatcher behind.
process.once('exit', () => dispatcher?.child.kill('SIGKILL'));

function checkRunning(): void {
  if (exit.interrupted) throw new Error('interrupted');
  const child = dispatcher?.child;
  if (child && (child.exitCode !== null || child.signalCode !== null))
    throw new Error(
      `the dispatcher exited (${child.exitCode ?? child.signalCode}); its last output:\n${dispatcher!.output()}`,
    );
}

/** SIGTERM; SIGKILL if it has not exited 30 s later (it lets deliveries in flight finish first). */
async function stopDispatcher(service: ServiceProcess): Promise<void> {
  // Gone already (it failed, and the run with it): that failure is the one reported, not this.
  if (service.child.exitCode !== null || service.child.signalCode !== null) return;
  // A frozen process (a failure or Ctrl-C while the backlog was appended) would not act on SIGTERM.
  thaw(service.child.pid!);
  const late = Symbol('late');
  let timer: NodeJS.Timeout | undefined;
  const code = await Promise.race([
    service.stop(),
    new Promise<typeof late>((resolve) => (timer = setTimeout(() => resolve(late), 30_000))),
  ]);
  clearTimeout(timer);
  if (code === late) {
    service.child.kill('SIGKILL');
    await service.exited;
    throw new Error('the dispatcher did not stop within 30 s of SIGTERM and was killed');
  }
  if (code !== 0 && !exit.interrupted)
    throw new Error(`the dispatcher exited with ${code} when stopped; its last output:\n${service.output()}`);
}

/**
 * Stops the dispatcher's process where it is (SIGSTOP) while the backlog is appended: it uses no CPU,
 * keeps its connections, its groups (unless the appends outlast its 30 s session) and what its JIT has
 * compiled in the warm-up, as the raw loop it is compared with keeps its own.
 */
function freeze(pid: number): void {
  process.kill(pid, 'SIGSTOP');
}

function thaw(pid: number): void {
  try {
    process.kill(pid, 'SIGCONT');
  } catch {
    // gone already
  }
}

// ---- phases ---------------------------------------------------------------------------------------

/**
 * Waits until every id of `expected` has arrived from the dispatcher, or none arrived for `stallMs`.
 * Returns when the last one was seen (epoch ms), or undefined if it gave up. `before`: how many distinct
 * ids had arrived from the dispatcher before the phase's first could.
 */
async function awaitArrivals(
  receiver: CountingReceiver,
  expected: ReadonlyMap<string, number>,
  what: string,
  before: number,
): Promise<number | undefined> {
  let seen = -1;
  let progressAt = Date.now();
  let reportAt = Date.now();
  for (;;) {
    checkRunning();
    // The receiver's count of distinct ids, not a pass over `expected` (arrivedCount) each time: on the
    // receiver's event loop that pass took 4 ms at 20,000 ids, every 50 ms, and held the dispatcher's
    // requests meanwhile, a wait the raw loop it is compared with never had. The pass runs once the
    // count says every id may be in.
    const arrived = receiver.distinctIds(dispatcherAgent) - before;
    if (
      arrived >= expected.size &&
      arrivedCount(expected, receiver.arrivals(dispatcherAgent)) >= expected.size
    )
      return Date.now();
    if (arrived !== seen) {
      seen = arrived;
      progressAt = Date.now();
    } else if (Date.now() - progressAt > stallMs) {
      const count = arrivedCount(expected, receiver.arrivals(dispatcherAgent));
      log(
        `  gave up: no ${what} arrived for ${stallMs / 1000} s (${thousands(count)} of ${thousands(expected.size)})`,
      );
      return undefined;
    }
    if (Date.now() - reportAt > 10_000) {
      reportAt = Date.now();
      log(`  ${thousands(arrived)} of ${thousands(expected.size)} ${what} arrived`);
    }
    await sleep(50);
  }
}

/**
 * Appends alerts 0..count-1 of `phase` in batches, each alert's occurred_at the moment its batch was
 * built; `perSecond` > 0 paces them. Returns delivery id → occurred_at, and when the first was stamped.
 */
async function appendAlerts(
  producer: EventProducer,
  fixtures: BenchFixtures,
  phase: string,
  count: number,
  perSecond: number,
) {
  const expected = new Map<string, number>();
  // Paced: about 50 ms of alerts per batch. Otherwise batches of 250 (a send per batch, one in flight).
  const batch = perSecond > 0 ? Math.min(250, Math.max(1, Math.round(perSecond / 20))) : 250;
  const started = Date.now();
  for (let from = 0; from < count; from += batch) {
    checkRunning();
    if (perSecond > 0) {
      const wait = started + (from / perSecond) * 1000 - Date.now();
      if (wait > 0) await sleep(wait);
    }
    const at = Date.now();
    const alerts: Alert[] = [];
    for (let i = from; i < Math.min(from + batch, count); i++) {
      alerts.push(fixtures.alert(phase, i, at));
      expected.set(fixtures.deliveryIdOf(phase, i), at);
    }
    await producer.send(
      topicNames.alerts,
      alerts.map((alert) => ({ key: alert.alert_id, value: alert })),
    );
  }
  return { expected, started, seconds: seconds(started) };
}

/** Headers of the dispatcher's size and kind, computed once: the baseline does not sign per request. */
function baselineHeaders(body: string): Record<string, string> {
  const signed = signatureHeaders(
    { id: 'msg_00000000000000000000000000000000', timestamp: new Date(), body },
    generateWebhookSecret(),
  );
  return { ...signed, 'content-type': 'application/json', 'user-agent': baselineAgent };
}

/** Throws unless every `raw_<phase>_<i>` of the measured phase arrived, none failed. */
function checkBaseline(receiver: CountingReceiver, phase: string, failed: number): void {
  const ids = receiver.arrivals(baselineAgent);
  let arrived = 0;
  for (let i = 0; i < n; i++) if (ids.has(`raw_${phase}_${i}`)) arrived++;
  if (failed > 0 || arrived !== n)
    throw new Error(`the baseline lost requests: ${failed} failed, ${arrived} of ${n} arrived`);
}

/** The raw loop in this process, on the receiver's event loop (the figure printed before 2026-11-27). */
async function baselineInProcess(receiver: CountingReceiver, fixtures: BenchFixtures, body: string) {
  const headers = baselineHeaders(body);
  const postsOf = (phase: string, count: number) =>
    rawPosts({
      count,
      concurrency,
      url: (i) => receiver.url(fixtures.path(i % fixtures.webhooks)),
      headers: (i) => ({ ...headers, 'webhook-id': `raw_${phase}_${i}` }),
      body,
    });
  if (config.BENCH_WARMUP > 0) await postsOf('warm', config.BENCH_WARMUP);
  checkRunning();
  const cpu = meterCpu({ 'bench (undici + receiver)': benchCpu, ...kafkaCpu });
  const result = await postsOf('run', n);
  const used = cpu();
  checkBaseline(receiver, 'run', result.failed);
  return { ...result, perSecond: n / result.seconds, cpu: describeCpu(used, result.seconds) };
}

/**
 * The same raw loop in a child process of its own (./baseline-process.ts, under tsx like the dispatcher),
 * POSTing to the receiver in this process as the dispatcher does: the like-for-like baseline.
 */
async function baselineChild(
  receiver: CountingReceiver,
  fixtures: BenchFixtures,
  body: string,
  phase: 'child' | 'child-after',
) {
  const child = fork(`${root}test/bench/webhooks/baseline-process.ts`, [], {
    cwd: root,
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  onCleanup('stop the baseline process', async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited;
  });
  const posts = (phase: string, count: number) =>
    new Promise<BaselineDone>((resolve, reject) => {
      const onExit = () =>
        reject(new Error(`the baseline process exited (${child.exitCode ?? child.signalCode})`));
      child.once('exit', onExit);
      child.once('message', (done: BaselineDone) => {
        child.off('exit', onExit);
        resolve(done);
      });
      child.send({ type: 'posts', phase, count } satisfies BaselinePosts);
    });
  child.send({
    type: 'setup',
    urls: Array.from({ length: fixtures.webhooks }, (_, i) => receiver.url(fixtures.path(i))),
    headers: baselineHeaders(body),
    body,
    concurrency,
  } satisfies BaselineSetup);
  if (config.BENCH_WARMUP > 0) await posts(`warm-${phase}`, config.BENCH_WARMUP);
  checkRunning();
  const cpu = meterCpu({ 'undici process': () => cpuSeconds(child.pid!), ...kafkaCpu, bench: benchCpu });
  const result = await posts(phase, n);
  const used = cpu();
  child.disconnect();
  await exited;
  checkBaseline(receiver, phase, result.failed);
  return { ...result, perSecond: n / result.seconds, cpu: describeCpu(used, result.seconds) };
}

/** Starts the dispatcher under test; `joined` resolves once its alert and delivery groups have joined. */
function startDispatcher(admin: Admin) {
  const started = Date.now();
  dispatcher = startServiceProcess('dispatcher', {
    DISPATCHER_GROUP: group,
    DISPATCHER_FROM_BEGINNING: 'false',
    DISPATCHER_CONCURRENCY: String(concurrency),
    OUTBOUND_ALLOW_LIST: '127.0.0.1,localhost',
    WEBHOOK_SECRET_KEYS: '', // the development key, which sealed the secrets
    WEBHOOK_USER_AGENT: dispatcherAgent,
    LOG_LEVEL: 'warn',
    // Only the dispatcher's: node refuses --cpu-prof in NODE_OPTIONS, so a preload starts the profiler.
    ...(config.BENCH_DISPATCHER_PROFILE
      ? {
          NODE_OPTIONS: `--import ${root}test/bench/webhooks/cpu-profile.mjs`,
          BENCH_DISPATCHER_PROFILE: config.BENCH_DISPATCHER_PROFILE,
        }
      : {}),
  });
  const running = dispatcher;
  onCleanup('stop the dispatcher', () => stopDispatcher(running));
  // Its "dispatcher started" line is at info; its groups having joined says the same.
  const joinedGroups = [groups.alerts, groups.deliveries];
  const joined = (async () => {
    while (!(await groupsJoined(admin, joinedGroups))) {
      checkRunning();
      if (seconds(started) > 120)
        throw new Error(
          `the dispatcher's groups did not join within 120 s; its output:\n${running.output()}`,
        );
      await sleep(250);
    }
    return seconds(started);
  })();
  // Awaited by the run, which may have failed already (awaitArrivals sees an exit first): never unhandled.
  joined.catch(() => undefined);
  return { pid: running.child.pid!, joined };
}

// ---- the run --------------------------------------------------------------------------------------

export default async function webhooks(context: BenchContext): Promise<number> {
  exit = context.cleanUp;

  const kafka = createKafka({ brokers: config.KAFKA_BROKERS, clientId: 'bench-webhooks', logger });
  const admin = kafka.admin();
  await admin.connect();
  onCleanup('disconnect the Kafka admin', () => admin.disconnect());

  const receiver = await startCountingReceiver(config.BENCH_RECEIVER_HOST);
  onCleanup('close the receiver', () => receiver.close());
  const fixtures = new BenchFixtures(run, config.BENCH_WEBHOOKS);
  const body = fixtures.samplePayload();
  log(
    `bench:webhooks: ${thousands(n)} deliveries to ${fixtures.webhooks} webhooks (a tenant each), ` +
      `${concurrency} in flight, ${Buffer.byteLength(body)} B payload; load average ${load1()} on ` +
      `${availableParallelism()} cores`,
  );

  log(
    `baseline: undici request() to the receiver, ${concurrency} in flight, after ${config.BENCH_WARMUP} warm-up, ` +
      `from a process of its own (as the dispatcher is); load average ${load1()}`,
  );
  const raw = await baselineChild(receiver, fixtures, body, 'child');
  log(`  ${thousands(n)} POSTs in ${raw.seconds.toFixed(2)} s; cpu: ${raw.cpu}`);
  log(
    `baseline as before: the same loop in this process, on the receiver's event loop; load average ${load1()}`,
  );
  const inProcess = await baselineInProcess(receiver, fixtures, body);
  log(`  ${thousands(n)} POSTs in ${inProcess.seconds.toFixed(2)} s; cpu: ${inProcess.cpu}`);

  const producer = await EventProducer.connect(
    kafka,
    new EventCodec(createSchemaRegistry(config.SCHEMA_REGISTRY_URL), localTypes()),
  );
  onCleanup('disconnect the producer', () => producer.disconnect());
  const box = developmentSecretBox();
  const now = Date.now();
  const webhooks = Array.from({ length: fixtures.webhooks }, (_, i) =>
    fixtures.webhook(i, receiver.url(fixtures.path(i)), box, now),
  );
  await producer.send(
    topicNames.webhooks,
    webhooks.map((w) => ({ key: w.webhook_id, value: w })),
  );

  log(`dispatcher: services/dispatcher/main.ts, group ${group}, DISPATCHER_CONCURRENCY=${concurrency}`);
  const first = startDispatcher(admin);
  log(`  alert and delivery groups joined after ${(await first.joined).toFixed(1)} s`);
  // Unpaced, the alerts are a backlog the dispatcher drains: its process is frozen while they are
  // appended, and thawed to drain them, warm from the warm-up. Appending them while it ran
  // put their encoding and producing (a third to half of a core, in the bench process and Kafka) on
  // the two cores the dispatcher shares, a load the raw loop it is compared with does not carry, and
  // which in production is the matcher's, on its own machine. Paced, they are appended as it runs,
  // for the latency at a rate it keeps up with.
  const pacing = config.BENCH_ALERTS_PER_SECOND;
  const backlog = pacing === 0;
  if (config.BENCH_WARMUP > 0) {
    // The warm-up takes the path the measured alerts will: a backlog drained from a thaw (large fetches,
    // full lanes) when they are one. Warmed by 500 alerts appended as it ran, the dispatcher was still
    // compiling its fetch path during the measured drain: TurboFan on V8's helper threads was a fifth of
    // its CPU there (perf, docs/benchmarks.md).
    const before = receiver.distinctIds(dispatcherAgent);
    if (backlog) freeze(first.pid);
    const warm = await appendAlerts(producer, fixtures, 'warm', config.BENCH_WARMUP, 0);
    if (backlog) thaw(first.pid);
    if ((await awaitArrivals(receiver, warm.expected, 'warm-up deliveries', before)) === undefined)
      throw new Error(`the warm-up did not complete; the dispatcher's output:\n${dispatcher?.output()}`);
    log(
      `  warm-up: ${thousands(config.BENCH_WARMUP)} deliveries${backlog ? ' as a backlog' : ''} in ` +
        `${seconds(warm.started).toFixed(1)} s`,
    );
  }
  if (backlog) freeze(first.pid);
  log(
    `  appending ${thousands(n)} alerts ${backlog ? 'as a backlog, the dispatcher frozen (SIGSTOP)' : `at ${thousands(pacing)}/s`}; ` +
      `load average ${load1()}`,
  );
  const before = receiver.distinctIds(dispatcherAgent);
  const meter = () => meterCpu({ dispatcher: () => cpuSeconds(first.pid), ...kafkaCpu, bench: benchCpu });
  let cpu = backlog ? undefined : meter();
  const appended = await appendAlerts(producer, fixtures, 'run', n, pacing);
  log(`  appended in ${appended.seconds.toFixed(2)} s`);
  /** When the dispatcher had the alerts to work on: the first appended, or (backlog) when it was thawed. */
  let drainFrom = appended.started;
  if (backlog) {
    drainFrom = Date.now();
    cpu = meter();
    thaw(first.pid);
    log(`  the dispatcher thawed (SIGCONT), to drain the backlog; load average ${load1()}`);
  }
  const done = await awaitArrivals(receiver, appended.expected, 'deliveries', before);
  const used = cpu!();
  const wall = ((done ?? Date.now()) - drainFrom) / 1000;
  const figures = deliveryFigures(appended.expected, receiver.arrivals(dispatcherAgent));
  log(`  cpu${backlog ? ' from the thaw on' : ''}: ${describeCpu(used, wall)}`);

  // The baseline again, with the dispatcher gone (it stops as in the clean-up, which then has nothing to do).
  if (dispatcher) {
    await stopDispatcher(dispatcher);
    dispatcher = undefined; // gone, as it should be: checkRunning no longer looks at it
  }
  log(`baseline again, after the dispatcher: the same loop in its own process; load average ${load1()}`);
  const rawAfter = await baselineChild(receiver, fixtures, body, 'child-after');
  log(`  ${thousands(n)} POSTs in ${rawAfter.seconds.toFixed(2)} s; cpu: ${rawAfter.cpu}`);
  const rawMean = (raw.perSecond + rawAfter.perSecond) / 2;

  const span = (figures.lastArrival - figures.firstArrival) / 1000;
  const endToEnd = (figures.lastArrival - drainFrom) / 1000;
  const overSpan = figures.delivered / span;
  const overEndToEnd = figures.delivered / endToEnd;
  const foreign = [...receiver.requestsByAgent()]
    .filter(([agent]) => agent !== dispatcherAgent && agent !== baselineAgent)
    .reduce((sum, [, count]) => sum + count, 0);
  const latency = (p: number) => `${thousands(percentile(figures.latencies, p))} ms`;
  const exactlyOnce = figures.missing === 0 && figures.duplicates === 0;

  log('');
  const row = (figure: string, value: string) => log(`${figure.padEnd(48)}${value}`);
  row('figure', 'value');
  row(
    'dispatcher deliveries/s, arrival span',
    `${thousands(overSpan)}  (${thousands(figures.delivered)} in ${span.toFixed(2)} s)`,
  );
  const fromWhat = backlog ? 'from the thaw' : 'from first alert';
  row(
    `dispatcher deliveries/s, ${fromWhat}`,
    `${thousands(overEndToEnd)}  (${thousands(figures.delivered)} in ${endToEnd.toFixed(2)} s)`,
  );
  row(
    'raw undici POSTs/s, own process, mean',
    `${thousands(rawMean)}  (before the dispatcher ${thousands(raw.perSecond)}, after it ` +
      `${thousands(rawAfter.perSecond)}; ${thousands(n)} each, in ${raw.seconds.toFixed(2)} and ` +
      `${rawAfter.seconds.toFixed(2)} s)`,
  );
  row(
    'ratio dispatcher / undici, own process',
    `${(overSpan / rawMean).toFixed(3)} (arrival span), ${(overEndToEnd / rawMean).toFixed(3)} (${fromWhat})`,
  );
  row(
    '  against each baseline (arrival span)',
    `${(overSpan / raw.perSecond).toFixed(3)} before, ${(overSpan / rawAfter.perSecond).toFixed(3)} after`,
  );
  row(
    'raw undici POSTs/s, in the bench process',
    `${thousands(inProcess.perSecond)}  (${thousands(n)} in ${inProcess.seconds.toFixed(2)} s; the old baseline)`,
  );
  row(
    'ratio dispatcher / undici in the bench process',
    `${(overSpan / inProcess.perSecond).toFixed(3)} (arrival span), ${(overEndToEnd / inProcess.perSecond).toFixed(3)} (${fromWhat})`,
  );
  row(
    'alert latency p50 / p90 / p99 / max',
    [50, 90, 99, 100].map(latency).join(' / ') + (backlog ? ' (mostly queued in the backlog)' : ''),
  );
  const requests = Math.max(1, figures.delivered + figures.duplicates);
  row(
    'dispatcher CPU per request it made',
    `${((used.dispatcher! / requests) * 1000).toFixed(3)} ms (${used.dispatcher!.toFixed(2)} s in all; ` +
      `${thousands(requests / used.dispatcher!)} requests per CPU-second)`,
  );
  row(
    'every delivery arrived exactly once',
    `${exactlyOnce ? 'yes' : 'NO'}: ${thousands(figures.delivered)} of ${thousands(figures.expected)} ` +
      `arrived, ${thousands(figures.missing)} missing, ${thousands(figures.duplicates)} duplicates`,
  );
  if (foreign > 0) row('requests from anything else (not counted)', thousands(foreign));
  log(`load average ${load1()} at the end (${availableParallelism()} cores)`);
  return figures.missing === 0 ? 0 : 1;
}
