// The current state of a compacted topic, kept in memory and up to date: every instance reads the
// whole topic in a consumer group of its own (table mode: nothing committed, so each start reads it
// all again) and applies each record as it arrives.
// - ready() resolves once the topic has been read up to where it ended at start, so a service answers
//   only once it knows every state that existed then;
// - catchUp() waits until every record appended before the call has been applied (read-your-writes
//   for "register, then act on it");
// - remember() takes a state this process has just appended, before the topic brings it back.
import { randomUUID } from 'node:crypto';
import type { Admin, Kafka } from 'kafkajs';
import type { Registry } from 'prom-client';
import type { Logger } from '../logger.ts';
import { ConsumerRunner } from './consumer.ts';
import type { EventProducer } from './producer.ts';
import type { EventCodec } from './registry.ts';

export interface FollowOptions {
  kafka: Kafka;
  codec: EventCodec;
  /** For the runner's dead letters (a state that cannot be decoded). */
  producer: EventProducer;
  /** Prefix of this instance's consumer group; a random suffix makes it unique. */
  groupPrefix: string;
  metrics?: Registry | undefined;
}

export interface TablePolicy<V> {
  /** The key a state must be stored under; a state under another key is ignored (and logged). */
  keyOf?: (value: V) => string;
  /** Whether `incoming` replaces `held` (e.g. only a version at least as new). Default: always. */
  replaces?: (held: V, incoming: V) => boolean;
}

export type TableChange<V> = { key: string; value: V | null; previous: V | undefined };

type Ends = ReadonlyMap<number, bigint>;

export async function topicEnds(admin: Admin, topic: string): Promise<Map<number, bigint>> {
  return new Map((await admin.fetchTopicOffsets(topic)).map((p) => [p.partition, BigInt(p.high)]));
}

/**
 * Builds something that follows a compacted topic (a LiveTable, or a directory around one) from the
 * topic's current end offsets, and starts it following: the admin client it opens stays with it for
 * catchUp() and is closed by its stop().
 */
export async function followTable<T extends { follow(options: FollowOptions, admin: Admin): Promise<void> }>(
  options: FollowOptions & { topic: string },
  build: (ends: Map<number, bigint>) => T,
): Promise<T> {
  const admin = options.kafka.admin();
  await admin.connect();
  let built: T;
  try {
    built = build(await topicEnds(admin, options.topic));
  } catch (error) {
    await admin.disconnect();
    throw error;
  }
  await built.follow(options, admin);
  return built;
}

export class LiveTable<V> {
  private readonly rows = new Map<string, V>();
  /** Last offset applied per partition: a re-read must not bring back older states. */
  private readonly applied = new Map<number, bigint>();
  private readonly startPending: Map<number, bigint>;
  private readonly listeners = new Set<(change: TableChange<V>) => void>();
  private readonly waiters = new Set<{ ends: Ends; done: () => void }>();
  private markReady!: () => void;
  private readonly caughtUp = new Promise<void>((resolve) => (this.markReady = resolve));
  private runner: ConsumerRunner<V> | undefined;
  private admin: Admin | undefined;
  private progressTimer: NodeJS.Timeout | undefined;
  private stopping: Promise<void> | undefined;

  /** `startEnds`: the topic's end offset per partition at start (topicEnds); ready() waits for them. */
  constructor(
    readonly topic: string,
    startEnds: Ends,
    private readonly logger: Logger,
    private readonly policy: TablePolicy<V> = {},
  ) {
    this.startPending = new Map([...startEnds].filter(([, end]) => end > 0n));
    this.checkStarted();
  }

  /** Reads the compacted topic `topic` into a new table and follows it; await ready() before using it. */
  static start<V>(
    options: FollowOptions & { topic: string; logger: Logger; policy?: TablePolicy<V> },
  ): Promise<LiveTable<V>> {
    return followTable(
      options,
      (ends) => new LiveTable<V>(options.topic, ends, options.logger, options.policy),
    );
  }

  /** Starts consuming (listeners registered before this see every record). `admin` serves catchUp(). */
  async follow(options: FollowOptions, admin: Admin): Promise<void> {
    this.admin = admin;
    const runner = new ConsumerRunner<V>({
      kafka: options.kafka,
      codec: options.codec,
      producer: options.producer,
      logger: this.logger,
      groupId: `${options.groupPrefix}-${randomUUID()}`,
      metricsGroup: options.groupPrefix,
      topics: [this.topic],
      fromBeginning: true,
      commitOffsets: false,
      metrics: options.metrics,
      handler: async ({ partition, offset, key, value }) => this.apply(partition, offset, key, value),
    });
    this.runner = runner;
    // A dead-lettered last record never reaches apply(); the runner's lag still shows the partition read.
    this.progressTimer = setInterval(() => {
      for (const [name, lag] of Object.entries(runner.snapshot().lag)) {
        if (lag === 0) this.startPending.delete(Number(name.slice(name.lastIndexOf('/') + 1)));
      }
      this.checkStarted();
    }, 250);
    this.progressTimer.unref();
    try {
      await runner.start();
    } catch (error) {
      clearInterval(this.progressTimer);
      await admin.disconnect();
      throw error;
    }
  }

  /** Stops following the topic (what it knows stays readable). Idempotent. */
  stop(): Promise<void> {
    this.stopping ??= (async () => {
      clearInterval(this.progressTimer);
      await this.runner?.stop();
      await this.admin?.disconnect();
    })();
    return this.stopping;
  }

  /** Resolves once every state that existed at start is known; rejects after `timeoutMs`. */
  async ready(timeoutMs = 60_000): Promise<void> {
    if (
      !(await withTimeout(
        this.caughtUp.then(() => true as const),
        timeoutMs,
      ))
    )
      throw new Error(`${this.topic} was not read to its end within ${timeoutMs} ms`);
  }

  /**
   * Waits until every record appended before this call has been applied. False (the caller goes on
   * with what it knows) after `timeoutMs`: a dead-lettered last record never reaches apply().
   */
  async catchUp(timeoutMs = 5_000): Promise<boolean> {
    if (!this.admin) return true;
    const ends = await topicEnds(this.admin, this.topic);
    const wait = this.waitFor(ends);
    const done =
      (await withTimeout(
        wait.reached.then(() => true as const),
        timeoutMs,
      )) === true;
    wait.cancel(); // a waiter that timed out must not stay behind
    if (!done) this.logger.warn({ topic: this.topic, timeoutMs }, 'behind the topic; using what is known');
    return done;
  }

  get(key: string): V | undefined {
    return this.rows.get(key);
  }

  values(): IterableIterator<V> {
    return this.rows.values();
  }

  get size(): number {
    return this.rows.size;
  }

  /** Calls `listener` after every change; returns the function that unsubscribes it. */
  onChange(listener: (change: TableChange<V>) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** A state this process has just appended, used at once rather than when the topic brings it back. */
  remember(key: string, value: V): void {
    this.store(key, value);
  }

  /** Applies one record (the consumer calls this; tests too). */
  apply(partition: number, offsetText: string, key: string | null, value: V | null): void {
    const offset = BigInt(offsetText);
    const done = this.applied.get(partition);
    if (done === undefined || offset > done) {
      this.applied.set(partition, offset);
      if (key !== null) this.store(key, value);
    }
    const end = this.startPending.get(partition);
    if (end !== undefined && offset + 1n >= end) this.startPending.delete(partition);
    this.checkStarted();
    for (const waiter of this.waiters) if (this.reached(waiter.ends)) waiter.done();
  }

  private store(key: string, value: V | null): void {
    const previous = this.rows.get(key);
    if (value === null) {
      if (previous === undefined) return;
      this.rows.delete(key);
    } else {
      const expected = this.policy.keyOf?.(value);
      if (expected !== undefined && expected !== key) {
        this.logger.warn({ topic: this.topic, key, stateKey: expected }, 'state under another key; ignored');
        return;
      }
      if (previous !== undefined && this.policy.replaces && !this.policy.replaces(previous, value)) return;
      this.rows.set(key, value);
    }
    for (const listener of this.listeners) {
      try {
        listener({ key, value, previous });
      } catch (error) {
        this.logger.error({ err: error, topic: this.topic, key }, 'table change listener failed');
      }
    }
  }

  private checkStarted(): void {
    if (this.startPending.size > 0) return;
    clearInterval(this.progressTimer);
    this.markReady();
  }

  private reached(ends: Ends): boolean {
    for (const [partition, end] of ends) {
      if (end === 0n) continue;
      const applied = this.applied.get(partition);
      if (applied === undefined || applied + 1n < end) return false;
    }
    return true;
  }

  private waitFor(ends: Ends): { reached: Promise<void>; cancel: () => void } {
    if (this.reached(ends)) return { reached: Promise.resolve(), cancel: () => undefined };
    let waiter!: { ends: Ends; done: () => void };
    const reached = new Promise<void>((resolve) => {
      waiter = {
        ends,
        done: () => {
          this.waiters.delete(waiter);
          resolve();
        },
      };
      this.waiters.add(waiter);
    });
    return { reached, cancel: () => this.waiters.delete(waiter) };
  }
}

/** The promise's value, or undefined if it did not settle within `ms`. */
async function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), ms)));
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
