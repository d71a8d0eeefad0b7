// The webhook registrations every dispatcher keeps in memory, read from news.webhooks.v1 in table mode
// (a consumer group of its own per instance that never commits, so each start reads the whole compacted
// topic; every instance needs every webhook, since alerts of any tenant can land on any partition).
//
// Fan-out asks it who subscribes to an event; the delivery worker asks it, at the moment of an attempt,
// whether the webhook still exists and is active. `catchUp()` lets fan-out see every registration that
// was appended before the alert it is handling (read-your-writes for "register, then get alerted").
import { randomUUID } from 'node:crypto';
import type { Admin, Kafka } from 'kafkajs';
import type { Webhook } from '../runtime/events/types.generated.ts';
import { ConsumerRunner } from '../runtime/kafka/consumer.ts';
import type { EventProducer } from '../runtime/kafka/producer.ts';
import type { EventCodec } from '../runtime/kafka/registry.ts';
import { topicNames } from '../runtime/kafka/topics.ts';
import type { Logger } from '../runtime/logger.ts';

/** The event type whose deliveries `filter.monitor_ids` narrows. */
export const ALERT_EVENT = 'news.alert';

/** One record of news.webhooks.v1 as the directory applies it. */
export interface WebhookRecord {
  partition: number;
  offset: string;
  key: string | null;
  /** null = tombstone (the webhook was deleted). */
  value: Webhook | null;
}

export interface WebhookDirectoryDeps {
  kafka: Kafka;
  codec: EventCodec;
  /** For the consumer runner's dead letters (a webhook state that cannot be decoded). */
  producer: EventProducer;
  logger: Logger;
  /** Prefix of this instance's consumer group; a random suffix makes it unique per instance. */
  groupPrefix?: string;
}

type TopicEnds = ReadonlyMap<number, bigint>;

export class WebhookDirectory {
  private readonly webhooks = new Map<string, Webhook>();
  private readonly byTenant = new Map<string, Set<string>>();
  /** Last offset applied per partition: a re-read from the beginning must not bring back older states. */
  private readonly applied = new Map<number, bigint>();
  private readonly waiters = new Set<{ ends: TopicEnds; done: () => void }>();
  private runner: ConsumerRunner<Webhook> | undefined;
  private admin: Admin | undefined;
  /** Partitions not yet read up to where they ended at start. */
  private readonly startPending: Map<number, bigint>;
  private markReady!: () => void;
  private readonly caughtUp = new Promise<void>((resolve) => (this.markReady = resolve));
  private progressTimer: NodeJS.Timeout | undefined;
  private stopping: Promise<void> | undefined;

  /** `startEnds`: the topic's end offset per partition at start; ready() resolves once they are read. */
  constructor(
    startEnds: TopicEnds,
    private readonly logger: Logger,
  ) {
    this.startPending = new Map([...startEnds].filter(([, end]) => end > 0n));
    this.checkStarted();
  }

  /** Starts reading news.webhooks.v1 from the beginning; await ready() before using it. */
  static async start(deps: WebhookDirectoryDeps): Promise<WebhookDirectory> {
    const admin = deps.kafka.admin();
    await admin.connect();
    let directory: WebhookDirectory;
    try {
      directory = new WebhookDirectory(await topicEnds(admin), deps.logger);
    } catch (error) {
      await admin.disconnect();
      throw error;
    }
    directory.admin = admin;
    directory.runner = new ConsumerRunner<Webhook>({
      kafka: deps.kafka,
      codec: deps.codec,
      producer: deps.producer,
      logger: deps.logger,
      groupId: `${deps.groupPrefix ?? 'webhook-directory'}-${randomUUID()}`,
      topics: [topicNames.webhooks],
      fromBeginning: true,
      // Table mode: never commit, so this throwaway group keeps nothing and every start reads it all.
      commitOffsets: false,
      handler: async ({ partition, offset, key, value }) =>
        directory.apply({ partition, offset, key, value }),
    });
    const runner = directory.runner;
    // A record the runner dead-letters never reaches apply(); its lag still shows the partition read to
    // the end (of a batch fetched after start), so ready() cannot hang on an undecodable last record.
    directory.progressTimer = setInterval(() => {
      for (const [name, lag] of Object.entries(runner.snapshot().lag)) {
        if (lag === 0) directory.startPending.delete(Number(name.slice(name.lastIndexOf('/') + 1)));
      }
      directory.checkStarted();
    }, 250);
    directory.progressTimer.unref();
    try {
      await runner.start();
    } catch (error) {
      clearInterval(directory.progressTimer);
      await admin.disconnect();
      throw error;
    }
    return directory;
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

  /** Resolves once every webhook that existed at start is known; rejects after `timeoutMs`. */
  async ready(timeoutMs = 60_000): Promise<void> {
    const read = await withTimeout(
      this.caughtUp.then(() => true as const),
      timeoutMs,
    );
    if (!read)
      throw new Error(`the webhook directory did not read ${topicNames.webhooks} within ${timeoutMs} ms`);
  }

  /**
   * Waits until every webhook state appended before this call has been applied. Returns false (and
   * the caller goes on with what it knows) if that takes longer than `timeoutMs`: a dead-lettered last
   * record never reaches apply(), and must not stall fan-out for good.
   */
  async catchUp(timeoutMs = 5_000): Promise<boolean> {
    if (!this.admin) return true;
    const ends = await topicEnds(this.admin);
    const done = await withTimeout(
      this.waitFor(ends).then(() => true as const),
      timeoutMs,
    );
    if (!done)
      this.logger.warn({ timeoutMs }, 'webhook directory is behind news.webhooks.v1; using what it has');
    return done === true;
  }

  get(webhookId: string): Webhook | undefined {
    return this.webhooks.get(webhookId);
  }

  /** Number of webhooks known (active or not). */
  get size(): number {
    return this.webhooks.size;
  }

  /**
   * The active webhooks of `tenantId` subscribed to `eventType`. For news.alert, a webhook whose
   * `filter.monitor_ids` is not empty gets only the alerts of those monitors. (The other filter lists
   * narrow article events, which alerts are not.)
   */
  subscribers(tenantId: string, eventType: string, monitorId?: string): Webhook[] {
    const ids = this.byTenant.get(tenantId);
    if (!ids) return [];
    const found: Webhook[] = [];
    for (const id of ids) {
      const webhook = this.webhooks.get(id);
      if (webhook && subscribes(webhook, eventType, monitorId)) found.push(webhook);
    }
    return found.sort((a, b) => (a.webhook_id < b.webhook_id ? -1 : a.webhook_id > b.webhook_id ? 1 : 0));
  }

  /** The active webhooks of every tenant subscribed to `eventType` (article.published goes to all tenants). */
  subscribersOf(eventType: string): Webhook[] {
    const found = [...this.webhooks.values()].filter((w) => subscribes(w, eventType));
    return found.sort((a, b) => (a.webhook_id < b.webhook_id ? -1 : a.webhook_id > b.webhook_id ? 1 : 0));
  }

  /**
   * A state this process has just appended (a webhook disabled after 410 Gone), used at once rather
   * than when it comes back from the topic, so the jobs queued behind it see it.
   */
  remember(webhook: Webhook): void {
    const held = this.webhooks.get(webhook.webhook_id);
    if (held && held.version > webhook.version) return;
    this.set(webhook.webhook_id, webhook);
  }

  /** Applies one record of the topic (the consumer calls this; tests too). */
  apply(record: WebhookRecord): void {
    const offset = BigInt(record.offset);
    const done = this.applied.get(record.partition);
    if (done === undefined || offset > done) {
      this.applied.set(record.partition, offset);
      this.applyState(record.key, record.value);
    }
    const startEnd = this.startPending.get(record.partition);
    if (startEnd !== undefined && offset + 1n >= startEnd) this.startPending.delete(record.partition);
    this.checkStarted();
    for (const waiter of this.waiters) if (this.reached(waiter.ends)) waiter.done();
  }

  private applyState(key: string | null, value: Webhook | null): void {
    if (key === null) return; // not a webhook state: the topic is keyed by webhook id
    if (value === null) {
      this.delete(key);
      return;
    }
    if (value.webhook_id !== key) {
      this.logger.warn({ key, webhookId: value.webhook_id }, 'webhook state under another key; ignored');
      return;
    }
    // Only a state remembered ahead of the topic can be newer than what the topic brings.
    const held = this.webhooks.get(key);
    if (held && held.version > value.version) return;
    this.set(key, value);
  }

  private set(key: string, webhook: Webhook): void {
    const previous = this.webhooks.get(key);
    if (previous && previous.tenant_id !== webhook.tenant_id) this.unindex(previous);
    this.webhooks.set(key, webhook);
    let ids = this.byTenant.get(webhook.tenant_id);
    if (!ids) this.byTenant.set(webhook.tenant_id, (ids = new Set()));
    ids.add(key);
  }

  private delete(key: string): void {
    const previous = this.webhooks.get(key);
    if (!previous) return;
    this.webhooks.delete(key);
    this.unindex(previous);
  }

  private unindex(webhook: Webhook): void {
    const ids = this.byTenant.get(webhook.tenant_id);
    ids?.delete(webhook.webhook_id);
    if (ids?.size === 0) this.byTenant.delete(webhook.tenant_id);
  }

  private checkStarted(): void {
    if (this.startPending.size > 0) return;
    clearInterval(this.progressTimer);
    this.markReady();
  }

  private reached(ends: TopicEnds): boolean {
    for (const [partition, end] of ends) {
      if (end === 0n) continue;
      const applied = this.applied.get(partition);
      if (applied === undefined || applied + 1n < end) return false;
    }
    return true;
  }

  private waitFor(ends: TopicEnds): Promise<void> {
    if (this.reached(ends)) return Promise.resolve();
    return new Promise((resolve) => {
      const waiter = {
        ends,
        done: () => {
          this.waiters.delete(waiter);
          resolve();
        },
      };
      this.waiters.add(waiter);
    });
  }
}

/** Whether `webhook` wants deliveries of `eventType` (of monitor `monitorId`, for news.alert). */
export function subscribes(webhook: Webhook, eventType: string, monitorId?: string): boolean {
  if (!webhook.active || !webhook.events.includes(eventType)) return false;
  if (eventType !== ALERT_EVENT || monitorId === undefined) return true;
  const monitors = webhook.filter?.monitor_ids ?? [];
  return monitors.length === 0 || monitors.includes(monitorId);
}

async function topicEnds(admin: Admin): Promise<Map<number, bigint>> {
  const offsets = await admin.fetchTopicOffsets(topicNames.webhooks);
  return new Map(offsets.map((p) => [p.partition, BigInt(p.high)]));
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
