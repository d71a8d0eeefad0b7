// Issue 21: a benchmark run against the stack leaves the live system as it found it. Each bench:* script
// runs here at a tiny size, as a user would start it (`npm run bench:…`), and the stack's state is read
// before and after (./support/live-state.ts): every topic's end offsets, every consumer group's commits,
// the schema subjects, every ClickHouse table's row count and the Redis keys must be unchanged. A
// benchmark writes only into its namespace (test/bench/support/bench-namespace.ts), which is gone when
// it exits, also when it is interrupted.
//
// Two benchmarks run at a time (each is mostly its fixed start and end: loading, joining groups, making
// and removing its namespace, which left the cores half idle), never two of the same script. Each one's
// check leaves out the other's namespace (apartFromOtherBenchmarks), which that one's own check covers.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Admin } from 'kafkajs';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClickHouse } from '../../services/runtime/clickhouse/client.ts';
import { createTopicsAndWait } from '../../services/runtime/kafka/create-topics.ts';
import { idempotentProducer } from '../../services/runtime/kafka/producer.ts';
import { withClusterReplication } from '../../services/runtime/kafka/replication.ts';
import { testKafka } from './support/kafka.ts';
import {
  apartFromOtherBenchmarks,
  liveStateChanges,
  readLiveState,
  type LiveStateSources,
} from './support/live-state.ts';
import { stack, testClickHouse } from './support/stack.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));

interface BenchRun {
  script: string;
  env: Record<string, string>;
  args?: string[];
  /** Interrupt it (SIGINT, as Ctrl-C) once its output matches this. */
  interruptOn?: RegExp;
  /** How the run differs from the script's plain run, for the timing line. */
  variant?: string;
}

/** What the stack tells the applications to use (`stack.sh env`: its brokers, database, ...). */
const stackSettings = () =>
  execFileSync('bash', ['docker/stack/stack.sh', 'env'], { cwd: root, encoding: 'utf8' });

/** Runs `npm run <script>`; resolves with its exit code (or signal) and the tail of its output. */
function runScript(run: BenchRun): Promise<{ code: number | string | null; output: string }> {
  const child = spawn('npm', ['run', '--silent', run.script, ...(run.args ? ['--', ...run.args] : [])], {
    cwd: root,
    env: { ...process.env, LOG_LEVEL: 'warn', ...run.env },
    stdio: ['ignore', 'pipe', 'pipe'],
    // Its own process group, so an interrupt reaches the benchmark as Ctrl-C would (npm, then node).
    detached: true,
  });
  let output = '';
  let interrupted = false;
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-20_000);
    if (run.interruptOn && !interrupted && run.interruptOn.test(output)) {
      interrupted = true;
      process.kill(-child.pid!, 'SIGINT');
    }
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  return new Promise((resolve) =>
    child.once('exit', (code, signal) => resolve({ code: code ?? signal, output })),
  );
}

/** Runs at most `limit` tasks at once, never two with the same key, in the order they were asked for. */
function taskPool(limit: number) {
  let running = 0;
  const busy = new Set<string>();
  const waiting: { key: string; start: () => void }[] = [];
  const startWhatCan = () => {
    for (let i = 0; i < waiting.length && running < limit;) {
      const next = waiting[i]!;
      if (busy.has(next.key)) {
        i += 1;
        continue;
      }
      waiting.splice(i, 1);
      running += 1;
      busy.add(next.key);
      next.start();
    }
  };
  return async <T>(key: string, task: () => Promise<T>): Promise<T> => {
    await new Promise<void>((start) => {
      waiting.push({ key, start });
      startWhatCan();
    });
    try {
      return await task();
    } finally {
      running -= 1;
      busy.delete(key);
      startWhatCan();
    }
  };
}

/** Two at a time: the suite's two cores. Each test's timeout counts its wait for a turn too. */
const inTurn = taskPool(2);
const benchTimeoutMs = 1_200_000;

/** The bench's name in its namespace: `bench:ingest` → `ingest`. */
const benchName = (script: string) => script.replace(/^bench:/, '');

describe('benchmarks leave the live topics, read models and Redis as they were', () => {
  let admin: Admin;
  let clickhouse: ClickHouse;
  let redis: Redis;
  let sources: LiveStateSources;
  const dataDirectory = mkdtempSync(path.join(tmpdir(), 'bench-isolation-'));
  const storiesFile = path.join(dataDirectory, 'stories.jsonl');

  beforeAll(async () => {
    admin = testKafka().admin();
    await admin.connect();
    clickhouse = await testClickHouse('default');
    redis = new Redis(stack.REDIS_URL);
    sources = { kafka: testKafka(), clickhouse, redis, registryUrl: stack.SCHEMA_REGISTRY_URL };
    // bench:stories reads a labelled data set (none is bundled): forty headlines in four stories.
    const topics = [
      'central bank raises interest rates',
      'storm floods coastal towns',
      'team wins cup final',
      'chip maker reports record profit',
    ];
    const lines = Array.from({ length: 40 }, (_, i) =>
      JSON.stringify({
        id: `a${i}`,
        title: `${topics[i % 4]} ${['today', 'again', 'says report', 'analysts react', 'in depth'][i % 5]}`,
        source: `outlet ${i % 3}`,
        at: Date.UTC(2026, 0, 1) + i * 60_000,
        story: `s${i % 4}`,
      }),
    );
    writeFileSync(storiesFile, `${lines.join('\n')}\n`);
  });

  afterAll(async () => {
    await admin?.disconnect();
    await clickhouse?.close();
    redis?.disconnect();
    rmSync(dataDirectory, { recursive: true, force: true });
  });

  const runs: BenchRun[] = [
    {
      script: 'bench:ingest',
      env: { BENCH_FEEDS: '20', BENCH_ITEMS: '3', BENCH_HOSTS: '2', BENCH_LARGE_FEEDS: '0' },
    },
    { script: 'bench:webhooks', env: { BENCH_DELIVERIES: '100', BENCH_WEBHOOKS: '3', BENCH_WARMUP: '10' } },
    {
      script: 'bench:api',
      env: {
        BENCH_ARTICLES: '1000',
        BENCH_SECONDS: '1',
        BENCH_WARMUP_SECONDS: '0',
        BENCH_MIN_RESPONSES: '1',
        // One filter set: the API processes (shared reads and alone) and both baselines still run; the
        // other four sets would only repeat them (an extra minute of the suite).
        BENCH_LISTS: 'newest',
      },
    },
    {
      script: 'bench:stream',
      env: {
        BENCH_CLIENTS: '5',
        BENCH_EVENTS: '20',
        BENCH_RATE: '20',
        BENCH_FLOOD_EVENTS: '20',
        BENCH_ROUNDS: '1',
      },
    },
    {
      script: 'bench:audio',
      env: {
        BENCH_ARTICLES: '2',
        BENCH_BLOCK: '2',
        BENCH_CONCURRENCY: '1',
        BENCH_ENGINES: 'espeak',
        BENCH_TEXT2WAVE: 'false',
        BENCH_REQUESTS: '3',
      },
    },
    { script: 'bench:documentary', env: { BENCH_LENGTHS: 'short' } },
    { script: 'bench:quality', env: { BENCH_SECONDS: '0' } },
    { script: 'bench:matching', env: { BENCH_SECONDS: '0' } },
    { script: 'bench:stories', env: {}, args: [storiesFile] },
    { script: 'bench:freshness', env: { BENCH_FEEDS: '20' } },
  ];

  it('sees a write into the live system (the check below can fail)', async () => {
    const topic = `test.bench-isolation.${Date.now()}`;
    await createTopicsAndWait(admin, await withClusterReplication(admin, [{ topic, numPartitions: 1 }]));
    const producer = idempotentProducer(testKafka());
    await producer.connect();
    try {
      const before = await readLiveState(sources);
      await producer.send({ topic, messages: [{ key: 'probe', value: 'probe' }] });
      await redis.set('bench-isolation:probe', '1');
      const changes = liveStateChanges(before, await readLiveState(sources));
      expect(changes).toEqual(
        expect.arrayContaining([
          `topic ${topic} changed: 0:0 -> 0:1`,
          'Redis key bench-isolation:probe appeared',
        ]),
      );
    } finally {
      await producer.disconnect();
      await redis.del('bench-isolation:probe');
      await admin.deleteTopics({ topics: [topic] });
    }
  });

  it("counts a table's rows as readers see them: a merge folding replaced versions is no change", async () => {
    const database = `bench_isolation_probe_${Date.now()}`;
    const table = `${database}.versions`;
    await clickhouse.command(`CREATE DATABASE ${database}`);
    try {
      await clickhouse.command(
        `CREATE TABLE ${table} (key UInt64, version UInt64) ENGINE = ReplacingMergeTree(version) ORDER BY key`,
      );
      // Two inserts, two parts: the key's two versions are both stored until a merge folds them.
      await clickhouse.command(`INSERT INTO ${table} VALUES (1, 1)`);
      await clickhouse.command(`INSERT INTO ${table} VALUES (1, 2)`);
      const before = await readLiveState(sources);
      await clickhouse.command(`OPTIMIZE TABLE ${table} FINAL`);
      const [stored] = await clickhouse.query<{ rows: string }>(
        `SELECT toString(count()) AS rows FROM ${table}`,
      );
      expect(stored!.rows).toBe('1'); // the merge did fold them
      expect(liveStateChanges(before, await readLiveState(sources))).toEqual([]);
      await clickhouse.command(`INSERT INTO ${table} VALUES (2, 1)`);
      expect(liveStateChanges(before, await readLiveState(sources))).toEqual([
        `table ${table} changed: 1 -> 2`,
      ]);
    } finally {
      await clickhouse.command(`DROP DATABASE IF EXISTS ${database}`);
    }
  });

  it('reads a table dropped after it was listed as absent (another benchmark ending), not as a failure', async () => {
    const database = `bench_isolation_gone_${Date.now()}`;
    await clickhouse.command(`CREATE DATABASE ${database}`);
    await clickhouse.command(`CREATE TABLE ${database}.rows (key UInt64) ENGINE = MergeTree ORDER BY key`);
    let dropped = false;
    // The real ClickHouse, with the database dropped just before its table is counted: the moment
    // another benchmark's clean-up met this reader in CI.
    const dropping = new Proxy(clickhouse, {
      get(target, property, receiver) {
        if (property !== 'query') return Reflect.get(target, property, receiver) as unknown;
        return async (statement: string) => {
          if (!dropped && statement.includes(`\`${database}\``)) {
            dropped = true;
            await target.command(`DROP DATABASE ${database}`);
          }
          return target.query(statement);
        };
      },
    });
    try {
      const state = await readLiveState({ ...sources, clickhouse: dropping });
      expect(dropped).toBe(true);
      expect(state.tables.has(`${database}.rows`)).toBe(false);
      expect(state.tables.size).toBeGreaterThan(0); // the other tables were still read
    } finally {
      await clickhouse.command(`DROP DATABASE IF EXISTS ${database}`);
    }
  });

  /** Runs `run` in its turn; what changed in the live system meanwhile, apart from other benchmarks. */
  const runInTurn = (run: BenchRun) => {
    const asked = Date.now();
    return inTurn(run.script, async () => {
      const started = Date.now();
      const before = await readLiveState(sources);
      const settingsBefore = stackSettings();
      const scriptStarted = Date.now();
      const result = await runScript(run);
      const scriptEnded = Date.now();
      const changes = apartFromOtherBenchmarks(
        liveStateChanges(before, await readLiveState(sources)),
        benchName(run.script),
      );
      // Where the file's time goes (the suite's report gives only its total): the wait for a turn, the
      // benchmark itself, and the two snapshots of the stack around it.
      const s = (ms: number) => (ms / 1000).toFixed(1);
      console.log(
        `${run.script}${run.variant ? ` (${run.variant})` : ''}: waited ${s(started - asked)} s, ran ` +
          `${s(scriptEnded - scriptStarted)} s, snapshots ${s(scriptStarted - started + Date.now() - scriptEnded)} s; ` +
          `load average ${loadavg()[0]!.toFixed(1)}`,
      );
      return { ...result, changes, settingsBefore, settingsAfter: stackSettings() };
    });
  };

  for (const run of runs) {
    it.concurrent(
      `npm run ${run.script}`,
      async ({ expect }) => {
        const { code, output, changes, settingsBefore, settingsAfter } = await runInTurn(run);
        expect(code, output).toBe(0);
        expect(changes, output).toEqual([]);
        // A benchmark that brought the stack up did it as the live system's: the stack still tells the
        // applications the live database, not the benchmark's (dropped at its end).
        expect(settingsAfter, output).toBe(settingsBefore);
      },
      benchTimeoutMs,
    );
  }

  it.concurrent(
    'npm run bench:webhooks, failing halfway (its dispatcher refuses its configuration)',
    async ({ expect }) => {
      const { code, output, changes } = await runInTurn({
        script: 'bench:webhooks',
        // Read by the dispatcher the benchmark starts, after the namespace is provisioned and the
        // baseline has run: it exits at once, and the benchmark fails.
        env: { BENCH_DELIVERIES: '100', BENCH_WEBHOOKS: '3', BENCH_WARMUP: '10', WEBHOOK_TIMEOUT_MS: 'soon' },
        variant: 'failing',
      });
      expect(code, output).toBe(1);
      expect(output).toMatch(/the dispatcher exited/);
      expect(output).not.toMatch(/clean-up .* failed/);
      expect(changes, output).toEqual([]);
    },
    benchTimeoutMs,
  );

  it.concurrent(
    'npm run bench:webhooks, interrupted (Ctrl-C) halfway',
    async ({ expect }) => {
      const { code, output, changes } = await runInTurn({
        script: 'bench:webhooks',
        // Enough deliveries that the run is still going when the interrupt lands, a few milliseconds after
        // the line that announces them (appending and delivering 20,000 take 5-10 s), few enough that the
        // two raw-POST baselines before them stay short (100,000 each took 20 s of the suite; a million,
        // six minutes).
        env: { BENCH_DELIVERIES: '20000', BENCH_WEBHOOKS: '3', BENCH_WARMUP: '10' },
        interruptOn: /appending .* alerts/,
        variant: 'interrupted',
      });
      expect(code, output).not.toBe(0);
      expect(output).toMatch(/SIGINT, cleaning up/);
      expect(changes, output).toEqual([]);
    },
    benchTimeoutMs,
  );
});
