// Sources as the API shows them: the read model's current state, the health of
// each from its polls, and whether the calling tenant subscribes to it.
import type { ClickHouse } from '../../runtime/clickhouse/client.ts';
import { latestVersions } from '../../runtime/clickhouse/latest-versions.ts';
import { inList, raw, sql } from '../../runtime/clickhouse/literal.ts';
import { isoTime } from '../../runtime/clickhouse/read-model.ts';
import { textWithoutUrlSecrets, withoutUrlSecrets } from '../../runtime/url-secrets.ts';

export interface SourceFilter {
  categories?: readonly string[];
  countries?: readonly string[];
  languages?: readonly string[];
  activeOnly?: boolean;
  /** true: only the tenant's subscriptions; false: only the others. */
  subscribed?: boolean;
}

export interface SourceHealth {
  status: 'healthy' | 'failing' | 'not_polled_yet';
  last_polled_at: string | null;
  last_poll_status: string | null;
  last_error: string | null;
  consecutive_failures: number;
  /** The interval the poller chose at its latest poll (services/poller/poll-interval.ts), and why. */
  poll_interval_seconds: number | null;
  interval_reason: string | null;
  next_poll_at: string | null;
  /** Items of the latest poll that did not become articles, and why (at most 5 reasons). */
  items_skipped: number;
  skipped_reasons: string[];
  /** What the latest poll's parse noticed without failing: an ignored charset, a body cut off. */
  warnings: string[];
}

export interface SourceItem {
  id: string;
  name: string;
  url: string;
  /** Where the source was polled before its feed moved permanently, oldest first. */
  previous_urls: string[];
  site_url: string | null;
  category: string;
  language: string;
  country: string;
  active: boolean;
  subscribed: boolean;
  /** Whether the caller's tenant added it: it counts against the plan's sources added while subscribed. */
  added_by_you: boolean;
  health: SourceHealth;
}

interface SourceRow {
  source_id: string;
  name: string;
  feed_url: string;
  previous_urls: string[];
  site_url: string | null;
  category: string;
  language: string;
  country: string;
  active: number;
  /** The tenant that added it (polled only while some tenant subscribes); null: the operator's. */
  created_by_tenant: string | null;
}

interface HealthRow {
  source_id: string;
  last_polled_at: number | string;
  last_status: string;
  last_error: string | null;
  healthy: number;
  consecutive_failures: number;
  poll_interval_seconds: number | string | null;
  interval_reason: string | null;
  next_poll_at: number | string | null;
  skipped_items: number | string;
  skipped_reasons: string[];
  warnings: string[];
}

/** How far back the latest polls are looked for first (SourceCatalog.latestPolls). */
const recentPollDays = 2;

/**
 * Whether the poller polls the source: it is active, and a source a tenant added has a tenant that
 * subscribes to it (services/poller/source-followers.ts: the last one leaving stops its polls).
 */
const polled =
  'active = 1 AND (isNull(created_by_tenant) OR source_id IN ' +
  '(SELECT source_id FROM source_subscriptions FINAL WHERE subscribed = 1))';

const sourceColumns =
  'source_id, name, feed_url, previous_urls, site_url, category, language, country, active, created_by_tenant';

const subscribedIds = (tenantId: string) =>
  sql`SELECT source_id FROM source_subscriptions FINAL WHERE tenant_id = ${tenantId} AND subscribed = 1`;

/** By name as a reader looks it up, in any case ("craigslist" beside "Craig"), then as written, then id. */
export function sourceListQuery(
  filter: SourceFilter,
  tenantId: string,
  page: { limit: number; offset: number },
): string {
  const where = ['deleted = 0'];
  if (filter.categories?.length) where.push(sql`category IN ${inList(filter.categories)}`);
  if (filter.countries?.length) where.push(sql`country IN ${inList(filter.countries)}`);
  if (filter.languages?.length) where.push(sql`language IN ${inList(filter.languages)}`);
  if (filter.activeOnly) where.push(polled);
  if (filter.subscribed !== undefined) {
    where.push(`source_id ${filter.subscribed ? 'IN' : 'NOT IN'} (${subscribedIds(tenantId)})`);
  }
  return sql`SELECT ${raw(sourceColumns)} FROM sources FINAL WHERE ${raw(where.join(' AND '))}
ORDER BY lowerUTF8(name), name, source_id LIMIT ${page.offset}, ${page.limit + 1}`;
}

export class SourceCatalog {
  constructor(private readonly clickhouse: ClickHouse) {}

  async list(
    filter: SourceFilter,
    tenantId: string,
    page: { limit: number; offset: number },
  ): Promise<{ items: SourceItem[]; hasMore: boolean }> {
    const rows = await this.clickhouse.query<SourceRow>(sourceListQuery(filter, tenantId, page));
    const pageRows = rows.slice(0, page.limit);
    return { items: await this.decorate(pageRows, tenantId), hasMore: rows.length > page.limit };
  }

  /** Which of `ids` are sources of the catalog (not removed). */
  async existing(ids: readonly string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const rows = await this.clickhouse.query<{ source_id: string }>(
      sql`SELECT source_id FROM sources FINAL WHERE deleted = 0 AND source_id IN ${inList(ids)}`,
    );
    return new Set(rows.map((r) => r.source_id));
  }

  /**
   * How many sources `tenantId` added (feeds new to the catalog) and has not unsubscribed from, leaving out
   * `except`: what the plan's added sources count (services/clients/plans.ts). One it added whose
   * subscription the read model does not show yet counts: a request adding another at once must see it.
   */
  async addedSources(tenantId: string, except: string | null = null): Promise<number> {
    const rows = await this.clickhouse.query<{ n: number | string }>(
      sql`SELECT count() AS n FROM sources FINAL
WHERE deleted = 0 AND created_by_tenant = ${tenantId} AND source_id != ${except ?? ''} AND source_id NOT IN
  (SELECT source_id FROM source_subscriptions FINAL WHERE tenant_id = ${tenantId} AND subscribed = 0)`,
    );
    return Number(rows[0]?.n ?? 0);
  }

  /** Whether `tenantId` added the source (not the operator, not another tenant). */
  async addedBy(sourceId: string, tenantId: string): Promise<boolean> {
    const rows = await this.clickhouse.query<{ n: number | string }>(
      sql`SELECT count() AS n FROM sources FINAL
WHERE source_id = ${sourceId} AND deleted = 0 AND created_by_tenant = ${tenantId}`,
    );
    return Number(rows[0]?.n ?? 0) > 0;
  }

  /**
   * The source called `name` in any case, or in its compatibility form (NFKC: "ＢＢＣ" in fullwidth
   * letters is "BBC", "ﬁ" is "fi"), with its name as it is spelled; null if none. Only the name given
   * is folded so: ClickHouse 18.16 cannot fold the stored ones, and the name to guard is the one there
   * first, which a look-alike must not take.
   */
  async byName(name: string): Promise<{ id: string; name: string } | null> {
    const given = name.trim();
    const folded = given.normalize('NFKC');
    const rows = await this.clickhouse.query<{ source_id: string; name: string }>(
      sql`SELECT source_id, name FROM sources FINAL
WHERE deleted = 0 AND lowerUTF8(name) IN (lowerUTF8(${given}), lowerUTF8(${folded})) LIMIT 1`,
    );
    return rows[0] ? { id: rows[0].source_id, name: rows[0].name } : null;
  }

  /**
   * The id of the source a canonical feed URL names: the one polled there now, else one polled there
   * before its feed moved, else the one whose id the URL derives (every source's id is its first URL's).
   * Null if none.
   */
  async idByUrl(feedUrl: string, sourceId: string): Promise<string | null> {
    const rows = await this.clickhouse.query<{ source_id: string }>(
      sql`SELECT source_id FROM sources FINAL
WHERE deleted = 0 AND (feed_url = ${feedUrl} OR has(previous_urls, ${feedUrl}) OR source_id = ${sourceId})
ORDER BY feed_url = ${feedUrl} DESC, has(previous_urls, ${feedUrl}) DESC, source_id LIMIT 1`,
    );
    return rows[0]?.source_id ?? null;
  }

  async get(sourceId: string, tenantId: string): Promise<SourceItem | null> {
    const rows = await this.clickhouse.query<SourceRow>(
      sql`SELECT ${raw(sourceColumns)} FROM sources FINAL WHERE source_id = ${sourceId} AND deleted = 0`,
    );
    const [item] = await this.decorate(rows, tenantId);
    return item ?? null;
  }

  /**
   * Each source's latest poll. feed_polls keeps every poll (a source polled every few minutes has
   * hundreds a day), so the polls of the last days are read first: a source polled in them has its
   * latest poll there, and only the sources that were not (new, paused, or polled rarely) are looked
   * for in their whole history. The read stays the size of a few days, however long the history grows.
   * The interval and the next poll are the latest given (a poll before adaptive polling gave none, and
   * content pushed by a WebSub hub schedules no poll).
   */
  private async latestPolls(ids: readonly string[]): Promise<HealthRow[]> {
    const read = (where: string[]) =>
      this.clickhouse.query<HealthRow>(sql`SELECT source_id, toUnixTimestamp(occurred_at) AS last_polled_at,
  status AS last_status, nullIf(latest_error, '') AS last_error, healthy, consecutive_failures,
  poll_interval_seconds, interval_reason, toUnixTimestamp(next_poll_at) AS next_poll_at,
  skipped_items, skipped_reasons, warnings
FROM ${latestVersions({
        table: 'feed_polls',
        key: 'source_id',
        orderedBy: 'occurred_at',
        columns: [
          'occurred_at',
          'status',
          'healthy',
          'consecutive_failures',
          'poll_interval_seconds',
          'interval_reason',
          'next_poll_at',
          // The poll's own: a move onto another source's URL, a redirect, is said on a 304 too.
          'warnings',
        ],
        aggregates: {
          // Not a column: latestVersions passes a NULL over (its argMax), so a poll without an error would
          // have shown the error of an older one; '' stands for "none" in the latest poll.
          latest_error: "argMax(ifNull(error_reason, ''), occurred_at)",
          // The items the feed held, from the latest poll that read it: a 304 reads nothing, and had wiped the
          // only word on why a feed that answers every poll gives no articles ("has no usable link").
          skipped_items: "argMaxIf(skipped_items, occurred_at, status != 'not_modified')",
          skipped_reasons: "argMaxIf(skipped_reasons, occurred_at, status != 'not_modified')",
        },
        where,
      })}`);
    const recent = await read([
      sql`source_id IN ${inList(ids)}`,
      sql`occurred_at >= now() - INTERVAL ${recentPollDays} DAY`,
    ]);
    const found = new Set(recent.map((h) => h.source_id));
    const rest = ids.filter((id) => !found.has(id));
    return rest.length === 0 ? recent : [...recent, ...(await read([sql`source_id IN ${inList(rest)}`]))];
  }

  private async decorate(rows: readonly SourceRow[], tenantId: string): Promise<SourceItem[]> {
    if (rows.length === 0) return [];
    const ids = rows.map((r) => r.source_id);
    const [healthRows, followerRows] = await Promise.all([
      this.latestPolls(ids),
      // Whether anyone follows each source and whether the caller does, read at once: two reads could
      // straddle the projection of a subscription, and show it subscribed but not polled.
      this.clickhouse.query<{ source_id: string; own: number }>(
        sql`SELECT source_id, max(tenant_id = ${tenantId}) AS own FROM source_subscriptions FINAL
WHERE subscribed = 1 AND source_id IN ${inList(ids)} GROUP BY source_id`,
      ),
    ]);
    const health = new Map(healthRows.map((h) => [h.source_id, h]));
    const followed = new Map(followerRows.map((f) => [f.source_id, Number(f.own) === 1]));
    return rows.map((r) => {
      const h = health.get(r.source_id);
      // The catalog is every tenant's: a feed's credentials are shown only to the tenants that subscribe.
      const own = followed.get(r.source_id) === true;
      const polled = Number(r.active) === 1 && (r.created_by_tenant === null || followed.has(r.source_id));
      const url = own ? (u: string) => u : withoutUrlSecrets;
      const text = own ? (t: string) => t : textWithoutUrlSecrets;
      return {
        id: r.source_id,
        name: r.name,
        url: url(r.feed_url),
        previous_urls: r.previous_urls.map(url),
        site_url: r.site_url,
        category: r.category,
        language: r.language,
        country: r.country,
        active: polled,
        subscribed: own,
        added_by_you: r.created_by_tenant === tenantId,
        health: h
          ? {
              status: Number(h.healthy) === 1 ? 'healthy' : 'failing',
              last_polled_at: isoTime(h.last_polled_at),
              last_poll_status: h.last_status,
              last_error: h.last_error === null ? null : text(h.last_error),
              consecutive_failures: Number(h.consecutive_failures),
              poll_interval_seconds:
                h.poll_interval_seconds === null ? null : Number(h.poll_interval_seconds),
              interval_reason: h.interval_reason,
              // A source nobody polls (paused, or no tenant follows it) has no next poll.
              next_poll_at: h.next_poll_at === null || !polled ? null : isoTime(h.next_poll_at),
              items_skipped: Number(h.skipped_items),
              skipped_reasons: h.skipped_reasons,
              warnings: h.warnings.map(text),
            }
          : {
              status: 'not_polled_yet',
              last_polled_at: null,
              last_poll_status: null,
              last_error: null,
              consecutive_failures: 0,
              poll_interval_seconds: null,
              interval_reason: null,
              next_poll_at: null,
              items_skipped: 0,
              skipped_reasons: [],
              warnings: [],
            },
      };
    });
  }
}
