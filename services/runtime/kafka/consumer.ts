// Runs a handler over one or more topics as a consumer-group member, with the
// delivery semantics of docs/architecture.md ("Delivery semantics"):
// - an offset is resolved only after the handler succeeded (or the message was
//   dead-lettered), and only resolved offsets are committed: at-least-once;
// - a poison message goes to `<topic>.dlq` with the reason and never blocks
//   its partition; other failures are retried with backoff, then dead-lettered,
//   and an unavailable dependency is waited for (handler-failures.ts decides);
// - with `handOver` (deferred commits), a batch's offsets are resolved once it is handed over, so the
//   next fetch does not wait for its write, and committed once it was written (deferred-commits.ts);
// - stop() finishes the message in hand, commits, and leaves the group.
import type { Consumer, EachBatchPayload, IHeaders, Kafka, KafkaMessage, PartitionAssigner } from 'kafkajs';
import { Counter, Gauge, type Registry } from 'prom-client';
import type { Logger } from '../logger.ts';
import { retrying, type RetryPolicy } from '../retry.ts';
import { runRestartingAfterCrash, type CrashRestart } from './crash-restart.ts';
import { deadLetterMessage } from './dead-letter.ts';
import { DeferredCommits } from './deferred-commits.ts';
import { DependencyWaitLog } from './dependency-wait-log.ts';
import { describeError, isPoison } from './errors.ts';
import { handlerHeartbeat } from './handler-heartbeat.ts';
import { retryBatch, retryMessage } from './handler-failures.ts';
import type { EventProducer } from './producer.ts';
import type { EventCodec } from './registry.ts';
import { consumerGroup } from './topics.ts';

export interface ConsumedEvent<V> {
  topic: string;
  partition: number;
  offset: string;
  key: string | null;
  /** Decoded value; null for a tombstone. */
  value: V | null;
  headers: IHeaders;
  timestamp: string;
}

export type EventHandler<V> = (event: ConsumedEvent<V>) => Promise<void>;
/**
 * Handles every decodable message of one fetched batch (one partition) at once. A handler that may
 * take longer than the session timeout (30 s) calls `heartbeat` as it goes, or the group evicts it.
 */
export type BatchHandler<V> = (
  events: ConsumedEvent<V>[],
  context: { heartbeat: () => Promise<void> },
) => Promise<void>;
/**
 * Takes one fetched batch (one partition) and resolves once it was taken, with `written`, which settles
 * once its effect is durable (rejects when it failed). `bytes`: the batch's message values, in bytes;
 * `replay`: the batch (or message) is read again after a failed write, and should be written alone, so
 * that a failure is its own and not another batch's.
 */
export type HandOver<V> = (
  events: ConsumedEvent<V>[],
  context: { bytes: number; replay: boolean },
) => Promise<{ written: Promise<void> }>;

/**
 * `maxAttempts`: attempts before a failing (non-poison) message is dead-lettered; pauses between them
 * grow from `initialBackoffMs` to `maxBackoffMs` with full jitter (runtime/retry.ts).
 */
export type { RetryPolicy };

export const defaultRetryPolicy: RetryPolicy = {
  maxAttempts: 8,
  initialBackoffMs: 200,
  maxBackoffMs: 10_000,
};

export interface ConsumerRunnerOptions<V> {
  kafka: Kafka;
  codec: EventCodec;
  /** Used to write dead letters. */
  producer: EventProducer;
  logger: Logger;
  /** The group's name; the namespace (TOPIC_PREFIX) is added when the group is joined. */
  groupId: string;
  /**
   * The group as the metrics name it, when its name is new at each start (a LiveTable's: a prefix and a
   * random suffix): otherwise every restart would begin new series. The group's name by default.
   */
  metricsGroup?: string;
  topics: string[];
  /**
   * One of the two: `handler` is called per message; `batchHandler` per fetched
   * batch (for effects that are cheaper in bulk, such as ClickHouse inserts).
   * A batch that keeps failing is retried one message at a time, so one bad
   * message is dead-lettered without taking its neighbours with it.
   */
  handler?: EventHandler<V>;
  batchHandler?: BatchHandler<V>;
  /**
   * Or, deferred commits: each batch is handed over, the runner fetches on without waiting for its
   * write, and commits its offsets once it was written and every batch of its partition handed over
   * before it was too. A failed write is not committed: the runner reads its partition again from the
   * first offset it has not committed, and handles that range like `batchHandler` batches (each batch
   * written before the next fetch, retried, split, dead-lettered). At-least-once, so the writes must be
   * idempotent (the projector's rows carry their offset as version). `idle` resolves once every batch
   * handed over was written or failed: stop() waits for it, then commits.
   */
  handOver?: HandOver<V>;
  idle?: () => Promise<void>;
  fromBeginning?: boolean;
  retry?: Partial<RetryPolicy>;
  /** Partitions processed at once (order is kept within a partition). */
  partitionsConcurrently?: number;
  metrics?: Registry;
  clock?: () => Date;
  /**
   * false = table mode, for a member that keeps the current state of a compacted
   * topic in memory (the poller's sources): offsets are never committed, so every
   * (re)assignment reads its partitions from the beginning again.
   */
  commitOffsets?: boolean;
  /**
   * How much one fetch may bring (KafkaJS defaults: 1 MiB per partition, 10 MiB in all). In batch mode a
   * fetched batch is one call of the batch handler, so these bound the size of, e.g., one insert.
   */
  fetch?: { maxBytesPerPartition?: number; maxBytes?: number };
  /** How the group splits partitions (KafkaJS default: round robin). */
  partitionAssigners?: PartitionAssigner[];
  /** Called with the new assignment after every rebalance. */
  onAssignment?: (assigned: { topic: string; partitions: number[] }[]) => void;
}

export interface ConsumerStats {
  processed: number;
  deadLettered: number;
  retried: number;
  /** Messages behind the high watermark, per `topic/partition`, as of the last batch. */
  lag: Record<string, number>;
  assigned: { topic: string; partitions: number[] }[];
}

export class ConsumerRunner<V = unknown> {
  private readonly consumer: Consumer;
  private readonly retry: RetryPolicy;
  private readonly stats: ConsumerStats = {
    processed: 0,
    deadLettered: 0,
    retried: 0,
    lag: {},
    assigned: [],
  };
  private readonly counters;
  /** Aborted by stop(): ends any pause at once. */
  private readonly stopped = new AbortController();
  /** Runs the consumer again after a crash KafkaJS does not restart from (crash-restart.ts). */
  private crashRestart: CrashRestart | undefined;
  private readonly commits: boolean;
  private readonly process: BatchHandler<V>;
  /** With `handOver`: what is handed over and not committed yet. */
  private readonly deferred: DeferredCommits | undefined;
  /** Offsets to commit (the next to read), by topic and partition, and the commit under way. */
  private readonly toCommit = new Map<string, { topic: string; partition: number; offset: bigint }>();
  private committing: Promise<void> | undefined;
  /** The highest offset committed, by topic and partition: a lower one (a replay's) is not sent. */
  private readonly committedUpTo = new Map<string, bigint>();
  /** Deferred commits: offsets dead-lettered at decoding and not committed yet, by topic and partition. */
  private readonly deadLettered = new Map<string, Set<bigint>>();

  /** The group as joined (with the namespace), which the logs name. */
  private readonly group: string;
  /** The group as the metrics label it (without the namespace, as it always was). */
  private readonly groupLabel: string;

  constructor(private readonly options: ConsumerRunnerOptions<V>) {
    this.group = consumerGroup(options.groupId);
    this.groupLabel = options.metricsGroup ?? options.groupId;
    // A topic without a schema is a wiring mistake, not bad data: refuse it
    // here rather than dead-letter every message it carries.
    const unknown = options.topics.filter((t) => !options.codec.knows(t));
    if (unknown.length > 0)
      throw new Error(`no schema for topic(s) ${unknown.join(', ')} in the topic catalog`);
    if ([options.handler, options.batchHandler, options.handOver].filter(Boolean).length !== 1)
      throw new Error('give the consumer runner one of handler, batchHandler or handOver');
    const handOver = options.handOver;
    this.process =
      options.batchHandler ??
      (handOver
        ? async (events) => (await handOver(events, { bytes: 0, replay: true })).written
        : (events) => options.handler!(events[0]!));
    this.retry = { ...defaultRetryPolicy, ...options.retry };
    this.commits = options.commitOffsets ?? true;
    if (handOver && !this.commits) throw new Error('deferred commits need commitOffsets');
    this.deferred = handOver
      ? new DeferredCommits((topic, partition, offset) => this.commitLater(topic, partition, offset))
      : undefined;
    this.consumer = options.kafka.consumer({
      groupId: consumerGroup(options.groupId),
      allowAutoTopicCreation: false,
      sessionTimeout: 30_000,
      heartbeatInterval: 3_000,
      rebalanceTimeout: 60_000,
      ...(options.partitionAssigners ? { partitionAssigners: options.partitionAssigners } : {}),
      ...options.fetch,
    });
    this.counters = metricsFor(options.metrics);
    this.consumer.on(this.consumer.events.GROUP_JOIN, ({ payload }) => {
      this.stats.assigned = Object.entries(payload.memberAssignment).map(([topic, partitions]) => ({
        topic,
        partitions: [...partitions].sort((a, b) => a - b),
      }));
      options.logger.info({ group: this.group, assigned: this.stats.assigned }, 'partitions assigned');
      // The batches in hand are read again from the committed offsets; their writes commit nothing.
      this.deferred?.reset();
      options.onAssignment?.(this.stats.assigned);
    });
  }

  async start(): Promise<void> {
    await this.consumer.connect();
    await this.consumer.subscribe({
      topics: this.options.topics,
      fromBeginning: this.options.fromBeginning ?? true,
    });
    this.crashRestart = await runRestartingAfterCrash(
      this.consumer,
      {
        // Deferred commits are the runner's own: KafkaJS would commit what is resolved, written or not.
        autoCommit: this.commits && !this.deferred,
        autoCommitInterval: this.commits && !this.deferred ? 1_000 : null,
        eachBatchAutoResolve: false,
        partitionsConsumedConcurrently: this.options.partitionsConcurrently ?? 1,
        eachBatch: (payload) => this.handleBatch(payload),
      },
      { logger: this.options.logger, group: this.group },
    );
  }

  /** Finishes the message in hand, commits resolved offsets, and leaves the group. */
  async stop(): Promise<void> {
    this.crashRestart?.stop();
    this.stopped.abort();
    if (this.deferred) {
      // Nothing more is handed over; what was is written (or failed) and committed while still a member.
      await this.options.idle?.();
      await this.flushCommits();
    }
    await this.consumer.disconnect();
  }

  snapshot(): ConsumerStats {
    return structuredClone(this.stats);
  }

  private async handleBatch(payload: EachBatchPayload): Promise<void> {
    if (this.options.batchHandler || this.deferred) return this.handleWholeBatch(payload);
    const { batch } = payload;
    const heartbeat = () => payload.heartbeat();
    for (const message of batch.messages) {
      if (this.stopped.signal.aborted || !payload.isRunning() || payload.isStale()) break;
      const handled = await this.handleMessage(batch.topic, batch.partition, message, heartbeat);
      if (!handled) break; // stopping mid-retry: leave the offset unresolved so it is redelivered
      await this.resolve(payload, message.offset);
    }
  }

  /** Marks everything up to `offset` done, updates the lag, and commits when due. */
  private async resolve(payload: EachBatchPayload, offset: string): Promise<void> {
    const { batch } = payload;
    payload.resolveOffset(offset);
    const lag = Math.max(0, Number(BigInt(batch.highWatermark) - BigInt(offset) - 1n));
    this.stats.lag[`${batch.topic}/${batch.partition}`] = lag;
    this.counters?.lag.set({ group: this.groupLabel, topic: batch.topic, partition: batch.partition }, lag);
    // KafkaJS commits here whatever autoCommit says, so table mode must not call it; deferred commits
    // are the runner's (handleWholeBatch records the batch once it is done).
    if (this.commits && !this.deferred) await payload.commitOffsetsIfNecessary();
    await payload.heartbeat();
  }

  private async handleWholeBatch(payload: EachBatchPayload): Promise<void> {
    const { batch } = payload;
    const first = batch.messages[0];
    if (
      this.deferred &&
      first &&
      !this.deferred.replaying(batch.topic, batch.partition, BigInt(first.offset))
    )
      return this.handOverBatch(payload);
    const heartbeat = () => payload.heartbeat();
    const labels = { group: this.groupLabel, topic: batch.topic };
    const events: ConsumedEvent<V>[] = [];
    const decoded: KafkaMessage[] = [];
    for (const message of batch.messages) {
      try {
        events.push(await this.decode(batch.topic, batch.partition, message));
        decoded.push(message);
      } catch (error) {
        // Anything but poison (the registry unreachable) fails the batch; KafkaJS fetches it again.
        if (!isPoison(error)) throw error;
        if (!(await this.deadLetterUndecodable(batch.topic, batch.partition, message, error, heartbeat)))
          return;
      }
    }
    if (events.length > 0) {
      const waits = new DependencyWaitLog(this.options.logger, { ...labels, partition: batch.partition });
      const outcome = await retryBatch(
        () => this.process(events, { heartbeat: this.handlerHeartbeat(heartbeat) }),
        {
          ...this.handlerRetry(heartbeat),
          onFailure: ({ error, attempt, next }) => {
            const err = describeError(error);
            if (next.kind === 'wait') waits.waiting(err);
            if (next.kind !== 'retry') return;
            this.stats.retried++;
            this.counters?.retried.inc(labels);
            this.options.logger.warn({ ...labels, attempt, err }, 'batch handler failed; retrying');
          },
        },
      );
      waits.ended();
      if (outcome.kind === 'stopped') return;
      if (outcome.kind === 'processed') {
        this.stats.processed += events.length;
        this.counters?.processed.inc(labels, events.length);
      } else {
        // Find the bad message(s): one at a time, each with the usual retries and dead letter.
        this.options.logger.warn(
          { ...labels, partition: batch.partition, size: events.length, err: describeError(outcome.error) },
          'batch keeps failing; handling its messages one at a time',
        );
        for (const message of decoded) {
          if (!(await this.handleMessage(batch.topic, batch.partition, message, heartbeat))) return;
          await this.resolve(payload, message.offset);
        }
      }
    }
    const last = batch.messages.at(-1);
    if (last) {
      await this.resolve(payload, last.offset);
      // A batch of a failed range, written before the next fetch: committed in its partition's order.
      if (this.deferred && first)
        this.deferred.written(
          this.deferred.handedOver(batch.topic, batch.partition, BigInt(first.offset), BigInt(last.offset)),
        );
    }
  }

  /** Deferred commits: decode, hand over, resolve (the next fetch goes on), commit once written. */
  private async handOverBatch(payload: EachBatchPayload): Promise<void> {
    const { batch } = payload;
    const deferred = this.deferred!;
    const heartbeat = () => payload.heartbeat();
    const labels = { group: this.groupLabel, topic: batch.topic };
    const events: ConsumedEvent<V>[] = [];
    let bytes = 0;
    for (const message of batch.messages) {
      // Decoding resolves without I/O: let the event loop in now and then, or the inserts in flight
      // would not be sent (their sockets drained) nor their answers read until the whole fetch was decoded.
      if (events.length % decodeSlice === decodeSlice - 1) await new Promise((r) => setImmediate(r));
      try {
        events.push(await this.decode(batch.topic, batch.partition, message));
        bytes += message.value?.length ?? 0;
      } catch (error) {
        if (!isPoison(error)) throw error;
        if (!(await this.deadLetterUndecodable(batch.topic, batch.partition, message, error, heartbeat)))
          return;
      }
    }
    // Stopping, or the partition was sought back (a failed write): this batch is read again.
    if (this.stopped.signal.aborted || !payload.isRunning() || payload.isStale()) return;
    const first = BigInt(batch.messages[0]!.offset);
    const last = batch.messages.at(-1)!.offset;
    // What the callbacks below need, and no more: the events and the fetched batch (its buffers) must
    // not outlive their encoding by being held until the insert ends.
    const { topic, partition } = batch;
    const count = events.length;
    // Recorded before it is taken (which may wait for room): a failure meanwhile forgets it too.
    const handed = deferred.handedOver(topic, partition, first, BigInt(last));
    const written =
      count > 0
        ? (await this.options.handOver!(events, { bytes, replay: false })).written
        : Promise.resolve();
    written.then(
      () => {
        this.stats.processed += count;
        this.counters?.processed.inc(labels, count);
        deferred.written(handed);
      },
      (error: unknown) => {
        const from = deferred.failed(handed);
        if (from === undefined) return; // forgotten since: read again anyway
        this.stats.retried++;
        this.counters?.retried.inc(labels);
        this.options.logger.warn(
          { ...labels, partition, from: String(from), err: describeError(error) },
          'handed-over batch failed to write; reading its partition again from its first uncommitted offset',
        );
        if (this.stopped.signal.aborted) return;
        try {
          this.consumer.seek({ topic, partition, offset: String(from) });
        } catch (seekError) {
          // Not running any more: a restart reads from the committed offsets anyway.
          this.options.logger.warn(
            { ...labels, err: describeError(seekError) },
            'seek after a failed write failed',
          );
        }
      },
    );
    await this.resolve(payload, last);
  }

  /**
   * Dead-letters a message that cannot be decoded; false when it gave up because the runner is
   * stopping. With deferred commits a range is read again after a failed write: a message it already
   * dead-lettered is not dead-lettered twice (until its offset is committed, when it is not read again).
   */
  private async deadLetterUndecodable(
    topic: string,
    partition: number,
    message: KafkaMessage,
    error: unknown,
    heartbeat: () => Promise<void>,
  ): Promise<boolean> {
    const k = `${topic}/${partition}`;
    if (this.deferred && this.deadLettered.get(k)?.has(BigInt(message.offset))) return true;
    if (!(await this.deadLetter(topic, partition, message, 1, describeError(error), heartbeat))) return false;
    if (this.deferred) {
      const offsets = this.deadLettered.get(k) ?? new Set<bigint>();
      offsets.add(BigInt(message.offset));
      this.deadLettered.set(k, offsets);
    }
    this.stats.deadLettered++;
    this.counters?.deadLettered.inc({ group: this.groupLabel, topic });
    return true;
  }

  /** Queues a commit of `offset` (the next to read), sent with the others as soon as none is under way. */
  private commitLater(topic: string, partition: number, offset: bigint): void {
    const k = `${topic}/${partition}`;
    if (offset <= (this.committedUpTo.get(k) ?? -1n)) return;
    const dead = this.deadLettered.get(k);
    if (dead) for (const o of dead) if (o < offset) dead.delete(o);
    const queued = this.toCommit.get(k);
    if (!queued || queued.offset < offset) this.toCommit.set(k, { topic, partition, offset });
    this.committing ??= this.sendCommits();
  }

  private async sendCommits(): Promise<void> {
    while (this.toCommit.size > 0) {
      const sending = [...this.toCommit.values()];
      this.toCommit.clear();
      try {
        await this.consumer.commitOffsets(
          sending.map(({ topic, partition, offset }) => ({ topic, partition, offset: String(offset) })),
        );
        for (const { topic, partition, offset } of sending) {
          const k = `${topic}/${partition}`;
          if (offset > (this.committedUpTo.get(k) ?? -1n)) this.committedUpTo.set(k, offset);
        }
      } catch (error) {
        // Not committing is safe (read again, written again alike); a later commit covers it.
        this.options.logger.warn(
          { group: this.group, err: describeError(error) },
          'commit of written offsets failed',
        );
      }
    }
    this.committing = undefined;
  }

  private async flushCommits(): Promise<void> {
    while (this.committing) await this.committing;
  }

  private async decode(topic: string, partition: number, message: KafkaMessage): Promise<ConsumedEvent<V>> {
    return {
      topic,
      partition,
      offset: message.offset,
      key: message.key?.toString('utf8') ?? null,
      value: (await this.options.codec.decode(topic, message.value)) as V | null,
      headers: message.headers ?? {},
      timestamp: message.timestamp,
    };
  }

  /** Returns false when it gave up because the runner is stopping. */
  private async handleMessage(
    topic: string,
    partition: number,
    message: KafkaMessage,
    heartbeat: () => Promise<void>,
  ): Promise<boolean> {
    const labels = { group: this.groupLabel, topic };
    const context = { group: this.group, topic, partition, offset: message.offset };
    const waits = new DependencyWaitLog(this.options.logger, context);
    const outcome = await retryMessage(
      async () =>
        this.process([await this.decode(topic, partition, message)], {
          heartbeat: this.handlerHeartbeat(heartbeat),
        }),
      {
        ...this.handlerRetry(heartbeat),
        onFailure: ({ error, attempt, next }) => {
          const err = describeError(error);
          // Not the message's fault: wait for the dependency, however long it takes.
          if (next.kind === 'wait') waits.waiting(err);
          if (next.kind !== 'retry') return;
          this.stats.retried++;
          this.counters?.retried.inc(labels);
          this.options.logger.warn({ ...context, attempt, err }, 'handler failed; retrying');
        },
      },
    );
    waits.ended();
    switch (outcome.kind) {
      case 'stopped':
        return false;
      case 'processed':
        this.stats.processed++;
        this.counters?.processed.inc(labels);
        return true;
      case 'dead-letter': {
        const { reason, attempts } = outcome;
        if (!(await this.deadLetter(topic, partition, message, attempts, reason, heartbeat))) return false;
        this.options.logger.warn({ ...context, attempt: attempts, reason }, 'message dead-lettered');
        this.stats.deadLettered++;
        this.counters?.deadLettered.inc(labels);
        return true;
      }
    }
  }

  /** The heartbeat handlers call: its failure is the group's business, not the message's (./handler-heartbeat.ts). */
  private handlerHeartbeat(heartbeat: () => Promise<void>): () => Promise<void> {
    return handlerHeartbeat(heartbeat, (error) =>
      this.options.logger.debug(
        { group: this.group, err: describeError(error) },
        'heartbeat failed in a handler; the batch goes on and its commit tells',
      ),
    );
  }

  /** How the handler's failures are retried: this runner's policy, stop and heartbeat. */
  private handlerRetry(heartbeat: () => Promise<void>) {
    return {
      policy: this.retry,
      signal: this.stopped.signal,
      // A failed heartbeat is not the handler's failure; the next one tries again.
      whileWaiting: () => heartbeat().catch(() => undefined),
    };
  }

  private async deadLetter(
    topic: string,
    partition: number,
    message: KafkaMessage,
    attempts: number,
    reason: string,
    heartbeat: () => Promise<void>,
  ): Promise<boolean> {
    const clock = this.options.clock ?? (() => new Date());
    const dead = deadLetterMessage({
      topic,
      partition,
      message,
      group: this.options.groupId,
      attempts,
      reason,
      now: clock(),
    });
    // Losing a dead letter would lose the message: keep trying until it is written or we stop.
    const written = await retrying(() => this.options.producer.sendRaw(dead.topic, [dead.message]), {
      ...this.handlerRetry(heartbeat),
      policy: { ...this.retry, maxAttempts: Infinity },
      onFailure: ({ error, attempt }) =>
        this.options.logger.error(
          { topic: dead.topic, attempt, err: describeError(error) },
          'dead-letter write failed',
        ),
    });
    return written.kind === 'done';
  }
}

/** Messages decoded between two turns of the event loop when batches are handed over. */
const decodeSlice = 1_000;

const metricSets = new WeakMap<Registry, ReturnType<typeof createMetrics>>();

function createMetrics(registry: Registry) {
  return {
    processed: new Counter({
      name: 'news_consumer_messages_processed_total',
      help: 'Messages whose handler succeeded.',
      labelNames: ['group', 'topic'],
      registers: [registry],
    }),
    deadLettered: new Counter({
      name: 'news_consumer_messages_dead_lettered_total',
      help: 'Messages sent to a dead-letter topic.',
      labelNames: ['group', 'topic'],
      registers: [registry],
    }),
    retried: new Counter({
      name: 'news_consumer_handler_retries_total',
      help: 'Handler attempts that failed and were retried.',
      labelNames: ['group', 'topic'],
      registers: [registry],
    }),
    lag: new Gauge({
      name: 'news_consumer_lag_messages',
      help: 'Messages between the last processed offset and the high watermark.',
      labelNames: ['group', 'topic', 'partition'],
      registers: [registry],
    }),
  };
}

function metricsFor(registry: Registry | undefined) {
  if (!registry) return undefined;
  let metrics = metricSets.get(registry);
  if (!metrics) {
    metrics = createMetrics(registry);
    metricSets.set(registry, metrics);
  }
  return metrics;
}
