// The delivery log of a webhook, from the `webhook_deliveries` read model (every job and attempt
// outcome the dispatcher appended to news.webhook-deliveries.v1). A delivery's state is its newest
// record; the attempts it took are the outcomes recorded for it.
import type { ClickHouse } from '../runtime/clickhouse/client.ts';
import { latestVersions } from '../runtime/clickhouse/latest-versions.ts';
import { isDateTimeSeconds, raw, sql } from '../runtime/clickhouse/literal.ts';
import type { WebhookDelivery } from '../runtime/events/types.generated.ts';
import { isoTime } from '../runtime/clickhouse/read-model.ts';
import { pendingJob } from './delivery-job.ts';

export const deliveryStatuses = [
  'pending',
  'succeeded',
  'failed_retrying',
  'dead_lettered',
  'disabled',
] as const;

export interface DeliveryItem {
  id: string;
  event_type: string;
  event_id: string;
  status: string;
  attempts: number;
  last_http_status: number | null;
  last_error: string | null;
  created_at: string;
  updated_at: string;
}

export interface DeliveryRow {
  delivery_id: string;
  webhook_id: string;
  tenant_id: string;
  event_type: string;
  event_id: string;
  status: string;
  attempts: number | string;
  last_http_status: number | null;
  last_error: string | null;
  first_at: number | string;
  last_at: number | string;
}

export interface StoredDelivery {
  item: DeliveryItem;
  payloadJson: string;
  webhookId: string;
  tenantId: string;
}

/**
 * A position in the delivery log: the last delivery of a page, by when it was made (its first record,
 * which never changes) and its id. The log is newest first, so deliveries made during a walk sort before
 * the position (or, made in its very second, may fall after it and be listed once): none made before the
 * walk is repeated or skipped, where an offset walk listed some twice.
 */
export interface DeliveryCursor {
  /** Unix seconds. */
  createdAt: number;
  id: string;
}

const cursorMark = 'deliveries';

export function encodeDeliveryCursor(cursor: DeliveryCursor): string {
  return Buffer.from(JSON.stringify([cursorMark, cursor.createdAt, cursor.id]), 'utf8').toString('base64url');
}

/** Null when the text is not a delivery cursor this API issued. */
export function decodeDeliveryCursor(text: string): DeliveryCursor | null {
  try {
    const value: unknown = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
    if (
      Array.isArray(value) &&
      value.length === 3 &&
      value[0] === cursorMark &&
      isDateTimeSeconds(value[1]) &&
      typeof value[2] === 'string' &&
      value[2].length > 0 &&
      value[2].length <= 200
    )
      return { createdAt: value[1], id: value[2] };
  } catch {
    // not base64url JSON: fall through
  }
  return null;
}

export class DeliveryLog {
  constructor(private readonly clickhouse: ClickHouse) {}

  /**
   * A page newest first, `offset` rows on from `after` (a cursor) when given, else from the newest: as
   * the article list pages (a cursor with an offset was answered as if the offset were 0, and the
   * answer still said it was applied).
   */
  async list(
    webhookId: string,
    filter: { status?: string | undefined },
    page: { limit: number; offset: number; after?: DeliveryCursor | undefined },
  ): Promise<{ items: DeliveryItem[]; hasMore: boolean; nextCursor: string | null }> {
    const rows = await this.clickhouse.query<DeliveryRow>(
      this.latest(webhookId, null, filter.status, page.limit + 1, page.offset, page.after),
    );
    const items = rows.slice(0, page.limit);
    const last = items.at(-1);
    const hasMore = rows.length > page.limit;
    return {
      items: items.map(toItem),
      hasMore,
      nextCursor:
        hasMore && last
          ? encodeDeliveryCursor({ createdAt: Number(last.first_at), id: last.delivery_id })
          : null,
    };
  }

  /** The delivery's current state and the exact payload it carries, for a re-send. */
  async get(webhookId: string | null, deliveryId: string): Promise<StoredDelivery | null> {
    const [row] = await this.clickhouse.query<DeliveryRow & { payload_json: string }>(
      this.latest(webhookId, deliveryId, undefined, 1, 0),
    );
    return row
      ? {
          item: toItem(row),
          payloadJson: row.payload_json,
          webhookId: row.webhook_id,
          tenantId: row.tenant_id,
        }
      : null;
  }

  /** Dead-lettered deliveries of every webhook, newest first (the admin command). */
  async deadLetters(limit: number): Promise<(DeliveryItem & { webhook_id: string; tenant_id: string })[]> {
    const rows = await this.clickhouse.query<DeliveryRow>(this.latest(null, null, 'dead_lettered', limit, 0));
    return rows.map((r) => ({ ...toItem(r), webhook_id: r.webhook_id, tenant_id: r.tenant_id }));
  }

  private latest(
    webhookId: string | null,
    deliveryId: string | null,
    status: string | undefined,
    limit: number,
    offset: number,
    after?: DeliveryCursor,
  ): string {
    const where: string[] = [];
    if (webhookId !== null) where.push(sql`webhook_id = ${webhookId}`);
    if (deliveryId !== null) where.push(sql`delivery_id = ${deliveryId}`);
    // Every record of a delivery carries the same job; its outcome is the newest record's.
    const deliveries = latestVersions({
      table: 'webhook_deliveries',
      key: 'delivery_id',
      columns: ['status', 'last_http_status', 'last_error'],
      aggregates: {
        webhook_id: 'any(webhook_id)',
        tenant_id: 'any(tenant_id)',
        event_type: 'any(event_type)',
        event_id: 'any(event_id)',
        payload_json: 'any(payload_json)',
        // Requests made: a delivery disabled without one (its webhook deleted or paused meanwhile) made
        // none; one disabled by a 410 made one.
        attempts: "countIf(status != 'pending' AND NOT (status = 'disabled' AND last_http_status IS NULL))",
        first_at: 'min(occurred_at)',
        last_at: 'max(occurred_at)',
      },
      where,
    });
    // On the answer's columns: `first_at` is the SELECT's (Unix seconds), as ClickHouse reads an alias.
    const outer: string[] = [];
    if (status !== undefined) outer.push(sql`status = ${status}`);
    if (after !== undefined)
      outer.push(
        sql`(first_at < ${after.createdAt} OR (first_at = ${after.createdAt} AND delivery_id < ${after.id}))`,
      );
    return sql`
SELECT delivery_id, webhook_id, tenant_id, event_type, event_id, status, attempts, last_http_status, last_error,
  toUnixTimestamp(first_at) AS first_at, toUnixTimestamp(last_at) AS last_at, payload_json
FROM ${deliveries}
${raw(outer.length === 0 ? '' : `WHERE ${outer.join(' AND ')}`)}
ORDER BY first_at DESC, delivery_id DESC
LIMIT ${limit} OFFSET ${offset}`;
  }
}

export function toItem(r: DeliveryRow): DeliveryItem {
  return {
    id: r.delivery_id,
    event_type: r.event_type,
    event_id: r.event_id,
    status: r.status,
    attempts: Number(r.attempts),
    last_http_status: r.last_http_status,
    // The newest non-null error (latestVersions passes over NULLs): an earlier attempt's, which a
    // delivery that then succeeded had kept showing beside its 200.
    last_error: r.status === 'succeeded' ? null : r.last_error,
    created_at: isoTime(r.first_at),
    updated_at: isoTime(r.last_at),
  };
}

/** Why a delivery cannot be sent again, or null when it can (only a dead-lettered one can). */
export function whyNotResend(delivery: StoredDelivery): string | null {
  return delivery.item.status === 'dead_lettered'
    ? null
    : `only a dead-lettered delivery can be sent again; this one is ${delivery.item.status}`;
}

/** The job that sends a delivery again: the same payload and id (so the same webhook-id), attempt 1, due now. */
export function resendJob(delivery: StoredDelivery, now: number): WebhookDelivery {
  return pendingJob(
    {
      delivery_id: delivery.item.id,
      webhook_id: delivery.webhookId,
      tenant_id: delivery.tenantId,
      event_type: delivery.item.event_type,
      event_id: delivery.item.event_id,
      payload_json: delivery.payloadJson,
    },
    now,
  );
}
