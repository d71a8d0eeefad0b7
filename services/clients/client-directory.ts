// The API clients every API instance keeps in memory, so that checking a
// credential costs a hash and a map look-up instead of a network round trip.
// Each instance reads news.clients.v1 in table mode in a consumer group of its
// own (every instance needs every client, so nothing is split between them) and
// applies each state as it arrives: a revocation appended by the admin command
// reaches every instance as fast as Kafka delivers it (well under a second on
// an idle broker, since the consumer's fetch returns as soon as a record lands).
import { randomUUID } from 'node:crypto';
import type { Kafka } from 'kafkajs';
import type { Registry } from 'prom-client';
import type { Client } from '../runtime/events/types.generated.ts';
import { ConsumerRunner } from '../runtime/kafka/consumer.ts';
import type { EventProducer } from '../runtime/kafka/producer.ts';
import type { EventCodec } from '../runtime/kafka/registry.ts';
import { topicNames } from '../runtime/kafka/topics.ts';
import type { Logger } from '../runtime/logger.ts';
import { hashCredential, verifyCredential } from './credentials.ts';

/** One record of news.clients.v1 as the directory applies it. */
export interface ClientRecord {
  partition: number;
  offset: string;
  key: string | null;
  /** null = tombstone. */
  value: Client | null;
}

/** A client whose credentials changed: `client` is null when it no longer authenticates (revoked or removed). */
export interface ClientChange {
  clientId: string;
  client: Client | null;
}

export type ClientChangeListener = (change: ClientChange) => void;

export interface ClientDirectoryDeps {
  kafka: Kafka;
  codec: EventCodec;
  /** For the consumer runner's dead letters (a client state that cannot be decoded). */
  producer: EventProducer;
  logger: Logger;
  /** Prefix of this instance's consumer group; a random suffix makes it unique per instance. */
  groupPrefix?: string;
  metrics?: Registry;
}

export class ClientDirectory {
  /** Active clients only: a revoked or removed client is simply unknown here. */
  private readonly clients = new Map<string, Client>();
  /** api_key_hash -> client_id. */
  private readonly byKeyHash = new Map<string, string>();
  /** Last offset applied per partition: a re-read from the beginning must not bring back older states. */
  private readonly applied = new Map<number, bigint>();
  private readonly pending: Map<number, bigint>;
  private readonly listeners = new Set<ClientChangeListener>();
  private markReady!: () => void;
  private readonly caughtUp = new Promise<void>((resolve) => (this.markReady = resolve));
  private runner: ConsumerRunner<Client> | undefined;
  private progressTimer: NodeJS.Timeout | undefined;

  /**
   * `ends`: the topic's end offset per partition when the instance started;
   * ready() resolves once every partition has been read up to there.
   */
  constructor(
    ends: ReadonlyMap<number, bigint>,
    private readonly logger: Logger,
  ) {
    this.pending = new Map([...ends].filter(([, end]) => end > 0n));
    this.checkCaughtUp();
  }

  /** Starts reading news.clients.v1 from the beginning; await ready() before answering requests. */
  static async start(deps: ClientDirectoryDeps): Promise<ClientDirectory> {
    const admin = deps.kafka.admin();
    await admin.connect();
    let ends: Map<number, bigint>;
    try {
      ends = new Map(
        (await admin.fetchTopicOffsets(topicNames.clients)).map((p) => [p.partition, BigInt(p.high)]),
      );
    } finally {
      await admin.disconnect();
    }
    const directory = new ClientDirectory(ends, deps.logger);
    const runner = new ConsumerRunner<Client>({
      kafka: deps.kafka,
      codec: deps.codec,
      producer: deps.producer,
      logger: deps.logger,
      groupId: `${deps.groupPrefix ?? 'client-directory'}-${randomUUID()}`,
      topics: [topicNames.clients],
      fromBeginning: true,
      // Table mode: never commit, so this throwaway group keeps nothing and every start reads it all.
      commitOffsets: false,
      metrics: deps.metrics,
      handler: async ({ partition, offset, key, value }) =>
        directory.apply({ partition, offset, key, value }),
    });
    directory.runner = runner;
    // A record the runner dead-letters never reaches apply(); the runner's lag still shows the
    // partition caught up, so ready() cannot hang on an undecodable last record.
    directory.progressTimer = setInterval(() => {
      for (const [name, lag] of Object.entries(runner.snapshot().lag)) {
        const partition = Number(name.slice(name.lastIndexOf('/') + 1));
        if (lag === 0) directory.pending.delete(partition);
      }
      directory.checkCaughtUp();
    }, 250);
    directory.progressTimer.unref();
    try {
      await runner.start();
    } catch (error) {
      clearInterval(directory.progressTimer);
      throw error;
    }
    return directory;
  }

  async stop(): Promise<void> {
    clearInterval(this.progressTimer);
    await this.runner?.stop();
  }

  /**
   * Resolves once the topic has been read up to where it ended at start, i.e.
   * every client that existed then is known. Rejects after `timeoutMs`.
   */
  async ready(timeoutMs = 30_000): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () =>
          reject(new Error(`the client directory did not read ${topicNames.clients} within ${timeoutMs} ms`)),
        timeoutMs,
      );
    });
    try {
      await Promise.race([this.caughtUp, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * The active client holding this API key, if any. The key is hashed and the
   * hash looked up; the map's string comparison only ever sees hashes, which
   * leak nothing about a key, and the final check is the constant-time one.
   */
  findByApiKey(key: string): Client | undefined {
    // Keys we issue look like nik_…, but a key chosen outside (the demo's DEMO_API_KEY) may not:
    // the hash look-up decides; only absurd lengths are turned away before hashing.
    if (key.length === 0 || key.length > 512) return undefined;
    const clientId = this.byKeyHash.get(hashCredential(key));
    const client = clientId === undefined ? undefined : this.clients.get(clientId);
    return client && verifyCredential(key, client.api_key_hash) ? client : undefined;
  }

  /**
   * The active client for OAuth client credentials (the token endpoint), if the
   * secret is its current one. Client ids are not secrets, so answering an
   * unknown id faster than a wrong secret gives nothing away.
   */
  findByClientCredentials(clientId: string, clientSecret: string): Client | undefined {
    const client = this.clients.get(clientId);
    return client && verifyCredential(clientSecret, client.client_secret_hash) ? client : undefined;
  }

  /** The active client with this id (e.g. to check that a token's client is still active). */
  findClient(clientId: string): Client | undefined {
    return this.clients.get(clientId);
  }

  /** Number of active clients. */
  get size(): number {
    return this.clients.size;
  }

  /** Calls `listener` after every change; returns the function that unsubscribes it. */
  onChange(listener: ClientChangeListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Applies one record of the topic (the consumer calls this; tests too). */
  apply(record: ClientRecord): void {
    const offset = BigInt(record.offset);
    const done = this.applied.get(record.partition);
    if (done === undefined || offset > done) {
      this.applied.set(record.partition, offset);
      this.applyState(record.key, record.value);
    }
    const end = this.pending.get(record.partition);
    if (end !== undefined && offset + 1n >= end) this.pending.delete(record.partition);
    this.checkCaughtUp();
  }

  private applyState(key: string | null, value: Client | null): void {
    if (key === null) return; // not a client state: the topic is keyed by client id
    if (value !== null && value.client_id !== key) {
      this.logger.warn({ key, clientId: value.client_id }, 'client state under another key; ignored');
      return;
    }
    const previous = this.clients.get(key);
    if (previous?.api_key_hash && this.byKeyHash.get(previous.api_key_hash) === key)
      this.byKeyHash.delete(previous.api_key_hash);
    const active = value !== null && !value.revoked ? value : null;
    if (active) {
      this.clients.set(key, active);
      if (active.api_key_hash) this.byKeyHash.set(active.api_key_hash, key);
    } else this.clients.delete(key);
    if (!previous && !active) return;
    for (const listener of this.listeners) {
      try {
        listener({ clientId: key, client: active });
      } catch (error) {
        this.logger.error({ err: error, clientId: key }, 'client change listener failed');
      }
    }
  }

  private checkCaughtUp(): void {
    if (this.pending.size > 0) return;
    clearInterval(this.progressTimer);
    this.markReady();
  }
}
