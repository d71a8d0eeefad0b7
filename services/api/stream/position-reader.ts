// Reads the stream's topics from a given position, in a consumer group of its own that commits nothing:
// the API instance's tail (from the topics' ends, for as long as it runs) and a reconnecting client's
// catch-up (from its Last-Event-ID up to where the instance's replay buffer begins) are both one of these.
// KafkaJS has no manual partition assignment; a group with a random id and one member gets every partition,
// and seek() puts each one where the position says.
import { randomUUID } from 'node:crypto';
import type { Admin, Consumer, EachBatchPayload, Kafka } from 'kafkajs';
import type { Logger } from '../../runtime/logger.ts';
import { runRestartingAfterCrash, type CrashRestart } from '../../runtime/kafka/crash-restart.ts';
import { isPoison } from '../../runtime/kafka/errors.ts';
import type { EventCodec } from '../../runtime/kafka/registry.ts';
import { copyPosition, streamTopics, type Position } from './stream-position.ts';
import { consumerGroup } from '../../runtime/kafka/topics.ts';

export interface PositionedRecord {
  /** Index in streamTopics. */
  topic: number;
  partition: number;
  offset: number;
  /** When Kafka received it (the record's timestamp), ms. */
  appendedAt: number;
  /** The decoded value; null for a tombstone or a record that cannot be decoded (it is skipped). */
  value: unknown;
}

export interface ReaderOptions {
  kafka: Kafka;
  codec: EventCodec;
  logger: Logger;
  groupPrefix: string;
  /** The topics read, in streamTopics' order; default streamTopics. Values decode as streamTopics' schemas. */
  topics?: readonly string[];
  from: Position;
  /** Stop once every partition reached this (exclusive); absent: read on. */
  until?: Position;
  /** Records in partition order; the reader waits for it before fetching more of that partition. */
  onRecords: (records: PositionedRecord[]) => Promise<void>;
}

/** The partition count and end offset of each stream topic. */
export async function topicHeads(admin: Admin, topics: readonly string[] = streamTopics): Promise<Position> {
  return Promise.all(
    topics.map(async (topic) => {
      const offsets = await admin.fetchTopicOffsets(topic);
      const ends: number[] = [];
      for (const { partition, high } of offsets) ends[partition] = Number(high);
      return Array.from({ length: ends.length }, (_, p) => ends[p] ?? 0);
    }),
  );
}

const retryPauseMs = 1_000;

export class PositionReader {
  private readonly consumer: Consumer;
  private readonly next: Position;
  private readonly topics: readonly string[];
  private readonly stopped = new AbortController();
  private readonly groupId: string;
  private crashRestart: CrashRestart | undefined;
  private markDone!: () => void;
  /** Resolves when `until` is reached (never for a reader without one). */
  readonly done = new Promise<void>((resolve) => (this.markDone = resolve));

  private constructor(private readonly options: ReaderOptions) {
    this.next = copyPosition(options.from);
    this.topics = options.topics ?? streamTopics;
    const groupId = consumerGroup(`${options.groupPrefix}-${randomUUID()}`);
    this.groupId = groupId;
    this.consumer = options.kafka.consumer({
      groupId,
      allowAutoTopicCreation: false,
      sessionTimeout: 30_000,
      heartbeatInterval: 3_000,
      // A live stream wants each record as soon as it is appended, not a fuller fetch later.
      maxWaitTimeInMs: 250,
    });
  }

  static async start(options: ReaderOptions): Promise<PositionReader> {
    const reader = new PositionReader(options);
    await reader.run();
    return reader;
  }

  private async run(): Promise<void> {
    // Nothing is committed, so a rejoin (a broker restart, a rebalance) would start each partition at the
    // topic's end again: every join seeks back to where this reader is.
    this.consumer.on(this.consumer.events.GROUP_JOIN, () => this.seekAll());
    await this.consumer.connect();
    await this.consumer.subscribe({ topics: [...this.topics], fromBeginning: false });
    // Run again after a crash KafkaJS does not restart from: its join seeks back to where this reader is.
    this.crashRestart = await runRestartingAfterCrash(
      this.consumer,
      {
        autoCommit: false,
        eachBatchAutoResolve: false,
        partitionsConsumedConcurrently: 1,
        eachBatch: (payload) => this.handle(payload),
      },
      { logger: this.options.logger, group: this.groupId },
    );
    // Seeks made right after run() are applied before the first fetch of each partition.
    this.seekAll();
    this.checkDone();
  }

  private seekAll(): void {
    this.next.forEach((offsets, t) =>
      offsets.forEach((offset, partition) =>
        this.consumer.seek({ topic: this.topics[t]!, partition, offset: String(offset) }),
      ),
    );
  }

  async stop(): Promise<void> {
    this.crashRestart?.stop();
    this.stopped.abort();
    await this.consumer.disconnect().catch(() => undefined);
  }

  private reachedEnd(t: number, partition: number): boolean {
    const until = this.options.until?.[t]?.[partition];
    return until !== undefined && (this.next[t]![partition] ?? 0) >= until;
  }

  private checkDone(): void {
    if (!this.options.until) return;
    const all = this.next.every((offsets, t) => offsets.every((_, p) => this.reachedEnd(t, p)));
    if (all) this.markDone();
  }

  private async handle(payload: EachBatchPayload): Promise<void> {
    const { batch } = payload;
    const t = this.topics.indexOf(batch.topic);
    if (t < 0) return;
    const schemaTopic = streamTopics[t]!;
    const records: PositionedRecord[] = [];
    for (const message of batch.messages) {
      const offset = Number(message.offset);
      if (offset < (this.next[t]![batch.partition] ?? 0)) continue; // before the position we were given
      if (this.reachedEnd(t, batch.partition)) break;
      records.push({
        topic: t,
        partition: batch.partition,
        offset,
        appendedAt: Number(message.timestamp),
        value: await this.decode(schemaTopic, message.value, offset),
      });
      this.next[t]![batch.partition] = offset + 1;
      payload.resolveOffset(message.offset);
      if (!payload.isRunning() || payload.isStale()) break;
    }
    if (records.length > 0) await this.options.onRecords(records);
    if (this.reachedEnd(t, batch.partition))
      this.consumer.pause([{ topic: batch.topic, partitions: [batch.partition] }]);
    this.checkDone();
  }

  /** A record that cannot be decoded is skipped (logged); a registry that cannot be reached is waited for. */
  private async decode(topic: string, value: Buffer | null, offset: number): Promise<unknown> {
    for (;;) {
      try {
        return await this.options.codec.decode(topic, value);
      } catch (error) {
        if (isPoison(error)) {
          this.options.logger.warn({ topic, offset, reason: error.message }, 'stream skips a record');
          return null;
        }
        if (this.stopped.signal.aborted) return null;
        this.options.logger.warn({ topic, err: error }, 'stream cannot decode yet; retrying');
        await new Promise((resolve) => setTimeout(resolve, retryPauseMs));
      }
    }
  }
}
