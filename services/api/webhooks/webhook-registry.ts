// Webhook registrations as the API sees them: commands append states to news.webhooks.v1 (compacted),
// queries read the `webhooks` read model. The signing secret is sealed before it leaves this module
// (secret-box.ts) and shown to the caller once, when it is created.
import { randomBytes } from 'node:crypto';
import type { ClickHouse } from '../../runtime/clickhouse/client.ts';
import { raw, sql } from '../../runtime/clickhouse/literal.ts';
import type { Webhook, WebhookDelivery, WebhookFilter } from '../../runtime/events/types.generated.ts';
import type { EventProducer } from '../../runtime/kafka/producer.ts';
import { topicNames } from '../../runtime/kafka/topics.ts';
import type { OutboundUrlPolicy } from '../../runtime/outbound-url.ts';
import type { SecretBox } from '../../webhooks/secret-box.ts';
import { generateWebhookSecret, SECRET_PREFIX, webhookSecretKey } from '../../webhooks/signing.ts';
import { ApiError, invalidParameter } from '../http/api-error.ts';
import { isoTime, untilVisible } from '../http/read-model.ts';

export const webhookEvents = ['news.alert', 'documentary.ready', 'article.published'] as const;
export type WebhookEvent = (typeof webhookEvents)[number];

export interface WebhookItem {
  id: string;
  url: string;
  events: string[];
  filter: WebhookFilter | null;
  active: boolean;
  disabled_reason: string | null;
  created_at: string | null;
  updated_at: string;
}

interface WebhookRow {
  webhook_id: string;
  w_tenant: string;
  w_url: string;
  w_events: string[];
  w_secret_ref: string;
  w_categories: string[];
  w_sources: string[];
  w_languages: string[];
  w_words: string[];
  w_monitors: string[];
  w_active: number;
  w_reason: string | null;
  w_created: number | string | null;
  w_updated: number | string;
  w_version: number | string;
}

/** A registration with what the API needs to change it. */
export interface StoredWebhook {
  item: WebhookItem;
  secretRef: string;
  version: number;
}

export interface NewWebhook {
  url: string;
  events: WebhookEvent[];
  secret?: string | undefined;
  filter?: Partial<WebhookFilter> | undefined;
}

export interface WebhookRegistryDependencies {
  clickhouse: ClickHouse;
  producer: Pick<EventProducer, 'send'>;
  policy: OutboundUrlPolicy;
  secrets: SecretBox;
  /** How long a command waits for the read model to show its effect. */
  visibleWithinMs: number;
  clock?: () => number;
}

const emptyFilter = (): WebhookFilter => ({
  categories: [],
  source_ids: [],
  languages: [],
  words: [],
  monitor_ids: [],
});

const isEmptyFilter = (f: WebhookFilter) => Object.values(f).every((list: string[]) => list.length === 0);

export const newId = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;

/**
 * A customer's secret as a Standard Webhooks secret: `whsec_<base64>` is used as given (and must be
 * valid); any other text of 24 to 128 characters becomes the key bytes themselves, reported back in
 * the whsec_ form that the standard verifiers take.
 */
export function normaliseSecret(secret: string): string {
  if (secret.startsWith(SECRET_PREFIX)) {
    try {
      webhookSecretKey(secret);
    } catch (error) {
      throw invalidParameter('secret', (error as Error).message);
    }
    return secret;
  }
  if (secret.length < 24 || secret.length > 128)
    throw invalidParameter('secret', `must be whsec_<base64> or 24 to 128 characters (got ${secret.length})`);
  return `${SECRET_PREFIX}${Buffer.from(secret, 'utf8').toString('base64')}`;
}

export class WebhookRegistry {
  private readonly clock: () => number;

  constructor(private readonly deps: WebhookRegistryDependencies) {
    this.clock = deps.clock ?? Date.now;
  }

  /** Refuses a URL the dispatcher would refuse: not http(s), private or unresolvable (unless allow-listed). */
  async checkUrl(field: string, url: string): Promise<string> {
    const check = await this.deps.policy.check(url);
    if (!check.ok) throw invalidParameter(field, check.reason);
    return check.url.toString();
  }

  async list(tenantId: string, page: { limit: number; offset: number }) {
    const rows = await this.query(tenantId, null, page);
    return {
      items: rows.slice(0, page.limit).map((r) => toStored(r).item),
      hasMore: rows.length > page.limit,
    };
  }

  async get(tenantId: string, webhookId: string): Promise<StoredWebhook | null> {
    const [row] = await this.query(tenantId, webhookId, { limit: 1, offset: 0 });
    return row ? toStored(row) : null;
  }

  /** Webhooks of the tenant that receive news.alert: the alert endpoints the plan limits. */
  async alertEndpoints(tenantId: string): Promise<StoredWebhook[]> {
    const rows = await this.query(tenantId, null, { limit: 10_000, offset: 0 });
    return rows.map(toStored).filter((w) => w.item.active && w.item.events.includes('news.alert'));
  }

  async findByUrl(tenantId: string, url: string): Promise<StoredWebhook | null> {
    const rows = await this.query(tenantId, null, { limit: 10_000, offset: 0 });
    return rows.map(toStored).find((w) => w.item.url === url && w.item.active) ?? null;
  }

  async register(
    tenantId: string,
    input: NewWebhook,
    limits: { alertEndpoints: number | null },
  ): Promise<{ webhook: WebhookItem; secret: string }> {
    const url = await this.checkUrl('url', input.url);
    if (input.events.includes('news.alert')) await this.checkAlertEndpointLimit(tenantId, limits);
    const secret = input.secret === undefined ? generateWebhookSecret() : normaliseSecret(input.secret);
    const now = this.clock();
    const filter = { ...emptyFilter(), ...input.filter };
    const state: Webhook = {
      webhook_id: newId('wh'),
      tenant_id: tenantId,
      url,
      events: [...new Set(input.events)],
      filter: isEmptyFilter(filter) ? null : filter,
      secret_ref: this.deps.secrets.seal(secret),
      active: true,
      disabled_reason: null,
      created_at: now,
      version: 1,
      occurred_at: now,
    };
    await this.appendState(state);
    const visible = await this.waitFor(tenantId, state.webhook_id, (w) => w !== null);
    return { webhook: visible!.item, secret };
  }

  /** Appends a changed state of a registration (version + 1), and waits until the read model shows it. */
  async change(
    tenantId: string,
    current: StoredWebhook,
    changes: { events?: string[]; filter?: WebhookFilter | null },
  ): Promise<WebhookItem> {
    const now = this.clock();
    const item = current.item;
    const version = current.version + 1;
    const state: Webhook = {
      webhook_id: item.id,
      tenant_id: tenantId,
      url: item.url,
      events: changes.events ?? item.events,
      filter: changes.filter === undefined ? item.filter : changes.filter,
      secret_ref: current.secretRef,
      active: item.active,
      disabled_reason: item.disabled_reason,
      created_at: item.created_at ? Date.parse(item.created_at) : now,
      version,
      occurred_at: now,
    };
    await this.appendState(state);
    const visible = await this.waitFor(tenantId, item.id, (w) => (w?.version ?? 0) >= version);
    return visible?.item ?? item;
  }

  /** False when the tenant has no such webhook. */
  async remove(tenantId: string, webhookId: string): Promise<boolean> {
    if (!(await this.get(tenantId, webhookId))) return false;
    await this.deps.producer.send(topicNames.webhooks, [{ key: webhookId, value: null }]);
    await this.waitFor(tenantId, webhookId, (w) => w === null);
    return true;
  }

  /** Appends a delivery job due now (a test ping, or a re-send of a dead-lettered delivery). */
  async enqueue(
    job: Omit<
      WebhookDelivery,
      'attempt' | 'due_at' | 'status' | 'last_http_status' | 'last_error' | 'occurred_at'
    >,
  ) {
    const now = this.clock();
    return this.append({
      ...job,
      attempt: 1,
      due_at: now,
      status: 'pending',
      last_http_status: null,
      last_error: null,
      occurred_at: now,
    });
  }

  /** Appends a delivery job as it is. */
  async append(job: WebhookDelivery): Promise<WebhookDelivery> {
    await this.deps.producer.send(topicNames.webhookDeliveries, [{ key: job.webhook_id, value: job }]);
    return job;
  }

  async checkAlertEndpointLimit(tenantId: string, limits: { alertEndpoints: number | null }): Promise<void> {
    if (limits.alertEndpoints === null) return;
    const current = (await this.alertEndpoints(tenantId)).length;
    if (current >= limits.alertEndpoints)
      throw new ApiError(
        'plan_limit_reached',
        `the plan allows ${limits.alertEndpoints} alert endpoints (webhooks receiving news.alert) and ${current} exist; delete one or change plans`,
      );
  }

  private async appendState(state: Webhook): Promise<void> {
    await this.deps.producer.send(topicNames.webhooks, [{ key: state.webhook_id, value: state }]);
  }

  private waitFor(tenantId: string, webhookId: string, done: (w: StoredWebhook | null) => boolean) {
    return untilVisible(() => this.get(tenantId, webhookId), done, this.deps.visibleWithinMs);
  }

  private async query(tenantId: string, webhookId: string | null, page: { limit: number; offset: number }) {
    // Latest state per webhook (argMax by version, no FINAL); a tombstone's state has no tenant.
    return this.deps.clickhouse.query<WebhookRow>(sql`
SELECT webhook_id, argMax(tenant_id, version) AS w_tenant, argMax(url, version) AS w_url,
  argMax(events, version) AS w_events, argMax(secret_ref, version) AS w_secret_ref,
  argMax(filter_categories, version) AS w_categories, argMax(filter_source_ids, version) AS w_sources,
  argMax(filter_languages, version) AS w_languages, argMax(filter_words, version) AS w_words,
  argMax(filter_monitor_ids, version) AS w_monitors, argMax(active, version) AS w_active,
  argMax(disabled_reason, version) AS w_reason, toUnixTimestamp(argMax(created_at, version)) AS w_created,
  toUnixTimestamp(argMax(updated_at, version)) AS w_updated, toString(max(version)) AS w_version,
  argMax(deleted, version) AS w_deleted
FROM webhooks
${raw(webhookId === null ? '' : sql`WHERE webhook_id = ${webhookId}`)}
GROUP BY webhook_id
HAVING w_tenant = ${tenantId} AND w_deleted = 0
ORDER BY w_created DESC, webhook_id DESC
LIMIT ${page.limit + 1} OFFSET ${page.offset}`);
  }
}

function toStored(r: WebhookRow): StoredWebhook {
  const filter: WebhookFilter = {
    categories: r.w_categories,
    source_ids: r.w_sources,
    languages: r.w_languages,
    words: r.w_words,
    monitor_ids: r.w_monitors,
  };
  return {
    item: {
      id: r.webhook_id,
      url: r.w_url,
      events: r.w_events,
      filter: isEmptyFilter(filter) ? null : filter,
      active: Number(r.w_active) === 1,
      disabled_reason: r.w_reason,
      created_at: r.w_created === null ? null : isoTime(r.w_created),
      updated_at: isoTime(r.w_updated),
    },
    secretRef: r.w_secret_ref,
    version: Number(r.w_version),
  };
}
