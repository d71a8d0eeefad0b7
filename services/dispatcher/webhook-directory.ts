// The webhook registrations every dispatcher keeps in memory: news.webhooks.v1 read into a LiveTable
// (table mode: a consumer group of its own per instance that never commits, so each start reads the
// whole compacted topic; every instance needs every webhook, since alerts of any tenant can land on any
// partition), with an index by tenant.
//
// Fan-out asks it who subscribes to an event; the delivery worker asks it, at the moment of an attempt,
// whether the webhook still exists and is active. `catchUp()` lets fan-out see every registration that
// was appended before the alert it is handling (read-your-writes for "register, then get alerted").
import type { Admin, Kafka } from 'kafkajs';
import type { Webhook } from '../runtime/events/types.generated.ts';
import { followTable, LiveTable, type FollowOptions } from '../runtime/kafka/live-table.ts';
import type { EventProducer } from '../runtime/kafka/producer.ts';
import type { EventCodec } from '../runtime/kafka/registry.ts';
import { topicNames } from '../runtime/kafka/topics.ts';
import type { Registry } from 'prom-client';
import type { Logger } from '../runtime/logger.ts';
import { NEWS_ALERT } from '../webhooks/event-types.ts';

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
  /** Where its consumer's lag and batches are counted (the ops server's registry). */
  metrics?: Registry;
}

const byId = (a: Webhook, b: Webhook) =>
  a.webhook_id < b.webhook_id ? -1 : a.webhook_id > b.webhook_id ? 1 : 0;

export class WebhookDirectory {
  private readonly table: LiveTable<Webhook>;
  private readonly byTenant = new Map<string, Set<string>>();

  /** `startEnds`: the topic's end offset per partition at start; ready() resolves once they are read. */
  constructor(startEnds: ReadonlyMap<number, bigint>, logger: Logger) {
    this.table = new LiveTable<Webhook>(topicNames.webhooks, startEnds, logger, {
      keyOf: (w) => w.webhook_id,
      // Only a state remembered ahead of the topic (a 410 disabling it) can be newer than what it brings.
      replaces: (held, incoming) => incoming.version >= held.version,
    });
    this.table.onChange(({ key, value, previous }) => {
      if (previous) this.byTenant.get(previous.tenant_id)?.delete(key);
      if (previous && this.byTenant.get(previous.tenant_id)?.size === 0)
        this.byTenant.delete(previous.tenant_id);
      if (value) {
        let ids = this.byTenant.get(value.tenant_id);
        if (!ids) this.byTenant.set(value.tenant_id, (ids = new Set()));
        ids.add(key);
      }
    });
  }

  /** Starts reading news.webhooks.v1 from the beginning; await ready() before using it. */
  static start(deps: WebhookDirectoryDeps): Promise<WebhookDirectory> {
    return followTable(
      {
        kafka: deps.kafka,
        codec: deps.codec,
        producer: deps.producer,
        topic: topicNames.webhooks,
        groupPrefix: deps.groupPrefix ?? 'webhook-directory',
        metrics: deps.metrics,
      },
      (ends) => new WebhookDirectory(ends, deps.logger),
    );
  }

  /** Starts consuming (followTable calls this); `admin` serves catchUp() and closes with stop(). */
  follow(options: FollowOptions, admin: Admin): Promise<void> {
    return this.table.follow(options, admin);
  }

  /** Stops following the topic (what it knows stays readable). Idempotent. */
  stop(): Promise<void> {
    return this.table.stop();
  }

  /** Resolves once every webhook that existed at start is known; rejects after `timeoutMs`. */
  async ready(timeoutMs = 60_000): Promise<void> {
    try {
      await this.table.ready(timeoutMs);
    } catch {
      throw new Error(`the webhook directory did not read ${topicNames.webhooks} within ${timeoutMs} ms`);
    }
  }

  /** Waits until every webhook state appended before this call has been applied (false after `timeoutMs`). */
  catchUp(timeoutMs = 5_000): Promise<boolean> {
    return this.table.catchUp(timeoutMs);
  }

  get(webhookId: string): Webhook | undefined {
    return this.table.get(webhookId);
  }

  /** Number of webhooks known (active or not). */
  get size(): number {
    return this.table.size;
  }

  /**
   * The active webhooks of `tenantId` subscribed to `eventType`. For news.alert, a webhook whose
   * `filter.monitor_ids` is not empty gets only the alerts of those monitors. (The other filter lists
   * narrow article events, which alerts are not.)
   */
  subscribers(tenantId: string, eventType: string, monitorId?: string): Webhook[] {
    const found: Webhook[] = [];
    for (const id of this.byTenant.get(tenantId) ?? []) {
      const webhook = this.table.get(id);
      if (webhook && subscribes(webhook, eventType, monitorId)) found.push(webhook);
    }
    return found.sort(byId);
  }

  /** The active webhooks of every tenant subscribed to `eventType` (article.published goes to all tenants). */
  subscribersOf(eventType: string): Webhook[] {
    return [...this.table.values()].filter((w) => subscribes(w, eventType)).sort(byId);
  }

  /**
   * A state this process has just appended (a webhook disabled after 410 Gone), used at once rather
   * than when it comes back from the topic, so the jobs queued behind it see it.
   */
  remember(webhook: Webhook): void {
    this.table.remember(webhook.webhook_id, webhook);
  }

  /** Applies one record of the topic (the consumer calls this; tests too). */
  apply(record: WebhookRecord): void {
    this.table.apply(record.partition, record.offset, record.key, record.value);
  }
}

/**
 * Whether `webhook` wants deliveries of `eventType` (of monitor `monitorId`, for news.alert: the only
 * event whose deliveries `filter.monitor_ids` narrows).
 */
export function subscribes(webhook: Webhook, eventType: string, monitorId?: string): boolean {
  if (!webhook.active || !webhook.events.includes(eventType)) return false;
  if (eventType !== NEWS_ALERT || monitorId === undefined) return true;
  const monitors = webhook.filter?.monitor_ids ?? [];
  return monitors.length === 0 || monitors.includes(monitorId);
}
