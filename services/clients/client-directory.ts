// The API clients every API instance keeps in memory, so that checking a
// credential costs a hash and a map look-up instead of a network round trip.
// Each instance reads news.clients.v1 in table mode in a consumer group of its
// own (every instance needs every client, so nothing is split between them) and
// applies each state as it arrives: a revocation appended by the admin command
// reaches every instance as fast as Kafka delivers it (well under a second on
// an idle broker, since the consumer's fetch returns as soon as a record lands).
import type { Admin, Kafka } from 'kafkajs';
import type { Registry } from 'prom-client';
import type { Client } from '../runtime/events/types.generated.ts';
import { followTable, LiveTable, type FollowOptions } from '../runtime/kafka/live-table.ts';
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
  /** Every client state, revoked ones included; only active clients authenticate. */
  private readonly table: LiveTable<Client>;
  /** api_key_hash -> client_id, for active clients. */
  private readonly byKeyHash = new Map<string, string>();
  private readonly listeners = new Set<ClientChangeListener>();
  private active = 0;

  /**
   * `ends`: the topic's end offset per partition when the instance started;
   * ready() resolves once every partition has been read up to there.
   */
  constructor(
    ends: ReadonlyMap<number, bigint>,
    private readonly logger: Logger,
  ) {
    this.table = new LiveTable<Client>(topicNames.clients, ends, logger, { keyOf: (c) => c.client_id });
    this.table.onChange(({ key, value, previous }) => this.changed(key, value, previous));
  }

  /** Starts reading news.clients.v1 from the beginning; await ready() before answering requests. */
  static start(deps: ClientDirectoryDeps): Promise<ClientDirectory> {
    return followTable(
      {
        kafka: deps.kafka,
        codec: deps.codec,
        producer: deps.producer,
        topic: topicNames.clients,
        groupPrefix: deps.groupPrefix ?? 'client-directory',
        metrics: deps.metrics,
      },
      (ends) => new ClientDirectory(ends, deps.logger),
    );
  }

  /** Starts consuming (followTable calls this); `admin` serves catchUp() and closes with stop(). */
  follow(options: FollowOptions, admin: Admin): Promise<void> {
    return this.table.follow(options, admin);
  }

  async stop(): Promise<void> {
    await this.table.stop();
  }

  /**
   * Resolves once the topic has been read up to where it ended at start, i.e.
   * every client that existed then is known. Rejects after `timeoutMs`.
   */
  async ready(timeoutMs = 30_000): Promise<void> {
    try {
      await this.table.ready(timeoutMs);
    } catch {
      throw new Error(`the client directory did not read ${topicNames.clients} within ${timeoutMs} ms`);
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
    const client = clientId === undefined ? undefined : this.findClient(clientId);
    return client && verifyCredential(key, client.api_key_hash) ? client : undefined;
  }

  /**
   * The active client for OAuth client credentials (the token endpoint), if the
   * secret is its current one. Client ids are not secrets, so answering an
   * unknown id faster than a wrong secret gives nothing away.
   */
  findByClientCredentials(clientId: string, clientSecret: string): Client | undefined {
    const client = this.findClient(clientId);
    return client && verifyCredential(clientSecret, client.client_secret_hash) ? client : undefined;
  }

  /** The active client with this id (e.g. to check that a token's client is still active). */
  findClient(clientId: string): Client | undefined {
    const client = this.table.get(clientId);
    return client && !client.revoked ? client : undefined;
  }

  /** Number of active clients. */
  get size(): number {
    return this.active;
  }

  /** Calls `listener` after every change; returns the function that unsubscribes it. */
  onChange(listener: ClientChangeListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Applies one record of the topic (the consumer calls this; tests too). */
  apply(record: ClientRecord): void {
    this.table.apply(record.partition, record.offset, record.key, record.value);
  }

  private changed(key: string, value: Client | null, previous: Client | undefined): void {
    const was = previous && !previous.revoked ? previous : null;
    const now = value && !value.revoked ? value : null;
    if (was?.api_key_hash && this.byKeyHash.get(was.api_key_hash) === key)
      this.byKeyHash.delete(was.api_key_hash);
    if (now?.api_key_hash) this.byKeyHash.set(now.api_key_hash, key);
    this.active += (now ? 1 : 0) - (was ? 1 : 0);
    if (!was && !now) return;
    for (const listener of this.listeners) {
      try {
        listener({ clientId: key, client: now });
      } catch (error) {
        this.logger.error({ err: error, clientId: key }, 'client change listener failed');
      }
    }
  }
}
