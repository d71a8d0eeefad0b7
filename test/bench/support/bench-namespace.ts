// Every benchmark runs in a namespace of its own: topics and consumer groups under a TOPIC_PREFIX of the
// run's, a ClickHouse database of the run's, Redis keys under a prefix of the run's. The namespace is
// made at the start and removed at the end, also on failure and on Ctrl-C, so a benchmark run against
// a staging or production stack leaves no synthetic news in its topics, read models or Redis.
//
// The namespace reaches everything through the environment: this module sets TOPIC_PREFIX,
// CLICKHOUSE_DATABASE and REDIS_KEY_PREFIX before the benchmark's own modules load (topics.ts reads
// TOPIC_PREFIX once, when it loads), and the services a benchmark starts inherit them. Hence a
// benchmark's entry file imports only this module and hands it the rest as a dynamic import:
//
//   await runBench('ingest', { stack: true }, () => import('./ingest/run.ts'));
//
// This module must therefore not import topics.ts (or anything that does) itself.
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import {
  infrastructureEnv,
  loadConfig,
  type InfrastructureConfig,
} from '../../../services/runtime/config.ts';
import { ClickHouse, clickHouseSettings } from '../../../services/runtime/clickhouse/client.ts';
import { createKafka } from '../../../services/runtime/kafka/client.ts';
import { partitionNotServedYet } from '../../../services/runtime/kafka/create-topics.ts';
import { createLogger } from '../../../services/runtime/logger.ts';
import { cleanUpOnExit, type CleanUp } from './clean-up.ts';

const root = fileURLToPath(new URL('../../../', import.meta.url));

export interface BenchNamespace {
  bench: string;
  /** Eight hex digits, different for every run. */
  run: string;
  /** Of every topic and consumer group of the run: `bench.<bench>.<run>.`. */
  topicPrefix: string;
  /** The run's ClickHouse database: `bench_<bench>_<run>`. */
  database: string;
  /** Of every Redis key of the run: `bench:<bench>:<run>:`. */
  redisPrefix: string;
  /** What a process needs to live in the namespace (already set in this one's environment). */
  env: { TOPIC_PREFIX: string; CLICKHOUSE_DATABASE: string; REDIS_KEY_PREFIX: string };
}

export function benchNamespace(bench: string, run = randomUUID().slice(0, 8)): BenchNamespace {
  if (!/^[a-z][a-z0-9]*$/.test(bench)) throw new Error(`bench name "${bench}" must be [a-z][a-z0-9]*`);
  const topicPrefix = `bench.${bench}.${run}.`;
  const database = `bench_${bench}_${run}`;
  const redisPrefix = `bench:${bench}:${run}:`;
  return {
    bench,
    run,
    topicPrefix,
    database,
    redisPrefix,
    env: { TOPIC_PREFIX: topicPrefix, CLICKHOUSE_DATABASE: database, REDIS_KEY_PREFIX: redisPrefix },
  };
}

/** What a benchmark's body gets. */
export interface BenchContext {
  namespace: BenchNamespace;
  /** Tasks run at the end, newest first, also on failure and Ctrl-C (./clean-up.ts). */
  cleanUp: CleanUp;
  log: (line: string) => void;
}

export interface BenchNeeds {
  /**
   * The stack: brought up, the namespace's topics created and schemas registered (and with
   * `migrations`, its database migrated), and all of it removed at the end. Without it the benchmark
   * runs in this process only, and only its Redis keys (if any) are removed.
   */
  stack?: boolean;
  /** Apply the ClickHouse migrations to the namespace's database at the start. */
  migrations?: boolean;
  /** Keep the database at the end (for looking at it afterwards); it is named in the output. */
  keepDatabase?: boolean;
}

/** A benchmark's body: resolves to its exit code (0 unless something broke). */
export type BenchBody = (context: BenchContext) => Promise<number | void>;

/**
 * Runs a benchmark in a fresh namespace and exits the process with its exit code once the namespace
 * is removed. `load` imports the benchmark's body; it runs after the environment names the namespace.
 */
export async function runBench(
  bench: string,
  needs: BenchNeeds,
  load: () => Promise<{ default: BenchBody }>,
): Promise<never> {
  const namespace = benchNamespace(bench);
  // The stack is brought up (if it is not) as the live system's: `up` records CLICKHOUSE_DATABASE for
  // the stack's later commands (`stack.sh env`), which must not name this run's database, gone at its end.
  const liveEnv = { ...process.env };
  Object.assign(process.env, namespace.env);
  const config = loadConfig(infrastructureEnv);
  const cleanUp = cleanUpOnExit(`bench:${bench}`);
  const log = (line: string) => process.stdout.write(`${line}\n`);
  // Registered first, so it runs last: after the body's own clean-up has stopped its processes.
  cleanUp.onCleanup('remove the namespace', () =>
    removeNamespace(namespace, config, { stack: needs.stack === true, keepDatabase: needs.keepDatabase }),
  );
  let code = 1;
  try {
    if (needs.stack) {
      provisionNamespace(needs, liveEnv);
      await leadersServing(namespace.topicPrefix, config);
    }
    const { default: body } = await load();
    // Had anything loaded the topic catalog before the environment named the namespace, its names
    // would be the live ones: refuse rather than write into them.
    const { topicPrefix } = await import('../../../services/runtime/kafka/topics.ts');
    if (topicPrefix !== namespace.topicPrefix)
      throw new Error(
        `the topic catalog was loaded before the namespace was set (its prefix is "${topicPrefix}"): ` +
          'import the benchmark through runBench only',
      );
    code = (await body({ namespace, cleanUp, log })) ?? 0;
  } catch (error) {
    if (!cleanUp.interrupted)
      process.stderr.write(`bench:${bench} failed: ${(error as Error)?.stack ?? String(error)}\n`);
    code = 1;
  }
  await cleanUp.cleanUp();
  process.exit(code);
}

function provisionNamespace(needs: BenchNeeds, liveEnv: NodeJS.ProcessEnv): void {
  execFileSync('bash', ['docker/stack/stack.sh', 'up'], { cwd: root, stdio: 'ignore', env: liveEnv });
  // The same provisioning as the live system's, into the namespace (its environment says which).
  execFileSync(process.execPath, ['--import', 'tsx', 'services/provision/main.ts'], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      ...process.env,
      LOG_LEVEL: 'warn',
      ...(needs.migrations ? {} : { PROVISION_SKIP: 'migrations' }),
    },
  });
}

/**
 * Returns once every topic of the namespace answers for its end offsets. Provisioning waits until the
 * metadata names a leader for every partition, but a broker that has just been made leader can still
 * answer "not the leader" to the first ListOffsets (seen on a fresh stack, in CI): the benchmark's
 * first look at its topics then failed.
 */
async function leadersServing(prefix: string, config: InfrastructureConfig): Promise<void> {
  const kafka = createKafka({
    brokers: config.KAFKA_BROKERS,
    clientId: 'bench-start',
    logger: createLogger('bench', 'error'),
  });
  const admin = kafka.admin();
  await admin.connect();
  try {
    const deadline = Date.now() + 30_000;
    const topics = (await admin.listTopics()).filter((t) => t.startsWith(prefix));
    for (const topic of topics) {
      for (;;) {
        try {
          await admin.fetchTopicOffsets(topic);
          break;
        } catch (error) {
          if (!partitionNotServedYet(error) || Date.now() > deadline) throw error;
          await new Promise((resolve) => setTimeout(resolve, 200));
        }
      }
    }
  } finally {
    await admin.disconnect();
  }
}

/**
 * Deletes whatever the namespace holds: its topics, consumer groups and schema subjects, its database,
 * its Redis keys. Each part on its own, so one that fails (reported) does not keep the others.
 */
export async function removeNamespace(
  namespace: BenchNamespace,
  config: InfrastructureConfig,
  options: { stack: boolean; keepDatabase?: boolean },
): Promise<void> {
  const failures: string[] = [];
  const attempt = async (what: string, task: () => Promise<unknown>) => {
    try {
      await task();
    } catch (error) {
      failures.push(`${what}: ${(error as Error).message}`);
    }
  };
  if (options.stack) {
    await attempt('Kafka topics and groups', () => removeKafkaNamespace(namespace.topicPrefix, config));
    await attempt('schema subjects', () => removeSubjects(namespace.topicPrefix, config.SCHEMA_REGISTRY_URL));
    if (options.keepDatabase) process.stdout.write(`kept the database ${namespace.database}\n`);
    else await attempt('database', () => dropDatabase(namespace.database, config));
  }
  await attempt('Redis keys', () => deleteRedisKeys(config.REDIS_URL, namespace.redisPrefix));
  if (failures.length > 0)
    throw new Error(`removing namespace ${namespace.topicPrefix}: ${failures.join('; ')}`);
}

/** Deletes every consumer group and topic whose name starts with `prefix`. */
export async function removeKafkaNamespace(prefix: string, config: InfrastructureConfig): Promise<void> {
  const kafka = createKafka({
    brokers: config.KAFKA_BROKERS,
    clientId: 'bench-clean-up',
    logger: createLogger('bench', 'error'),
  });
  const admin = kafka.admin();
  await admin.connect();
  try {
    const { groups } = await admin.listGroups();
    const failures: string[] = [];
    // One at a time: KafkaJS fails the whole call when one group cannot be deleted.
    for (const { groupId } of groups.filter((g) => g.groupId.startsWith(prefix))) {
      await admin
        .deleteGroups([groupId])
        .catch((error: Error) => failures.push(`${groupId}: ${error.message}`));
    }
    const topics = (await admin.listTopics()).filter((t) => t.startsWith(prefix));
    if (topics.length > 0) await admin.deleteTopics({ topics, timeout: 30_000 });
    if (failures.length > 0) throw new Error(`could not delete group(s) ${failures.join('; ')}`);
  } finally {
    await admin.disconnect();
  }
}

/** Soft-deletes, then permanently deletes, every subject of the namespace (Confluent's API). */
export async function removeSubjects(prefix: string, registryUrl: string): Promise<void> {
  const base = registryUrl.replace(/\/+$/, '');
  const listed = await fetch(`${base}/subjects`);
  if (!listed.ok) throw new Error(`GET /subjects answered ${listed.status}`);
  const subjects = ((await listed.json()) as string[]).filter((s) => s.startsWith(prefix));
  for (const subject of subjects) {
    const url = `${base}/subjects/${encodeURIComponent(subject)}`;
    for (const permanent of [false, true]) {
      const response = await fetch(permanent ? `${url}?permanent=true` : url, { method: 'DELETE' });
      await response.arrayBuffer();
      // 404 on the second: a registry that deletes at once has nothing left to delete permanently.
      if (!response.ok && !(permanent && response.status === 404))
        throw new Error(`DELETE ${subject}${permanent ? ' permanently' : ''} answered ${response.status}`);
    }
  }
}

async function dropDatabase(database: string, config: InfrastructureConfig): Promise<void> {
  const clickhouse = await ClickHouse.connect(clickHouseSettings(config, 'default'));
  try {
    await clickhouse.command(`DROP DATABASE IF EXISTS ${database}`);
  } finally {
    await clickhouse.close();
  }
}

export async function deleteRedisKeys(url: string, prefix: string): Promise<void> {
  const redis = new Redis(url, { maxRetriesPerRequest: 2 });
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
      cursor = next;
      if (keys.length) await redis.del(...keys);
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}
