// CRM monitors as the API sees them: states appended to news.monitors.v1, read back from the
// `monitors` read model. A monitor's alerts go to its alert_webhook, which is a webhook registration
// of the tenant like any other: the one already registered for that URL, or one made for it, whose
// filter names the monitors it serves (so it gets their alerts, not every alert of the tenant).
import type { ClickHouse } from '../runtime/clickhouse/client.ts';
import { latestVersions } from '../runtime/clickhouse/latest-versions.ts';
import { inList, raw, sql } from '../runtime/clickhouse/literal.ts';
import type { Monitor, WebhookFilter } from '../runtime/events/types.generated.ts';
import type { EventProducer } from '../runtime/kafka/producer.ts';
import { topicNames } from '../runtime/kafka/topics.ts';
import { isoTime, untilVisible } from '../runtime/clickhouse/read-model.ts';
import { ApiError } from '../runtime/api-error.ts';
import { NEWS_ALERT } from '../webhooks/event-types.ts';
import { organizationKey } from './company-names.ts';
import { fold } from './fold.ts';
import { newId, type StoredWebhook, type WebhookRegistry } from '../webhooks/webhook-registry.ts';

export interface MonitorItem {
  id: string;
  contact_id: string;
  company: string;
  aliases: string[];
  alert_webhook: string;
  active: boolean;
  created_at: string | null;
  updated_at: string;
}

/**
 * Whether a monitor's alerts are being sent: the webhook at its alert_webhook that sends them, and that
 * webhook's state. A monitor stays active when its webhook is paused or disabled by the service (its
 * endpoint answered 410), and its alerts are not sent meanwhile: this says why none arrive.
 */
export interface MonitorDelivery {
  webhook_id: string | null;
  status: 'active' | 'paused' | 'disabled' | 'none';
  /** Why the service disabled the webhook; null otherwise. */
  disabled_reason: string | null;
}

export interface Signing {
  webhook_id: string;
  /** True when a webhook was registered for this monitor now; then `secret` is shown, once. */
  created: boolean;
  secret: string | null;
  note: string;
}

export interface NewMonitor {
  contact_id: string;
  company: string;
  aliases: string[];
  alert_webhook: string;
}

/** Which of the tenant's monitors a list shows: all when empty. */
export interface MonitorFilter {
  /** Only the monitors of these CRM contacts (compared as stored: exactly). */
  contactIds?: readonly string[];
  /** Only the active monitors (true) or only the inactive ones (false). */
  active?: boolean;
}

interface MonitorRow {
  monitor_id: string;
  contact_id: string;
  company: string;
  aliases: string[];
  alert_webhook: string;
  active: number;
  created_at: number | string | null;
  updated_at: number | string;
  /** The monitor's own version (the event's), where it is read: what its next state counts from. */
  state_version?: number | string;
}

/** The columns a monitor is read back from; tenant_id and deleted decide whether it is shown. */
const monitorColumns = [
  'tenant_id',
  'contact_id',
  'company',
  'aliases',
  'alert_webhook',
  'active',
  'created_at',
  'updated_at',
  'deleted',
  'state_version',
];

export interface MonitorRegistryDependencies {
  clickhouse: ClickHouse;
  producer: Pick<EventProducer, 'send'>;
  /**
   * The registrations, and the lock that makes one change at a time to the tenant's webhook at a URL
   * (WebhookRegistry.atEndpoints): the monitors of one URL share a webhook whose filter lists them.
   */
  webhooks: WebhookRegistry;
  visibleWithinMs: number;
  clock?: () => number;
}

const noFilter = (): WebhookFilter => ({
  categories: [],
  source_ids: [],
  languages: [],
  words: [],
  monitor_ids: [],
});

export class MonitorRegistry {
  private readonly clock: () => number;

  constructor(private readonly deps: MonitorRegistryDependencies) {
    this.clock = deps.clock ?? Date.now;
  }

  /**
   * Starts monitoring, or finds the tenant already does: an active monitor of the same contact, company
   * and aliases (compared as the matcher compares names: without case, accents or legal form) at the same URL is
   * answered again (`created` false) rather than made twice, so a client
   * that posts again (a retry after a lost answer, without Idempotency-Key) does not get every alert twice.
   */
  async create(
    tenantId: string,
    input: NewMonitor,
    limits: { alertEndpoints: number | null },
  ): Promise<{ monitor: MonitorItem; signing: Signing; created: boolean }> {
    const url = await this.deps.webhooks.checkUrl('alert_webhook', input.alert_webhook);
    return this.atEndpoint(tenantId, url, async () => {
      const same = await this.sameMonitor(tenantId, url, input);
      if (same) return { ...same, created: false };
      return { ...(await this.createAt(tenantId, url, input, limits)), created: true };
    });
  }

  /** The tenant's active monitor that `input` would make again at `url`, with its webhook; else null. */
  private async sameMonitor(
    tenantId: string,
    url: string,
    input: NewMonitor,
  ): Promise<{ monitor: MonitorItem; signing: Signing } | null> {
    // Filtered after the latest versions are taken, not before: a deletion's row holds no contact or URL,
    // and filtering on them first would leave the monitor's last live row standing for it.
    const monitors = latestVersions({
      table: 'monitors',
      key: 'monitor_id',
      columns: monitorColumns,
      where: [],
    });
    const rows = await this.deps.clickhouse.query<MonitorRow>(sql`
SELECT monitor_id, contact_id, company, aliases, alert_webhook, active,
  toUnixTimestamp(created_at) AS created_at, toUnixTimestamp(updated_at) AS updated_at
FROM ${monitors}
WHERE tenant_id = ${tenantId} AND deleted = 0 AND active = 1
  AND contact_id = ${input.contact_id} AND alert_webhook = ${url}
ORDER BY created_at, monitor_id`);
    // As the matcher compares names (fold.ts, legal forms optional): "apple" and "Apple Inc." are the
    // monitor of "Apple", and would raise the same alerts a second time.
    const key = (name: string) => organizationKey(name) || fold(name);
    const names = (aliases: readonly string[]) => [...new Set(aliases.map(key))].sort().join('\n');
    const aliases = names(input.aliases);
    const row = rows.find((r) => key(r.company) === key(input.company) && names(r.aliases) === aliases);
    if (!row) return null;
    const webhook =
      (await this.deps.webhooks.findServing(tenantId, url, row.monitor_id)) ??
      (await this.deps.webhooks.findByUrl(tenantId, url));
    return {
      monitor: toItem(row),
      signing: {
        webhook_id: webhook?.item.id ?? '',
        created: false,
        secret: null,
        note:
          `Already monitored by ${row.monitor_id} (same contact, company, aliases and URL): nothing was changed. ` +
          (webhook
            ? `Its alerts are signed with the secret of webhook ${webhook.item.id}.${stateNote(webhook)}`
            : 'Its webhook is being changed; GET /api/v1/webhooks shows it.'),
      },
    };
  }

  /** Runs `task` alone among the changes to the tenant's webhook at `url` (monitors' and the tenant's). */
  private atEndpoint<T>(tenantId: string, url: string, task: () => Promise<T>): Promise<T> {
    return this.deps.webhooks.atEndpoints(tenantId, [url], task);
  }

  private async createAt(
    tenantId: string,
    url: string,
    input: NewMonitor,
    limits: { alertEndpoints: number | null },
  ): Promise<{ monitor: MonitorItem; signing: Signing }> {
    const { webhooks } = this.deps;
    const monitorId = newId('mon');
    const existing = await webhooks.findByUrl(tenantId, url);
    const signing = existing
      ? await this.joinWebhook(tenantId, existing, monitorId, limits)
      : await this.newWebhook(tenantId, url, monitorId, limits);

    const now = this.clock();
    const state: Monitor = {
      monitor_id: monitorId,
      tenant_id: tenantId,
      contact_id: input.contact_id,
      company: input.company,
      aliases: [...new Set(input.aliases)],
      alert_webhook: url,
      active: true,
      // Whole seconds, as webhooks' (WebhookRegistry.register): a pause or a resume carries it over from
      // the read model (DateTime, seconds), and every version must repeat it unchanged.
      created_at: Math.floor(now / 1000) * 1000,
      version: 1,
      occurred_at: now,
    };
    await this.deps.producer.send(topicNames.monitors, [{ key: monitorId, value: state }]);
    const monitor = await this.waitFor(tenantId, monitorId, (m) => m !== null);
    return { monitor: monitor!, signing };
  }

  async list(tenantId: string, page: { limit: number; offset: number }, filter: MonitorFilter = {}) {
    const rows = await this.query(tenantId, null, page, filter);
    return { items: rows.slice(0, page.limit).map(toItem), hasMore: rows.length > page.limit };
  }

  /** The monitors with their delivery (MonitorDelivery), read from the tenant's webhooks at once. */
  async withDelivery<T extends MonitorItem>(
    tenantId: string,
    monitors: readonly T[],
  ): Promise<(T & { delivery: MonitorDelivery })[]> {
    if (monitors.length === 0) return [];
    const webhooks = await this.deps.webhooks.alertWebhooks(tenantId);
    return monitors.map((monitor) => ({ ...monitor, delivery: deliveryOf(monitor, webhooks) }));
  }

  async get(tenantId: string, monitorId: string): Promise<MonitorItem | null> {
    const [row] = await this.query(tenantId, monitorId, { limit: 1, offset: 0 });
    return row ? toItem(row) : null;
  }

  /**
   * The tenant's monitors whose alert_webhook is `url`: those a webhook there that gets every alert of
   * the tenant serves, though its filter names none of them (they joined it as it was: joinWebhook).
   */
  async idsAt(tenantId: string, url: string): Promise<string[]> {
    const monitors = latestVersions({ table: 'monitors', key: 'monitor_id', columns: monitorColumns });
    const rows = await this.deps.clickhouse.query<{ monitor_id: string }>(sql`
SELECT monitor_id FROM ${monitors}
WHERE tenant_id = ${tenantId} AND deleted = 0 AND alert_webhook = ${url}
ORDER BY monitor_id`);
    return rows.map((r) => r.monitor_id);
  }

  /**
   * False when the tenant has no such monitor. With its last monitor, a webhook made for monitors goes,
   * and a webhook the customer registered for other events is given back as it was: monitors joined it
   * by adding news.alert narrowed to them (joinWebhook), which is taken away again. A webhook that had
   * news.alert for every alert of the tenant was never changed, so it is not touched.
   */
  async remove(tenantId: string, monitorId: string): Promise<boolean> {
    const monitor = await this.get(tenantId, monitorId);
    if (!monitor) return false;
    return this.atEndpoint(tenantId, monitor.alert_webhook, () => this.removeAt(tenantId, monitorId));
  }

  /**
   * Pauses a monitor (active false: the matcher raises no alerts for it, and none are kept for later) or
   * resumes it, by appending its next state (version + 1). Null when the tenant has no such monitor;
   * `changed` false when it already was so. Its webhook is left as it is: it keeps naming the monitor.
   * Resuming is refused (409) while an active monitor of the same contact, company, aliases and URL
   * exists (one made while this one was paused): both would raise the same alerts.
   */
  async setActive(
    tenantId: string,
    monitorId: string,
    active: boolean,
  ): Promise<{ monitor: MonitorItem; changed: boolean } | null> {
    const monitor = await this.get(tenantId, monitorId);
    if (!monitor) return null;
    return this.atEndpoint(tenantId, monitor.alert_webhook, async () => {
      // Read again under the lock: a request at the same time may have changed or removed it.
      const current = await this.stored(tenantId, monitorId);
      if (!current) return null;
      const { item } = current;
      if (item.active === active) return { monitor: item, changed: false };
      if (active) {
        const same = await this.sameMonitor(tenantId, item.alert_webhook, item);
        if (same)
          throw new ApiError(
            'conflict',
            `monitor ${same.monitor.id} watches the same company for the same contact at the same URL, and ` +
              'is active: resuming this one would send every alert twice. Pause or delete that one first.',
          );
      }
      const now = this.clock();
      const version = current.version + 1;
      const state: Monitor = {
        monitor_id: item.id,
        tenant_id: tenantId,
        contact_id: item.contact_id,
        company: item.company,
        aliases: item.aliases,
        alert_webhook: item.alert_webhook,
        active,
        created_at: item.created_at === null ? null : Date.parse(item.created_at),
        version,
        occurred_at: now,
      };
      await this.deps.producer.send(topicNames.monitors, [{ key: item.id, value: state }]);
      const visible = await untilVisible(
        () => this.stored(tenantId, monitorId),
        // Gone means deleted meanwhile (after this state): what is answered is the state written.
        (m) => m === null || m.version >= version,
        this.deps.visibleWithinMs,
      );
      return { monitor: visible?.item ?? { ...item, active }, changed: true };
    });
  }

  /** The monitor with its own version (the event's), which its next state counts from. */
  private async stored(
    tenantId: string,
    monitorId: string,
  ): Promise<{ item: MonitorItem; version: number } | null> {
    const [row] = await this.query(tenantId, monitorId, { limit: 1, offset: 0 });
    return row ? { item: toItem(row), version: Number(row.state_version ?? 1) } : null;
  }

  private async removeAt(tenantId: string, monitorId: string): Promise<boolean> {
    // Read again under the lock: a request at the same time may have removed it.
    const monitor = await this.get(tenantId, monitorId);
    if (!monitor) return false;
    await this.deps.producer.send(topicNames.monitors, [{ key: monitorId, value: null }]);
    // Whatever its state: a webhook paused, or disabled by the service and resumed later, must not keep
    // naming a monitor that is gone.
    const webhook = await this.deps.webhooks.findServing(tenantId, monitor.alert_webhook, monitorId);
    if (webhook) await this.withoutMonitors(tenantId, webhook, [monitorId]);
    await this.waitFor(tenantId, monitorId, (m) => m === null);
    return true;
  }

  /**
   * Takes `monitorIds` out of the filter of `webhook`. A webhook left naming none goes if it was made for
   * monitors (news.alert alone), and is given back as it was if the customer registered it for other
   * events: monitors joined it by adding news.alert narrowed to them (joinWebhook).
   */
  private async withoutMonitors(
    tenantId: string,
    webhook: StoredWebhook,
    monitorIds: readonly string[],
  ): Promise<'unchanged' | 'changed' | 'deleted'> {
    const filter = webhook.item.filter;
    if (!filter || !monitorIds.some((id) => filter.monitor_ids.includes(id))) return 'unchanged';
    const rest = filter.monitor_ids.filter((id) => !monitorIds.includes(id));
    const otherEvents = webhook.item.events.filter((e) => e !== NEWS_ALERT);
    if (rest.length > 0)
      await this.deps.webhooks.change(tenantId, webhook, { filter: { ...filter, monitor_ids: rest } });
    else if (otherEvents.length === 0) {
      await this.deps.webhooks.remove(tenantId, webhook.item.id);
      return 'deleted';
    } else
      await this.deps.webhooks.change(tenantId, webhook, {
        events: otherEvents,
        filter: { ...filter, monitor_ids: [] },
      });
    return 'changed';
  }

  /** The tenant already has a webhook at this URL: it signs the monitor's alerts too. */
  private async joinWebhook(
    tenantId: string,
    webhook: StoredWebhook,
    monitorId: string,
    limits: { alertEndpoints: number | null },
  ): Promise<Signing> {
    const { item } = webhook;
    const filter = item.filter ?? noFilter();
    const receivesAlerts = item.events.includes(NEWS_ALERT);
    // An endpoint that gets every alert of the tenant already gets this monitor's.
    const allAlerts = receivesAlerts && filter.monitor_ids.length === 0;
    if (!allAlerts) {
      const join = () =>
        this.deps.webhooks.change(tenantId, webhook, {
          events: receivesAlerts ? item.events : [...item.events, NEWS_ALERT],
          filter: { ...filter, monitor_ids: [...filter.monitor_ids, monitorId] },
        });
      // Adding news.alert makes it one more alert endpoint, which the plan must allow.
      if (receivesAlerts) await join();
      else await this.deps.webhooks.addingAlertEndpoint(tenantId, limits, join);
    }
    const paused = stateNote(webhook);
    return {
      webhook_id: item.id,
      created: false,
      secret: null,
      note:
        (allAlerts
          ? `Alerts are signed with the secret of webhook ${item.id}, registered earlier for this URL, which gets every alert of the tenant.`
          : `Alerts are signed with the secret of webhook ${item.id}, registered earlier for this URL: it now also gets this monitor's news.alert, until the monitor is deleted.`) +
        paused,
    };
  }

  /**
   * A webhook registered for the monitor at `url`. One the service disabled there (its endpoint failed)
   * is not joined (findByUrl), but it is replaced: the new webhook also takes the alerts of the monitors
   * it served, which would otherwise get none (resuming it would then make a second webhook for news.alert
   * at the URL, which is refused), and they are taken out of it.
   */
  private async newWebhook(
    tenantId: string,
    url: string,
    monitorId: string,
    limits: { alertEndpoints: number | null },
  ): Promise<Signing> {
    const { webhooks } = this.deps;
    const replaced = await webhooks.disabledAlertEndpointsAt(tenantId, url);
    const taken = new Set<string>();
    for (const old of replaced) {
      const named = old.item.filter?.monitor_ids ?? [];
      // One that got every alert of the tenant served the monitors whose alerts go to its URL.
      for (const id of named.length > 0 ? named : await this.idsAt(tenantId, url)) taken.add(id);
    }
    taken.delete(monitorId);
    // Under the URL's lock already (create): register would wait for it.
    const { webhook, secret } = await webhooks.registerAt(
      tenantId,
      url,
      { url, events: [NEWS_ALERT], filter: { ...noFilter(), monitor_ids: [...taken, monitorId] } },
      limits,
    );
    const outcomes: string[] = [];
    for (const old of replaced) {
      const outcome = await this.withoutMonitors(tenantId, old, [...taken]);
      // One made for those monitors alone goes with them, its delivery log too: said, since the note names it.
      const gone = outcome === 'deleted' ? ', now deleted' : '';
      outcomes.push(
        `webhook ${old.item.id}, which the service disabled (${old.item.disabled_reason})${gone}`,
      );
    }
    const replacing =
      replaced.length === 0
        ? ''
        : ` It replaces ${outcomes.join(' and ')}` +
          (taken.size === 0
            ? '.'
            : `: the alerts of monitor${taken.size === 1 ? '' : 's'} ${[...taken].join(', ')} go to it too.`);
    return {
      webhook_id: webhook.id,
      created: true,
      secret,
      note: `Webhook ${webhook.id} was registered for this URL; its secret (shown this once) signs the alerts.${replacing}`,
    };
  }

  private waitFor(tenantId: string, monitorId: string, done: (m: MonitorItem | null) => boolean) {
    return untilVisible(() => this.get(tenantId, monitorId), done, this.deps.visibleWithinMs);
  }

  private query(
    tenantId: string,
    monitorId: string | null,
    page: { limit: number; offset: number },
    filter: MonitorFilter = {},
  ) {
    const monitors = latestVersions({
      table: 'monitors',
      key: 'monitor_id',
      columns: monitorColumns,
      where: monitorId === null ? [] : [sql`monitor_id = ${monitorId}`],
    });
    // On the latest state, as sameMonitor's: a deletion's row holds no contact, and a condition on the
    // versions would leave the deleted monitor's last live row standing for it.
    const where = [sql`tenant_id = ${tenantId}`, 'deleted = 0'];
    if (filter.contactIds?.length) where.push(sql`contact_id IN ${inList(filter.contactIds)}`);
    if (filter.active !== undefined) where.push(sql`active = ${filter.active}`);
    return this.deps.clickhouse.query<MonitorRow>(sql`
SELECT monitor_id, contact_id, company, aliases, alert_webhook, active,
  toUnixTimestamp(created_at) AS created_at, toUnixTimestamp(updated_at) AS updated_at,
  toString(state_version) AS state_version
FROM ${monitors}
WHERE ${raw(where.join(' AND '))}
ORDER BY created_at DESC, monitor_id DESC
LIMIT ${page.limit + 1} OFFSET ${page.offset}`);
  }
}

/** What the answer says of a webhook that sends nothing now: paused by the tenant, or disabled. */
function stateNote({ item }: StoredWebhook): string {
  if (item.active) return '';
  const resume = `PATCH /api/v1/webhooks/${item.id} with {"active": true}`;
  return item.disabled_reason === null
    ? ` It is paused: nothing is sent to it until it is resumed (${resume}).`
    : ` The service disabled it (${item.disabled_reason}): nothing is sent to it until it is resumed (${resume}) ` +
        'once the endpoint works again.';
}

/**
 * The webhook that sends a monitor's alerts: the one at its URL whose filter names it, else one there
 * that gets every alert of the tenant (the active one first, as findByUrl joins it).
 */
function deliveryOf(monitor: MonitorItem, webhooks: readonly StoredWebhook[]): MonitorDelivery {
  const atUrl = webhooks.filter((w) => w.item.url === monitor.alert_webhook);
  const forAll = atUrl.filter((w) => (w.item.filter?.monitor_ids.length ?? 0) === 0);
  const serving =
    atUrl.find((w) => w.item.filter?.monitor_ids.includes(monitor.id)) ??
    forAll.find((w) => w.item.active) ??
    forAll[0];
  if (!serving) return { webhook_id: null, status: 'none', disabled_reason: null };
  const { id, active, disabled_reason } = serving.item;
  return {
    webhook_id: id,
    status: active ? 'active' : disabled_reason === null ? 'paused' : 'disabled',
    disabled_reason: active ? null : disabled_reason,
  };
}

function toItem(r: MonitorRow): MonitorItem {
  return {
    id: r.monitor_id,
    contact_id: r.contact_id,
    company: r.company,
    aliases: r.aliases,
    alert_webhook: r.alert_webhook,
    active: Number(r.active) === 1,
    created_at: r.created_at === null ? null : isoTime(r.created_at),
    updated_at: isoTime(r.updated_at),
  };
}
