// What a run against the stack could leave behind, read from the stack itself: every topic's end
// offsets, every consumer group's committed offsets, the schema subjects, every ClickHouse table's row
// count (as readers see it: FINAL), every Redis key. Two snapshots, one before and one after something
// that must not touch the live system (a benchmark, issue 21), differ only where it did.
import type { Admin, Kafka } from 'kafkajs';
import type { Redis } from 'ioredis';
import type { ClickHouse } from '../../../services/runtime/clickhouse/client.ts';
import { partitionNotServedYet } from '../../../services/runtime/kafka/create-topics.ts';

export interface LiveState {
  /** topic → partition:end offset, joined. */
  topics: Map<string, string>;
  /** group → topic/partition:committed offset, joined. */
  groups: Map<string, string>;
  subjects: string[];
  /** database.table → rows. */
  tables: Map<string, number>;
  /** key → whether it has a time to live (such a key may expire between two snapshots). */
  redisKeys: Map<string, boolean>;
}

export interface LiveStateSources {
  /**
   * An admin client is made for each read: KafkaJS's admin keeps refreshing the metadata of every topic
   * it ever read, and once one of them is deleted (a benchmark's namespace) every later call fails.
   */
  kafka: Kafka;
  clickhouse: ClickHouse;
  redis: Redis;
  registryUrl: string;
}

export async function readLiveState(sources: LiveStateSources): Promise<LiveState> {
  const client = new AdminClient(sources.kafka);
  try {
    return await readWith(client, sources);
  } finally {
    await client.close();
  }
}

/**
 * An admin client that can be replaced. KafkaJS's admin refreshes the metadata of every topic it has
 * asked about so far, so once another benchmark (two run at a time) deletes one of those topics, every
 * later fetchTopicOffsets of this admin fails with "This server does not host this topic-partition",
 * whichever topic it is for. A new admin has asked about nothing.
 */
class AdminClient {
  private current: Admin | null = null;
  constructor(private readonly kafka: Kafka) {}
  async admin(): Promise<Admin> {
    if (!this.current) {
      const admin = this.kafka.admin();
      await admin.connect();
      this.current = admin;
    }
    return this.current;
  }
  async replace(): Promise<Admin> {
    await this.close();
    return this.admin();
  }
  async close(): Promise<void> {
    const admin = this.current;
    this.current = null;
    await admin?.disconnect();
  }
}

/** How long a topic's partitions may take to answer for their offsets (see readWith). */
const servedWithinMs = 30_000;

async function readWith(client: AdminClient, sources: LiveStateSources): Promise<LiveState> {
  const { clickhouse, redis } = sources;
  const topics = new Map<string, string>();
  for (const topic of (await (await client.admin()).listTopics()).filter((t) => !t.startsWith('__')).sort()) {
    let offsets: Awaited<ReturnType<Admin['fetchTopicOffsets']>> | null = null;
    const deadline = Date.now() + servedWithinMs;
    while (offsets === null) {
      try {
        offsets = await (await client.admin()).fetchTopicOffsets(topic);
      } catch (error) {
        // Deleted since it was listed (another run's namespace going away): not there, then.
        if (!(await (await client.admin()).listTopics()).includes(topic)) break;
        // Another topic this admin asked about earlier is gone ("does not host"), or this one was created
        // a moment ago by the benchmark running alongside and its leader does not serve it yet ("not the
        // leader": it failed the check in CI). Ask again, with an admin that asked about nothing, shortly.
        if (!partitionNotServedYet(error) || Date.now() > deadline) throw error;
        await client.replace();
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    }
    if (offsets === null) continue;
    topics.set(
      topic,
      offsets
        .sort((a, b) => a.partition - b.partition)
        .map((p) => `${p.partition}:${p.high}`)
        .join(','),
    );
  }
  const groups = new Map<string, string>();
  const admin = await client.admin();
  for (const { groupId } of (await admin.listGroups()).groups) {
    const committed = await admin.fetchOffsets({ groupId });
    groups.set(
      groupId,
      committed
        .flatMap(({ topic, partitions }) => partitions.map((p) => `${topic}/${p.partition}:${p.offset}`))
        .sort()
        .join(','),
    );
  }
  const listed = await fetch(`${sources.registryUrl.replace(/\/+$/, '')}/subjects`);
  const subjects = ((await listed.json()) as string[]).sort();

  const tables = new Map<string, number>();
  const stored = await clickhouse.query<{ database: string; name: string; engine: string }>(
    `SELECT database, name, engine FROM system.tables
     WHERE database != 'system' AND engine LIKE '%MergeTree' ORDER BY database, name`,
  );
  for (const { database, name, engine } of stored) {
    // The rows as a reader sees them. A plain count() of a ReplacingMergeTree falls whenever a background
    // merge folds the versions an earlier replay left (it did, mid-benchmark, in CI: 86,832 -> 85,163
    // postings, nothing written); FINAL counts each key once, merged or not. A plain MergeTree has no
    // FINAL (ClickHouse refuses it) and no merges that drop rows.
    const final = engine === 'MergeTree' ? '' : ' FINAL';
    try {
      const [row] = await clickhouse.query<{ rows: string }>(
        `SELECT toString(count()) AS rows FROM \`${database}\`.\`${name}\`${final}`,
      );
      tables.set(`${database}.${name}`, Number(row!.rows));
    } catch (error) {
      // Dropped since it was listed (another benchmark's database going away, as it did in CI): not
      // there, then. Anything else is a failure.
      if (!droppedMeanwhile(error)) throw error;
    }
  }

  const redisKeys = new Map<string, boolean>();
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'COUNT', 1000);
    cursor = next;
    if (keys.length === 0) continue;
    const pipeline = redis.pipeline();
    for (const key of keys) pipeline.pttl(key);
    const ttls = (await pipeline.exec()) ?? [];
    keys.forEach((key, i) => redisKeys.set(key, Number(ttls[i]?.[1]) >= 0));
  } while (cursor !== '0');

  return { topics, groups, subjects, tables, redisKeys };
}

/** ClickHouse's UNKNOWN_TABLE (60) or UNKNOWN_DATABASE (81). */
function droppedMeanwhile(error: unknown): boolean {
  const message = error instanceof Error ? `${error.message} ${String((error.cause as Error)?.message)}` : '';
  return /Code: (60|81)\b/.test(message);
}

/** What changed from `before` to `after`, in words; empty when nothing did (expired keys aside). */
export function liveStateChanges(before: LiveState, after: LiveState): string[] {
  const changes: string[] = [];
  const compare = (what: string, a: Map<string, unknown>, b: Map<string, unknown>) => {
    for (const [name, value] of b) {
      if (!a.has(name)) changes.push(`${what} ${name} appeared (${String(value)})`);
      else if (a.get(name) !== value)
        changes.push(`${what} ${name} changed: ${String(a.get(name))} -> ${String(value)}`);
    }
    for (const name of a.keys()) if (!b.has(name)) changes.push(`${what} ${name} disappeared`);
  };
  compare('topic', before.topics, after.topics);
  // Kafka's group coordinator drops an empty group that has no committed offsets on its periodic
  // clean-up (every offsets.retention.check.interval.ms, 10 minutes): such a group, left behind by an
  // earlier test, can go between two snapshots with nothing lost. One with commits may not.
  const kept = new Map([...after.groups]);
  for (const [group, committed] of before.groups)
    if (committed === '' && !after.groups.has(group)) kept.set(group, '');
  compare('consumer group', before.groups, kept);
  compare('table', before.tables, after.tables);
  compare(
    'schema subject',
    new Map(before.subjects.map((s) => [s, true])),
    new Map(after.subjects.map((s) => [s, true])),
  );
  for (const key of after.redisKeys.keys())
    if (!before.redisKeys.has(key)) changes.push(`Redis key ${key} appeared`);
  for (const [key, expires] of before.redisKeys)
    if (!after.redisKeys.has(key) && !expires) changes.push(`Redis key ${key} (without expiry) disappeared`);
  return changes;
}

// A benchmark's namespace, as test/bench/support/bench-namespace.ts names it: `bench.<bench>.<run>.` for
// topics, groups and subjects, `bench_<bench>_<run>` for its database, `bench:<bench>:<run>:` for keys.
const benchNamespace = /\bbench[._:]([a-z][a-z0-9]*)[._:][0-9a-f]{8}[._:]/;

/**
 * The changes that are not another benchmark's own namespace coming or going: with two benchmarks run at
 * once, each one's snapshots see the other's namespace, which that one's own check covers. `bench` is the
 * benchmark whose changes these are (its own namespace still counts: it must be gone at its end).
 */
export function apartFromOtherBenchmarks(changes: readonly string[], bench: string): string[] {
  return changes.filter((change) => {
    const other = benchNamespace.exec(change)?.[1];
    return other === undefined || other === bench;
  });
}
