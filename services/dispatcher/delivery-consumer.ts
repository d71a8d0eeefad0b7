// The consumer of delivery jobs: news.webhook-deliveries.v1 and its retry topics, one consumer group.
// It is not the runtime's ConsumerRunner, whose handler holds its partition until a message is done:
// here a job may not be due for hours and an endpoint may take its full timeout, and neither may hold
// up another partition. So each fetched batch is decoded, handed to the lane of its partition
// (partition-lane.ts: due-time waits, bounded concurrency, commits after the contiguous finished jobs)
// and the fetch callback returns at once. Offsets are committed by the lanes, never automatically.
//
// The runtime's rules still hold: an undecodable record goes to `<topic>.dlq` unchanged with the
// `dlq.*` headers (dead-letter.ts) and never blocks its partition; a registry that cannot be reached is
// waited for. After a rebalance KafkaJS reads every partition from its committed offset again, so every
// lane is dropped and rebuilt from what is fetched; jobs that were running finish but are not
// committed, and run again (at-least-once: receivers dedupe on webhook-id).
import type { Consumer, EachBatchPayload, Kafka, KafkaMessage } from 'kafkajs';
import type { WebhookDelivery } from '../runtime/events/types.generated.ts';
import { runRestartingAfterCrash, type CrashRestart } from '../runtime/kafka/crash-restart.ts';
import { deadLetterMessage } from '../runtime/kafka/dead-letter.ts';
import { describeError, isPoison } from '../runtime/kafka/errors.ts';
import type { EventProducer } from '../runtime/kafka/producer.ts';
import type { EventCodec } from '../runtime/kafka/registry.ts';
import { consumerGroup } from '../runtime/kafka/topics.ts';
import type { Logger } from '../runtime/logger.ts';
import { retrying, type RetryOptions, type RetryPolicy } from '../runtime/retry.ts';
import type { KeyedSlots, SlotLease } from './keyed-slots.ts';
import { PartitionLane, type LaneJob } from './partition-lane.ts';
import { statusPeek, type StatusPeek } from './status-peek.ts';

/** What the consumer knows about a job when it hands it over. */
export interface JobContext {
  topic: string;
  partition: number;
  offset: string;
  /** Aborted when the partition is revoked or the process stops: give up rather than commit late. */
  signal: AbortSignal;
  /**
   * Once the attempt's request is over: `releaseKey()` frees its DISPATCHER_CONCURRENCY slot and lets
   * the webhook's next job start while the records are appended; `releaseSlot()` frees the slot only
   * (the next job waits for the records: after a 410). Both are released when the job settles anyway.
   */
  lease: SlotLease;
}

/** Makes the attempt and appends its records; resolves once they are durable. */
export type ProcessJob = (job: WebhookDelivery, context: JobContext) => Promise<void>;

export interface DeliveryConsumerOptions {
  kafka: Kafka;
  codec: EventCodec;
  /** Writes dead letters. */
  producer: Pick<EventProducer, 'sendRaw'>;
  logger: Logger;
  groupId: string;
  topics: string[];
  fromBeginning: boolean;
  sessionTimeoutMs?: number;
  slots: KeyedSlots;
  process: ProcessJob;
  /** Jobs a partition's lane holds before its fetching pauses. */
  highWater?: number;
  /** How long stop() lets running deliveries finish (and commit) before it gives up on them. */
  drainTimeoutMs?: number;
  clock?: () => number;
}

/**
 * Decoding waits for the registry, and a dead letter is written, however many attempts it takes: both
 * end only when the batch stops being ours.
 */
const untilItWorks: RetryPolicy = { maxAttempts: Infinity, initialBackoffMs: 200, maxBackoffMs: 10_000 };

/**
 * The fetch long-poll, which also bounds how soon a lane that resumed its partition gets jobs again.
 * KafkaJS adds a resumed partition to its next fetch only: after the one in flight, which waits this
 * long when the partitions it asks for have nothing new (the retry topics, mostly), and, when every
 * partition is paused, after sleeping this long. A lane resumes with highWater/2 jobs left, which the
 * slots get through in well under 1 s: at 1 s, lanes ran dry and waited while their jobs were in Kafka
 * (bench:webhooks, 20,000 alerts: jobs fetched up to 5 s after they were appended, the slots idle for
 * seconds; five runs each, interleaved, load 2.3–4.4 on 2 cores: 2,979–3,449 deliveries/s at 1 s,
 * median 3,230, the dispatcher using 0.65–0.79 of a core; 2,911–4,879/s at 100 ms, median 4,325, using
 * 0.91–1.03 in four of five, CPU-bound). The price: an idle consumer sends about ten empty fetches a
 * second instead of one.
 */
export const fetchWaitMs = 100;

/** How a batch's waits heartbeat and end. */
type Waiting = Pick<RetryOptions, 'signal' | 'whileWaiting'>;

export class DeliveryConsumer {
  private readonly consumer: Consumer;
  private readonly lanes = new Map<string, PartitionLane>();
  private readonly peeks = new Map<string, StatusPeek | null>();
  private generation = 0;
  /** Aborted when the generation ends (a rebalance, or stop()): a batch's waits end with it. */
  private generationEnded = new AbortController();
  private stopping = false;
  /** Runs the consumer again after a crash KafkaJS does not restart from (crash-restart.ts). */
  private crashRestart: CrashRestart | undefined;
  private readonly clock: () => number;

  constructor(private readonly options: DeliveryConsumerOptions) {
    const unknown = options.topics.filter((t) => !options.codec.knows(t));
    if (unknown.length > 0)
      throw new Error(`no schema for topic(s) ${unknown.join(', ')} in the topic catalog`);
    this.clock = options.clock ?? Date.now;
    const sessionTimeout = options.sessionTimeoutMs ?? 30_000;
    this.consumer = options.kafka.consumer({
      groupId: consumerGroup(options.groupId),
      allowAutoTopicCreation: false,
      sessionTimeout,
      heartbeatInterval: Math.max(500, Math.floor(sessionTimeout / 10)),
      rebalanceTimeout: 60_000,
      // A resumed partition is fetched in the next round; a short long-poll keeps that round close.
      maxWaitTimeInMs: fetchWaitMs,
    });
    this.consumer.on(this.consumer.events.GROUP_JOIN, ({ payload }) => {
      // Every partition is read again from its committed offset: forget what the lanes held.
      this.generation += 1;
      this.generationEnded.abort();
      this.generationEnded = new AbortController();
      for (const lane of this.lanes.values()) lane.drop();
      this.lanes.clear();
      const assigned = Object.entries(payload.memberAssignment).map(([topic, partitions]) => ({
        topic,
        partitions: [...partitions].sort((a, b) => a - b),
      }));
      // Pauses outlive a rebalance in KafkaJS; the new lanes start fetching.
      if (assigned.length > 0) this.consumer.resume(assigned);
      options.logger.info({ group: options.groupId, assigned }, 'partitions assigned');
    });
  }

  async start(): Promise<void> {
    await this.consumer.connect();
    await this.consumer.subscribe({ topics: this.options.topics, fromBeginning: this.options.fromBeginning });
    // After a crash KafkaJS does not restart from, the lanes of the crashed run are dropped when the new
    // run joins (GROUP_JOIN above).
    this.crashRestart = await runRestartingAfterCrash(
      this.consumer,
      {
        autoCommit: false,
        eachBatchAutoResolve: false,
        partitionsConsumedConcurrently: 4,
        eachBatch: (payload) => this.take(payload),
      },
      { logger: this.options.logger, group: this.options.groupId },
    );
  }

  /**
   * Lets running deliveries finish and commit (up to drainTimeoutMs), then leaves the group. Jobs not
   * yet started stay uncommitted and are delivered after the restart.
   */
  async stop(): Promise<void> {
    this.crashRestart?.stop();
    this.stopping = true;
    this.generationEnded.abort();
    const lanes = [...this.lanes.values()];
    for (const lane of lanes) lane.stopStarting();
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<void>(
      (resolve) => (timer = setTimeout(resolve, this.options.drainTimeoutMs ?? 15_000)),
    );
    await Promise.race([Promise.all(lanes.map((lane) => lane.idle())), timeout]);
    clearTimeout(timer);
    await Promise.all(lanes.map((lane) => lane.flush().catch(() => undefined)));
    for (const lane of lanes) lane.drop();
    await this.consumer.disconnect();
  }

  private async take(payload: EachBatchPayload): Promise<void> {
    const { batch } = payload;
    const generation = this.generation;
    const current = () => !this.stopping && generation === this.generation && payload.isRunning();
    // Waits for the registry end when the generation does, or (checked as they heartbeat) the batch
    // otherwise stops being ours.
    const abandoned = new AbortController();
    const ended = this.generationEnded.signal;
    const abandon = () => abandoned.abort();
    ended.addEventListener('abort', abandon, { once: true });
    const waiting: Waiting = {
      signal: abandoned.signal,
      whileWaiting: async () => {
        await payload.heartbeat().catch(() => undefined);
        if (!current()) abandon();
      },
    };
    try {
      const jobs: LaneJob[] = [];
      let last: string | undefined;
      for (const message of batch.messages) {
        if (!current()) break;
        const job = await this.decode(batch.topic, batch.partition, message, waiting);
        if (job === undefined) break; // stopping or rebalanced while waiting for the registry
        jobs.push(job);
        last = message.offset;
      }
      if (!current() || last === undefined) return;
      this.laneFor(batch.topic, batch.partition, generation).push(jobs);
      // The fetch position moves past the batch; what is committed is up to the lane.
      payload.resolveOffset(last);
    } finally {
      ended.removeEventListener('abort', abandon);
    }
  }

  /** The lane entry for one record; undefined if decoding had to be abandoned (stopping, rebalance). */
  private async decode(
    topic: string,
    partition: number,
    message: KafkaMessage,
    waiting: Waiting,
  ): Promise<LaneJob | undefined> {
    const offset = BigInt(message.offset);
    const key = message.key?.toString('utf8') ?? '';
    // An outcome this dispatcher (or one with its schema) appended: nothing to do, and not decoded.
    const status = this.peekStatus(topic, message.value);
    if (status !== undefined && status !== 'pending') return { offset, key, dueAt: null };
    // The common case without the retrying machinery around it (its closures, per record, cost about
    // what the decoding does); a failure is decoded again below, where it is classified and waited on.
    try {
      const job = (await this.options.codec.decode(topic, message.value)) as WebhookDelivery | null;
      return this.laneJob(topic, partition, message, offset, key, job);
    } catch {
      // below
    }
    const decoded = await retrying(
      async (): Promise<LaneJob> => {
        const job = (await this.options.codec.decode(topic, message.value)) as WebhookDelivery | null;
        return this.laneJob(topic, partition, message, offset, key, job);
      },
      {
        policy: untilItWorks,
        // Anything but poison means the registry is unreachable: the record is fine, wait for it.
        classify: (error) => (isPoison(error) ? 'give-up' : 'retry'),
        ...waiting,
        onFailure: ({ error, attempt, verdict }) => {
          if (verdict === 'retry')
            this.options.logger.warn(
              { topic, partition, offset: message.offset, attempt, err: describeError(error) },
              'cannot decode a delivery job yet; waiting',
            );
        },
      },
    );
    if (decoded.kind === 'done') return decoded.value;
    if (decoded.kind !== 'give-up') return;
    if (!(await this.deadLetter(topic, partition, message, describeError(decoded.error), waiting))) return;
    return { offset, key, dueAt: null };
  }

  /**
   * The status of a record written with the schema this codec writes `topic` with, read without
   * decoding it (status-peek.ts); undefined for any other record, which is decoded.
   */
  private peekStatus(topic: string, value: Buffer | null): string | undefined {
    const codec = this.options.codec;
    if (value === null || value.length < 5 || value[0] !== 0) return undefined;
    const writerId = codec.writerIdOf(topic);
    if (writerId === undefined || value.readInt32BE(1) !== writerId) return undefined;
    let peek = this.peeks.get(topic);
    if (peek === undefined) {
      peek = statusPeek(codec.localType(topic));
      this.peeks.set(topic, peek);
    }
    return peek?.(value, 5);
  }

  private laneJob(
    topic: string,
    partition: number,
    message: KafkaMessage,
    offset: bigint,
    key: string,
    job: WebhookDelivery | null,
  ): LaneJob {
    // Outcome records share the topic with jobs; only `pending` asks for an attempt.
    if (job === null || job.status !== 'pending') return { offset, key, dueAt: null };
    return new PendingJob(offset, job, this.options.process, topic, partition, message.offset);
  }

  private async deadLetter(
    topic: string,
    partition: number,
    message: KafkaMessage,
    reason: string,
    waiting: Waiting,
  ): Promise<boolean> {
    const dead = deadLetterMessage({
      topic,
      partition,
      message,
      group: this.options.groupId,
      attempts: 1,
      reason,
      now: new Date(this.clock()),
    });
    const written = await retrying(() => this.options.producer.sendRaw(dead.topic, [dead.message]), {
      policy: untilItWorks,
      ...waiting,
      onFailure: ({ error, attempt }) =>
        this.options.logger.error(
          { topic: dead.topic, attempt, err: describeError(error) },
          'dead-letter write failed',
        ),
    });
    if (written.kind !== 'done') return false;
    this.options.logger.warn({ topic, partition, offset: message.offset, reason }, 'message dead-lettered');
    return true;
  }

  private laneFor(topic: string, partition: number, generation: number): PartitionLane {
    const name = `${topic}/${partition}`;
    let lane = this.lanes.get(name);
    if (!lane) {
      const topicPartition = [{ topic, partitions: [partition] }];
      lane = new PartitionLane({
        slots: this.options.slots,
        logger: this.options.logger.child({ topic, partition }),
        highWater: this.options.highWater,
        clock: this.clock,
        commit: async (next) => {
          // A lane of an earlier generation commits nothing: the partition may be someone else's now.
          if (generation !== this.generation) return;
          await this.consumer.commitOffsets([{ topic, partition, offset: String(next) }]);
        },
        setFetching: (fetching) => {
          if (generation !== this.generation) return;
          if (fetching) this.consumer.resume(topicPartition);
          else this.consumer.pause(topicPartition);
        },
      });
      this.lanes.set(name, lane);
    }
    return lane;
  }
}

/** A due-able job in its lane: a class, not an object with a closure (tsx names each as it is made). */
class PendingJob implements LaneJob {
  readonly key: string;
  readonly dueAt: number;

  constructor(
    readonly offset: bigint,
    private readonly job: WebhookDelivery,
    private readonly process: ProcessJob,
    private readonly topic: string,
    private readonly partition: number,
    private readonly offsetText: string,
  ) {
    this.key = job.webhook_id;
    this.dueAt = job.due_at;
  }

  run(signal: AbortSignal, lease: SlotLease): Promise<void> {
    const { topic, partition, offsetText: offset } = this;
    return this.process(this.job, { topic, partition, offset, signal, lease });
  }
}
