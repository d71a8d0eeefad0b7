// The current state of a compacted topic, kept in memory and up to date: every instance reads the
// whole topic in a consumer group of its own (table mode: nothing committed, so each start reads it
// all again) and applies each record as it arrives. ready() resolves once the topic has been read up
// to where it ended at start, so a service answers only once it knows every state that existed then.
import { randomUUID } from 'node:crypto';
import type { Kafka } from 'kafkajs';
import type { Logger } from '../logger.ts';
import { ConsumerRunner } from './consumer.ts';
import type { EventProducer } from './producer.ts';
import type { EventCodec } from './registry.ts';

export interface LiveTableOptions {
  kafka: Kafka;
  codec: EventCodec;
  /** For the runner's dead letters (a state that cannot be decoded). */
  producer: EventProducer;
  logger: Logger;
  topic: string;
  /** Prefix of this instance's consumer group; a random suffix makes it unique. */
  groupPrefix: string;
}

export type TableChange<V> = { key: string; value: V | null };

export class LiveTable<V> {
  private readonly rows = new Map<string, V>();
  /** Last offset applied per partition: a re-read must not bring back older states. */
  private readonly applied = new Map<number, bigint>();
  private readonly pending: Map<number, bigint>;
  private readonly listeners = new Set<(change: TableChange<V>) => void>();
  private markReady!: () => void;
  private readonly caughtUp = new Promise<void>((resolve) => (this.markReady = resolve));
  private runner: ConsumerRunner<V> | undefined;
  private progressTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly topic: string,
    ends: ReadonlyMap<number, bigint>,
    private readonly logger: Logger,
  ) {
    this.pending = new Map([...ends].filter(([, end]) => end > 0n));
    this.checkCaughtUp();
  }

  static async start<V>(options: LiveTableOptions): Promise<LiveTable<V>> {
    const admin = options.kafka.admin();
    await admin.connect();
    let ends: Map<number, bigint>;
    try {
      ends = new Map(
        (await admin.fetchTopicOffsets(options.topic)).map((p) => [p.partition, BigInt(p.high)]),
      );
    } finally {
      await admin.disconnect();
    }
    const table = new LiveTable<V>(options.topic, ends, options.logger);
    const runner = new ConsumerRunner<V>({
      kafka: options.kafka,
      codec: options.codec,
      producer: options.producer,
      logger: options.logger,
      groupId: `${options.groupPrefix}-${randomUUID()}`,
      topics: [options.topic],
      fromBeginning: true,
      commitOffsets: false,
      handler: async ({ partition, offset, key, value }) => table.apply(partition, offset, key, value),
    });
    table.runner = runner;
    // A dead-lettered last record never reaches apply(); the runner's lag still shows the partition read.
    table.progressTimer = setInterval(() => {
      for (const [name, lag] of Object.entries(runner.snapshot().lag)) {
        if (lag === 0) table.pending.delete(Number(name.slice(name.lastIndexOf('/') + 1)));
      }
      table.checkCaughtUp();
    }, 250);
    table.progressTimer.unref();
    try {
      await runner.start();
    } catch (error) {
      clearInterval(table.progressTimer);
      throw error;
    }
    return table;
  }

  async ready(timeoutMs = 30_000): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`${this.topic} was not read to its end within ${timeoutMs} ms`)),
        timeoutMs,
      );
    });
    try {
      await Promise.race([this.caughtUp, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  async stop(): Promise<void> {
    clearInterval(this.progressTimer);
    await this.runner?.stop();
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

  /** Applies one record (the consumer calls this; tests too). */
  apply(partition: number, offsetText: string, key: string | null, value: V | null): void {
    const offset = BigInt(offsetText);
    const done = this.applied.get(partition);
    if (key !== null && (done === undefined || offset > done)) {
      this.applied.set(partition, offset);
      if (value === null) this.rows.delete(key);
      else this.rows.set(key, value);
      for (const listener of this.listeners) {
        try {
          listener({ key, value });
        } catch (error) {
          this.logger.error({ err: error, topic: this.topic, key }, 'table change listener failed');
        }
      }
    }
    const end = this.pending.get(partition);
    if (end !== undefined && offset + 1n >= end) this.pending.delete(partition);
    this.checkCaughtUp();
  }

  private checkCaughtUp(): void {
    if (this.pending.size > 0) return;
    clearInterval(this.progressTimer);
    this.markReady();
  }
}
