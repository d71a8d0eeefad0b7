// Webhook registrations as the API sees them: commands append states to news.webhooks.v1 (compacted),
// queries read the `webhooks` read model. The signing secret is sealed before it leaves this module
// (secret-box.ts) and shown to the caller once, when it is created or rotated.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { ClickHouse } from '../runtime/clickhouse/client.ts';
import { latestRows } from '../runtime/clickhouse/latest-versions.ts';
import { sql } from '../runtime/clickhouse/literal.ts';
import type { Webhook, WebhookDelivery, WebhookFilter } from '../runtime/events/types.generated.ts';
import type { EventProducer } from '../runtime/kafka/producer.ts';
import { topicNames } from '../runtime/kafka/topics.ts';
import type { OutboundUrlPolicy } from '../runtime/outbound/outbound-url.ts';
import type { SecretBox } from './secret-box.ts';
import { generateWebhookSecret, maxSecretBytes, SECRET_PREFIX, webhookSecretKey } from './signing.ts';
import { NEWS_ALERT, type SubscribableEvent } from './event-types.ts';
import { alertEndpointRefusal } from './alert-endpoint-limit.ts';
import { ApiError, invalidParameter } from '../runtime/api-error.ts';
import { busyUnlessFree, LocalMutex, type KeyedMutex } from '../runtime/keyed-mutex.ts';
import { isoTime, untilVisible } from '../runtime/clickhouse/read-model.ts';
import { pendingJob, type DeliveryJobIdentity } from './delivery-job.ts';
import { carriedSecrets, rotatedSecrets, signingSecretRefs, type SecretFields } from './secret-rotation.ts';
import {
  emptyFilter,
  eventsTakenAnew,
  isEmptyFilter,
  plannedChange,
  refuseIdleFilter,
  type WebhookPatch,
  type WebhookSettings,
} from './webhook-change.ts';

export interface WebhookItem {
  id: string;
  url: string;
  events: string[];
  filter: WebhookFilter | null;
  active: boolean;
  disabled_reason: string | null;
  /** Until when the secret a rotation replaced also signs deliveries; null when none does (any more). */
  previous_secret_expires_at: string | null;
  created_at: string | null;
  updated_at: string;
}

interface WebhookRow {
  webhook_id: string;
  url: string;
  events: string[];
  secret_ref: string;
  previous_secret_ref: string | null;
  previous_secret_expires_at: number | string | null;
  filter_categories: string[];
  filter_source_ids: string[];
  filter_languages: string[];
  filter_words: string[];
  filter_monitor_ids: string[];
  active: number;
  disabled_reason: string | null;
  created_at: number | string | null;
  updated_at: number | string;
  version: number | string;
}

/** The columns a registration is read back from; tenant_id and deleted decide whether it is shown. */
const webhookColumns = [
  'tenant_id',
  'url',
  'events',
  'secret_ref',
  'previous_secret_ref',
  'previous_secret_expires_at',
  'filter_categories',
  'filter_source_ids',
  'filter_languages',
  'filter_words',
  'filter_monitor_ids',
  'active',
  'disabled_reason',
  'created_at',
  'updated_at',
  'deleted',
  // The registration's own version, which the next state written counts from (the table's `version`
  // is the Kafka offset that orders the rows).
  'state_version',
];

/** A registration with what the API needs to change it. */
export interface StoredWebhook {
  item: WebhookItem;
  /** The sealed secrets, carried into every later state. */
  secrets: SecretFields;
  version: number;
}

export interface NewWebhook {
  url: string;
  events: SubscribableEvent[];
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
  /**
   * One registration of an alert endpoint at a time per tenant, from its count to the read model
   * showing it (keyed-mutex.ts): across API processes with a RedisMutex; this process only by default.
   */
  alertEndpointLock?: KeyedMutex;
  /**
   * One change at a time to the tenant's webhook at a URL, across API processes (a RedisMutex), from
   * reading it to the read model showing the change: monitors created or deleted there (whose webhook's
   * filter lists them), and the tenant's own changes and secret rotations. Each writes the whole state it
   * read: two at once each read the same state and wrote their own, so a monitor was dropped from the
   * filter (its alerts never sent), a webhook was registered twice for one URL (two secrets), one was left
   * behind by its last monitor, or a rotated secret was put back by a change that read the old one.
   */
  endpointLock?: KeyedMutex;
  clock?: () => number;
}

export const newId = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;

/**
 * A customer's secret as a Standard Webhooks secret: `whsec_<base64>` is used as given (and must be
 * valid); any other text of 8 to 128 characters becomes the key bytes themselves, reported back in
 * the whsec_ form that the standard verifiers take. The client chooses it (the interface says so), and
 * clients choose words: 24 characters, the standard's floor for the secrets a sender makes, refused
 * ones such as "my-shared-secret-123456". What is refused is what is not a secret at all.
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
  if (secret.length < 8 || secret.length > 128)
    throw invalidParameter('secret', `must be whsec_<base64> or 8 to 128 characters (got ${secret.length})`);
  // Its UTF-8 bytes are the key, which the signer takes up to maxSecretBytes.
  const bytes = Buffer.byteLength(secret, 'utf8');
  if (bytes > maxSecretBytes)
    throw invalidParameter(
      'secret',
      `is ${bytes} bytes in UTF-8, and a key holds at most ${maxSecretBytes}: use fewer or plainer characters`,
    );
  // 32 spaces, or one letter 24 times, is a length, not a secret.
  if (new Set(secret.replace(/\s/g, '')).size < 5)
    throw invalidParameter('secret', 'is too easy to guess: use at least 5 different characters, not spaces');
  return `${SECRET_PREFIX}${Buffer.from(secret, 'utf8').toString('base64')}`;
}

export class WebhookRegistry {
  private readonly clock: () => number;
  private readonly alertEndpointLock: KeyedMutex;
  private readonly endpointLock: KeyedMutex;

  constructor(private readonly deps: WebhookRegistryDependencies) {
    this.clock = deps.clock ?? Date.now;
    this.alertEndpointLock = deps.alertEndpointLock ?? new LocalMutex();
    this.endpointLock = deps.endpointLock ?? new LocalMutex();
  }

  /**
   * Refuses a URL the dispatcher would refuse: not http(s), or a private, loopback or link-local address
   * (unless allow-listed). A host name that does not resolve now is accepted: its DNS may not be set up
   * yet (or this machine may have none), and the dispatcher checks the address at every delivery anyway,
   * retrying an unresolvable one; POST /api/v1/webhooks/{id}/test shows whether it can be reached.
   */
  async checkUrl(field: string, url: string): Promise<string> {
    // user:password@ would never be sent (deliveries authenticate by signature, and undici drops it),
    // and the URL is shown in every answer about the webhook: refused rather than kept and ignored.
    if (/^[a-z][a-z0-9+.-]*:\/\/[^/?#]*@/i.test(url.trim()))
      throw invalidParameter(
        field,
        'must not hold credentials (user:password@): deliveries are authenticated by their signature; put a token in the path or query if the receiver needs one',
      );
    // The URL parser drops tabs and line breaks silently: "…/a\r\nX-Injected: 1" would be stored as
    // another URL than the one given. Refused, as a receiver's address never holds them.
    if (/\p{Cc}/u.test(url.trim()))
      throw invalidParameter(field, 'must not contain control characters (tabs, line breaks)');
    // "http:///path" parses as http://path/ (the parser skips the empty authority): another URL than
    // the one given. Port 0 parses, and no receiver can listen on it.
    if (/^[a-z][a-z0-9+.-]*:\/\/\//i.test(url.trim()))
      throw invalidParameter(field, 'has no host: write it as https://host/path');
    if (URL.canParse(url) && new URL(url).port === '0')
      throw invalidParameter(field, 'has port 0, which no receiver listens on');
    const check = await this.deps.policy.check(url);
    if (check.ok) return withoutFragment(check.url);
    if (check.kind === 'unresolved') return withoutFragment(new URL(url));
    throw invalidParameter(field, check.reason);
  }

  async list(tenantId: string, page: { limit: number; offset: number }) {
    const rows = await this.query(tenantId, null, page);
    const now = this.clock();
    return {
      items: rows.slice(0, page.limit).map((r) => toStored(r, now).item),
      hasMore: rows.length > page.limit,
    };
  }

  async get(tenantId: string, webhookId: string): Promise<StoredWebhook | null> {
    const [row] = await this.query(tenantId, webhookId, { limit: 1, offset: 0 });
    return row ? toStored(row, this.clock()) : null;
  }

  /** Webhooks of the tenant that receive news.alert: the alert endpoints the plan limits. */
  async alertEndpoints(tenantId: string): Promise<StoredWebhook[]> {
    return (await this.all(tenantId)).filter((w) => w.item.active && w.item.events.includes(NEWS_ALERT));
  }

  /**
   * The tenant's webhook at `url` that a monitor created there joins: an active one, else one the tenant
   * paused (its alerts wait for it to be resumed; a second webhook at the URL would have a second
   * secret). One the service disabled is not joined: its endpoint failed, and it is resumed or registered
   * again on purpose.
   */
  async findByUrl(tenantId: string, url: string): Promise<StoredWebhook | null> {
    const atUrl = (await this.all(tenantId)).filter((w) => w.item.url === url);
    return atUrl.find((w) => w.item.active) ?? atUrl.find((w) => w.item.disabled_reason === null) ?? null;
  }

  /** The tenant's webhooks that receive news.alert, in any state (active, paused, disabled). */
  async alertWebhooks(tenantId: string): Promise<StoredWebhook[]> {
    return (await this.all(tenantId)).filter((w) => w.item.events.includes(NEWS_ALERT));
  }

  /**
   * The tenant's webhooks at `url` that the service disabled (their endpoint failed) and that received
   * news.alert: the monitors they served get no alert until one is resumed or replaced.
   */
  async disabledAlertEndpointsAt(tenantId: string, url: string): Promise<StoredWebhook[]> {
    return (await this.all(tenantId)).filter(
      (w) =>
        w.item.url === url &&
        !w.item.active &&
        w.item.disabled_reason !== null &&
        w.item.events.includes(NEWS_ALERT),
    );
  }

  /** The tenant's webhook at `url` whose filter lists monitor `monitorId`, whether active or not. */
  async findServing(tenantId: string, url: string, monitorId: string): Promise<StoredWebhook | null> {
    return (
      (await this.all(tenantId)).find(
        (w) => w.item.url === url && (w.item.filter?.monitor_ids ?? []).includes(monitorId),
      ) ?? null
    );
  }

  private async all(tenantId: string): Promise<StoredWebhook[]> {
    const now = this.clock();
    return (await this.query(tenantId, null, { limit: 10_000, offset: 0 })).map((r) => toStored(r, now));
  }

  /**
   * Runs `task` alone among the changes to the tenant's webhooks at `urls` (endpointLock; both URLs of a
   * change that moves one, locked in one order so two such changes cannot wait for each other).
   */
  async atEndpoints<T>(tenantId: string, urls: readonly string[], task: () => Promise<T>): Promise<T> {
    const keys = [...new Set(urls)].sort().map((url) => `${tenantId} ${url}`);
    const from = (i: number): Promise<T> =>
      i === keys.length ? task() : this.endpointLock.run(keys[i]!, () => from(i + 1));
    return busyUnlessFree(
      from(0),
      'another change to the webhook at this URL (or to the monitors that send their alerts to it) is under way',
    );
  }

  async register(
    tenantId: string,
    input: NewWebhook,
    limits: { alertEndpoints: number | null },
  ): Promise<{ webhook: WebhookItem; secret: string }> {
    const url = await this.checkUrl('url', input.url);
    // A bad value is a 400 whatever the state: checked before the URL's other webhooks (a 409).
    if (input.secret !== undefined) normaliseSecret(input.secret);
    refuseIdleFilter(input.events, input.filter);
    // At the URL's lock, as the monitors and changes there: two registrations at once cannot both pass.
    return this.atEndpoints(tenantId, [url], () => this.registerAt(tenantId, url, input, limits));
  }

  /** register, for a caller that checked `url` (checkUrl) and holds its lock (atEndpoints): a monitor's. */
  async registerAt(
    tenantId: string,
    url: string,
    input: NewWebhook,
    limits: { alertEndpoints: number | null },
  ): Promise<{ webhook: WebhookItem; secret: string }> {
    await this.refuseSecondAt(tenantId, url, input.events);
    if (input.events.includes(NEWS_ALERT))
      return this.addingAlertEndpoint(tenantId, limits, () => this.appendNew(tenantId, url, input));
    return this.appendNew(tenantId, url, input);
  }

  /**
   * A second webhook of the tenant at a URL for an event one there already takes would deliver each of
   * those events twice, each signed with its own secret (a client that registers again after a lost
   * answer, without an Idempotency-Key, makes one): refused, naming the webhook to change instead. One
   * the service disabled (its endpoint failed) does not count: registering again is how it is replaced.
   */
  private async refuseSecondAt(
    tenantId: string,
    url: string,
    events: readonly string[],
    except?: string,
  ): Promise<void> {
    const there = (await this.all(tenantId)).find(
      (w) =>
        w.item.id !== except &&
        w.item.url === url &&
        (w.item.active || w.item.disabled_reason === null) &&
        w.item.events.some((e) => events.includes(e)),
    );
    if (there === undefined) return;
    const shared = there.item.events.filter((e) => events.includes(e)).join(', ');
    throw new ApiError(
      'conflict',
      `url: webhook "${there.item.id}" already sends ${shared} to this URL; change it (PATCH /api/v1/webhooks/${there.item.id}) instead of registering another`,
    );
  }

  /**
   * Runs `task`, which makes one more alert endpoint of the tenant and waits until the read model shows
   * it, if the plan allows one more: a count and a write that two requests at once would both pass
   * (8 registrations sent together, with 7 of 10 in use, made 15), so one such task per tenant at a time.
   */
  async addingAlertEndpoint<T>(
    tenantId: string,
    limits: { alertEndpoints: number | null },
    task: () => Promise<T>,
  ): Promise<T> {
    if (limits.alertEndpoints === null) return task(); // no limit: nothing to count
    return busyUnlessFree(
      this.alertEndpointLock.run(tenantId, async () => {
        await this.checkAlertEndpointLimit(tenantId, limits);
        return task();
      }),
      'another registration of an alert endpoint of this tenant is under way',
    );
  }

  private async appendNew(
    tenantId: string,
    url: string,
    input: NewWebhook,
  ): Promise<{ webhook: WebhookItem; secret: string }> {
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
      previous_secret_ref: null,
      previous_secret_expires_at: null,
      active: true,
      disabled_reason: null,
      // Whole seconds: later versions carry it over from the read model (DateTime, seconds), and a
      // consumer of the topic should see one creation time, not one that loses its milliseconds.
      created_at: Math.floor(now / 1000) * 1000,
      version: 1,
      occurred_at: now,
    };
    await this.appendState(state);
    const visible = await this.waitFor(tenantId, state.webhook_id, (w) => w !== null);
    return { webhook: visible!.item, secret };
  }

  /**
   * Appends a changed state of a registration (version + 1), and waits until the read model shows it.
   * Call it at the webhook's URL (atEndpoints), with `current` read there.
   */
  async change(
    tenantId: string,
    current: StoredWebhook,
    changes: Partial<WebhookSettings> & { secrets?: SecretFields },
  ): Promise<WebhookItem> {
    const now = this.clock();
    const item = current.item;
    const version = current.version + 1;
    const state: Webhook = {
      webhook_id: item.id,
      tenant_id: tenantId,
      url: changes.url ?? item.url,
      events: changes.events ?? item.events,
      filter: changes.filter === undefined ? item.filter : changes.filter,
      ...(changes.secrets ?? carriedSecrets(current.secrets, now)),
      active: changes.active ?? item.active,
      disabled_reason: changes.disabled_reason === undefined ? item.disabled_reason : changes.disabled_reason,
      created_at: item.created_at ? Date.parse(item.created_at) : now,
      version,
      occurred_at: now,
    };
    await this.appendState(state);
    const visible = await this.waitFor(tenantId, item.id, (w) => (w?.version ?? 0) >= version);
    return visible?.item ?? item;
  }

  /**
   * A tenant's change to its webhook (PATCH): its URL, events, filter or active state (plannedChange
   * says what may change). Null when the tenant has no such webhook. Made at the webhook's URL and at the
   * new one, alone among the monitors' changes there; `servingMonitors` tells which monitors send their
   * alerts through it. Resuming it, or adding news.alert, makes one more alert endpoint: the plan must
   * allow it. A change that would make it a second webhook at its URL for an event one there takes is
   * refused, as registering one is (refuseSecondAt).
   */
  async update(
    tenantId: string,
    webhookId: string,
    patch: WebhookPatch,
    context: {
      limits: { alertEndpoints: number | null };
      servingMonitors: (webhook: WebhookItem) => Promise<string[]>;
    },
  ): Promise<WebhookItem | null> {
    const found = await this.get(tenantId, webhookId);
    if (!found) return null;
    const url = patch.url === undefined ? undefined : await this.checkUrl('url', patch.url);
    return this.atEndpoints(tenantId, [found.item.url, url ?? found.item.url], async () => {
      // Read again under the lock: a monitor or another change may have written since.
      const current = await this.get(tenantId, webhookId);
      if (!current) return null;
      if (current.item.url !== found.item.url)
        throw new ApiError(
          'conflict',
          `url: webhook "${webhookId}" moved to another URL while this change waited; read it again and retry`,
        );
      const serving = await context.servingMonitors(current.item);
      const before = settingsOf(current.item);
      const planned = plannedChange(webhookId, before, { ...patch, url }, serving);
      if (planned === null) return current.item;
      const taken = eventsTakenAnew(before, planned.settings);
      if (taken.length > 0) await this.refuseSecondAt(tenantId, planned.settings.url, taken, webhookId);
      const write = () => this.change(tenantId, current, planned.settings);
      return planned.newAlertEndpoint ? this.addingAlertEndpoint(tenantId, context.limits, write) : write();
    });
  }

  /**
   * Gives the tenant's webhook `webhookId` a new signing secret (`secret`, or one generated), while the
   * one in use keeps signing for `graceSeconds` (secret-rotation.ts). Null when the tenant has no such
   * webhook; otherwise the new secret, to be shown this once. Made at the webhook's URL, alone among the
   * other changes there, so none of them writes the old secret back.
   */
  async rotateSecret(
    tenantId: string,
    webhookId: string,
    options: { secret?: string | undefined; graceSeconds: number },
  ): Promise<{ webhook: WebhookItem; secret: string } | null> {
    const found = await this.get(tenantId, webhookId);
    if (!found) return null;
    const secret = options.secret === undefined ? generateWebhookSecret() : normaliseSecret(options.secret);
    return this.atEndpoints(tenantId, [found.item.url], async () => {
      const current = await this.get(tenantId, webhookId);
      if (!current) return null;
      if (this.signsWith(current, secret))
        throw invalidParameter(
          'secret',
          'is the secret this webhook signs with now: a rotation needs another one',
        );
      const secrets = rotatedSecrets(
        current.secrets,
        this.deps.secrets.seal(secret),
        options.graceSeconds,
        this.clock(),
      );
      return { webhook: await this.change(tenantId, current, { secrets }), secret };
    });
  }

  /** Whether `secret` is the one the webhook signs with now (compared in constant time; never logged). */
  private signsWith(webhook: StoredWebhook, secret: string): boolean {
    let current: string;
    try {
      current = this.deps.secrets.open(webhook.secrets.secret_ref);
    } catch {
      return false; // sealed under a key this process lacks: it cannot tell, and rotating away is the point
    }
    const digest = (text: string) => createHash('sha256').update(text, 'utf8').digest();
    return timingSafeEqual(digest(current), digest(secret));
  }

  /** False when the tenant has no such webhook. */
  async remove(tenantId: string, webhookId: string): Promise<boolean> {
    if (!(await this.get(tenantId, webhookId))) return false;
    await this.deps.producer.send(topicNames.webhooks, [{ key: webhookId, value: null }]);
    await this.waitFor(tenantId, webhookId, (w) => w === null);
    return true;
  }

  /** Appends a delivery job due now (a test ping, or a re-send of a dead-lettered delivery). */
  async enqueue(job: DeliveryJobIdentity) {
    return this.append(pendingJob(job, this.clock()));
  }

  /** Appends a delivery job as it is. */
  async append(job: WebhookDelivery): Promise<WebhookDelivery> {
    await this.deps.producer.send(topicNames.webhookDeliveries, [{ key: job.webhook_id, value: job }]);
    return job;
  }

  /** Throws plan_limit_reached when the tenant may not register one more alert endpoint. */
  async checkAlertEndpointLimit(tenantId: string, limits: { alertEndpoints: number | null }): Promise<void> {
    if (limits.alertEndpoints === null) return; // no limit: nothing to count
    // Endpoints are URLs: webhooks made before a second one at a URL was refused count once there.
    const urls = new Set((await this.alertEndpoints(tenantId)).map((w) => w.item.url));
    const refusal = alertEndpointRefusal(urls.size, limits.alertEndpoints);
    if (refusal) throw refusal;
  }

  private async appendState(state: Webhook): Promise<void> {
    await this.deps.producer.send(topicNames.webhooks, [{ key: state.webhook_id, value: state }]);
  }

  private waitFor(tenantId: string, webhookId: string, done: (w: StoredWebhook | null) => boolean) {
    return untilVisible(() => this.get(tenantId, webhookId), done, this.deps.visibleWithinMs);
  }

  private async query(tenantId: string, webhookId: string | null, page: { limit: number; offset: number }) {
    // A tombstone's state has no tenant, so a removed webhook is nobody's. The latest row as it stands
    // (latestRows), not column by column: a NULL that replaced a value (the reason of a webhook resumed
    // after the service disabled it, a previous secret that no longer signs) must read as NULL.
    const webhooks = latestRows({
      table: 'webhooks',
      key: 'webhook_id',
      columns: webhookColumns,
      where: webhookId === null ? [] : [sql`webhook_id = ${webhookId}`],
    });
    return this.deps.clickhouse.query<WebhookRow>(sql`
SELECT webhook_id, url, events, secret_ref, previous_secret_ref,
  toUnixTimestamp(previous_secret_expires_at) AS previous_secret_expires_at, filter_categories,
  filter_source_ids, filter_languages, filter_words, filter_monitor_ids, active, disabled_reason,
  toUnixTimestamp(created_at) AS created_at,
  toUnixTimestamp(updated_at) AS updated_at, toString(state_version) AS version
FROM ${webhooks}
WHERE tenant_id = ${tenantId} AND deleted = 0
ORDER BY created_at DESC, webhook_id DESC
LIMIT ${page.limit + 1} OFFSET ${page.offset}`);
  }
}

/** A fragment is never sent in a request: `…/hook#a` and `…/hook` are one endpoint, one webhook. */
/**
 * The URL as one endpoint is written, whatever spelling it was given in: without its fragment (never
 * sent), without an empty query ("…/hook?", which is sent as "…/hook"), and with percent-encoded
 * unreserved characters decoded ("/%72ace" is "/race", RFC 3986 6.2.2.2). Two spellings had been two
 * webhooks at one endpoint, each delivering every event under its own id and secret.
 */
function withoutFragment(url: URL): string {
  const copy = new URL(url);
  copy.hash = '';
  if (copy.search === '') copy.search = '';
  const unreserved = (s: string) =>
    s.replace(/%([0-9A-Fa-f]{2})/g, (escape, hex: string) => {
      const c = String.fromCharCode(Number.parseInt(hex, 16));
      return /[A-Za-z0-9\-._~]/.test(c) ? c : escape.toUpperCase();
    });
  copy.pathname = unreserved(copy.pathname);
  if (copy.search !== '') copy.search = unreserved(copy.search);
  return copy.toString();
}

const settingsOf = (item: WebhookItem): WebhookSettings => ({
  url: item.url,
  events: item.events,
  filter: item.filter,
  active: item.active,
  disabled_reason: item.disabled_reason,
});

function toStored(r: WebhookRow, now: number): StoredWebhook {
  const secrets: SecretFields = {
    secret_ref: r.secret_ref,
    previous_secret_ref: r.previous_secret_ref,
    previous_secret_expires_at:
      r.previous_secret_expires_at === null ? null : Number(r.previous_secret_expires_at) * 1000,
  };
  const filter: WebhookFilter = {
    categories: r.filter_categories,
    source_ids: r.filter_source_ids,
    languages: r.filter_languages,
    words: r.filter_words,
    monitor_ids: r.filter_monitor_ids,
  };
  return {
    item: {
      id: r.webhook_id,
      url: r.url,
      events: r.events,
      filter: isEmptyFilter(filter) ? null : filter,
      active: Number(r.active) === 1,
      disabled_reason: r.disabled_reason,
      previous_secret_expires_at:
        signingSecretRefs(secrets, now).length > 1 ? isoTime(r.previous_secret_expires_at!) : null,
      created_at: r.created_at === null ? null : isoTime(r.created_at),
      updated_at: isoTime(r.updated_at),
    },
    secrets,
    version: Number(r.version),
  };
}
