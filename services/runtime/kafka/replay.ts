// Reads fixed offset ranges of the projected topics and hands each fetched
// batch to the projection, then stops. Unlike the live projector it has an end
// (the offsets captured when the rebuild started), and any failure ends it
// (after a few tries if transient, transient.ts): a rebuild that waited out a
// broken ClickHouse for hours would only delay the operator learning about
// it, and the live tables are still serving. That includes a row ClickHouse
// rejects, which the live projector would dead-letter after its retries: here
// it cannot be told from a broken scratch table, and swapping in tables with
// holes would be worse than not swapping. Undecodable messages are skipped,
// as the live projector skipped them (they are in the dead-letter topic).
import { randomUUID } from 'node:crypto';
import type { Admin, EachBatchPayload, Kafka } from 'kafkajs';
import type { ConsumedEvent } from './consumer.ts';
import { describeError, isPoison } from './errors.ts';
import type { EventCodec } from './registry.ts';
import type { Logger } from '../logger.ts';
import { retryTransient } from './transient.ts';
import { consumerGroup } from './topics.ts';

export interface PartitionOffsets {
  topic: string;
  partition: number;
  /** The first offset still in the log. */
  low: number;
  /** The high watermark: the offset the next event will get. */
  high: number;
}

/** Offsets [from, to) of one partition. */
export interface PartitionRange {
  topic: string;
  partition: number;
  from: number;
  to: number;
}

const keyOf = (topic: string, partition: number) => `${topic}/${partition}`;

export async function partitionOffsets(admin: Admin, topics: readonly string[]): Promise<PartitionOffsets[]> {
  const all: PartitionOffsets[] = [];
  for (const topic of topics) {
    for (const p of await admin.fetchTopicOffsets(topic)) {
      all.push({ topic, partition: p.partition, low: Number(p.low), high: Number(p.high) });
    }
  }
  return all;
}

/** Everything in the log now: from each partition's first offset up to its high watermark. */
export const wholeLog = (offsets: readonly PartitionOffsets[]): PartitionRange[] =>
  offsets.map(({ topic, partition, low, high }) => ({ topic, partition, from: low, to: high }));

/**
 * What was appended between two captures. A partition created in between has
 * no earlier capture and is read from its start.
 */
export function appendedSince(
  before: readonly PartitionOffsets[],
  now: readonly PartitionOffsets[],
): PartitionRange[] {
  const previous = new Map(before.map((p) => [keyOf(p.topic, p.partition), p.high]));
  return now.map(({ topic, partition, low, high }) => ({
    topic,
    partition,
    from: Math.max(low, previous.get(keyOf(topic, partition)) ?? low),
    to: high,
  }));
}

export const eventsIn = (ranges: readonly PartitionRange[]) =>
  ranges.reduce((sum, r) => sum + Math.max(0, r.to - r.from), 0);

export interface ReplayOptions {
  kafka: Kafka;
  codec: EventCodec;
  logger: Logger;
  ranges: readonly PartitionRange[];
  /** Writes a batch of one partition's events; its failure ends the replay (after retries if transient). */
  project: (events: ConsumedEvent<unknown>[]) => Promise<void>;
  /** Offsets passed (events, plus any gaps compaction left), for progress. */
  onAdvance?: (offsets: number) => void;
  /** Aborting ends the replay with an error (a stop signal). */
  signal?: AbortSignal;
  /** Partitions read at once; order is kept within a partition either way. */
  partitionsConcurrently?: number;
  /** What the replay's own consumer group is named after (a UUID is added): who is replaying. */
  groupName?: string;
}

export interface ReplayResult {
  /** Events handed to the projection. */
  events: number;
  /** Undecodable messages skipped (the live projector dead-lettered them). */
  skipped: number;
}

/**
 * Replays `ranges`, resolving once every partition has reached its `to`.
 *
 * KafkaJS reads only through a consumer group (it has no manual assignment),
 * so this uses a group of its own, named once per replay, with auto-commit
 * off: nothing is ever committed, so the group leaves no offsets behind for
 * anyone to resume from or alert on. Resuming would be wrong anyway: a crashed
 * rebuild starts again from a freshly dropped scratch database.
 */
export async function replay(options: ReplayOptions): Promise<ReplayResult> {
  const pending = options.ranges.filter((r) => r.to > r.from);
  const result: ReplayResult = { events: 0, skipped: 0 };
  if (pending.length === 0) return result;

  const ranges = new Map(pending.map((r) => [keyOf(r.topic, r.partition), r]));
  const position = new Map(pending.map((r) => [keyOf(r.topic, r.partition), r.from]));
  const groupId = consumerGroup(`${options.groupName ?? 'projector-rebuild'}-${randomUUID()}`);
  const consumer = options.kafka.consumer({
    groupId,
    allowAutoTopicCreation: false,
    maxBytesPerPartition: 4 * 1024 * 1024,
    maxBytes: 16 * 1024 * 1024,
    // Disconnecting waits for the fetch in flight; at the end of a replay that fetch is waiting for
    // events that do not come, so keep its wait short rather than KafkaJS's default 5 s.
    maxWaitTimeInMs: 250,
    // KafkaJS retries a broker error a few times itself; after that the consumer crashes (CRASH
    // below) instead of restarting, and the replay fails.
    retry: { retries: 5, restartOnFailure: async () => false },
  });

  let finish!: () => void;
  let fail!: (error: Error) => void;
  const finished = new Promise<void>((resolve, reject) => {
    finish = resolve;
    fail = reject;
  });
  // Failures can come before anyone awaits `finished` (a crash while joining); they are read there.
  void finished.catch(() => undefined);
  let failed = false;
  const stop = (error: Error) => {
    failed = true;
    fail(error);
  };

  /** Moves a partition's position to `next`, reports the distance, and finishes when all are at their end. */
  const advance = (topic: string, partition: number, next: number) => {
    const key = keyOf(topic, partition);
    const range = ranges.get(key);
    const at = position.get(key);
    if (!range || at === undefined) return;
    const to = Math.min(range.to, next);
    if (to <= at) return;
    position.set(key, to);
    options.onAdvance?.(to - at);
    if (to >= range.to) {
      ranges.delete(key);
      if (ranges.size === 0) finish();
    }
  };

  const handleBatch = async (payload: EachBatchPayload) => {
    const { batch } = payload;
    if (failed) return;
    const range = ranges.get(keyOf(batch.topic, batch.partition));
    if (!range) return; // at its end already, or a partition this replay does not cover
    try {
      const events: ConsumedEvent<unknown>[] = [];
      for (const message of batch.messages) {
        const offset = Number(message.offset);
        // A fetch made before our seek can start below `from`; events at or past `to` belong to whoever reads next.
        if (offset < range.from || offset >= range.to) continue;
        try {
          events.push({
            topic: batch.topic,
            partition: batch.partition,
            offset: message.offset,
            key: message.key?.toString('utf8') ?? null,
            value: await options.codec.decode(batch.topic, message.value),
            headers: message.headers ?? {},
            timestamp: message.timestamp,
          });
        } catch (error) {
          // The live projector dead-lettered this message and left no row for it: skip it the same way.
          if (!isPoison(error)) throw error;
          result.skipped++;
          options.logger.warn(
            { topic: batch.topic, partition: batch.partition, offset, err: describeError(error) },
            'undecodable message skipped (it is in the dead-letter topic)',
          );
        }
      }
      if (events.length > 0)
        await retryTransient(
          `projecting ${batch.topic} partition ${batch.partition}`,
          () => options.project(events),
          { logger: options.logger, signal: options.signal, whileWaiting: () => payload.heartbeat() },
        );
      result.events += events.length;
      advance(batch.topic, batch.partition, Number(batch.lastOffset()) + 1);
      await payload.heartbeat();
    } catch (error) {
      stop(
        new Error(`replaying ${batch.topic} partition ${batch.partition} failed: ${describeError(error)}`, {
          cause: error,
        }),
      );
    }
  };

  // A batch whose messages were all removed by compaction never reaches eachBatch; KafkaJS still
  // reports how far it got, and without this the replay would wait forever short of its end.
  consumer.on(consumer.events.END_BATCH_PROCESS, ({ payload }) => {
    if (payload.batchSize === 0) advance(payload.topic, payload.partition, Number(payload.lastOffset) + 1);
  });
  consumer.on(consumer.events.CRASH, ({ payload }) =>
    stop(new Error(`Kafka consumer failed: ${describeError(payload.error)}`, { cause: payload.error })),
  );
  const onAbort = () => stop(new Error('interrupted by a stop signal'));
  options.signal?.addEventListener('abort', onAbort, { once: true });

  try {
    if (options.signal?.aborted) throw new Error('interrupted by a stop signal');
    await consumer.connect();
    await consumer.subscribe({ topics: [...new Set(pending.map((r) => r.topic))], fromBeginning: true });
    await consumer.run({
      autoCommit: false,
      eachBatchAutoResolve: true,
      partitionsConsumedConcurrently: options.partitionsConcurrently ?? 4,
      eachBatch: handleBatch,
    });
    for (const r of pending)
      consumer.seek({ topic: r.topic, partition: r.partition, offset: String(r.from) });
    await finished;
  } finally {
    options.signal?.removeEventListener('abort', onAbort);
    await consumer.disconnect().catch(() => undefined);
  }
  // Only after a replay that worked: with Kafka failing, this would only delay the report.
  await forgetGroup(options.kafka, groupId);
  return result;
}

/**
 * The group committed nothing, but Kafka lists it (empty) until its next
 * cleanup; deleting it keeps the group list an operator reads free of
 * finished replays. Best effort: a group left behind harms nothing.
 */
async function forgetGroup(kafka: Kafka, groupId: string): Promise<void> {
  const admin = kafka.admin();
  try {
    await admin.connect();
    await admin.deleteGroups([groupId]);
  } catch {
    // see above
  } finally {
    await admin.disconnect().catch(() => undefined);
  }
}
