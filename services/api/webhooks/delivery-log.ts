// The delivery log of a webhook, from the `webhook_deliveries` read model (every job and attempt
// outcome the dispatcher appended to news.webhook-deliveries.v1). A delivery's state is its newest
// record; the attempts it took are the outcomes recorded for it.
import type { ClickHouse } from '../../runtime/clickhouse/client.ts';
import { raw, sql } from '../../runtime/clickhouse/literal.ts';
import type { WebhookDelivery } from '../../runtime/events/types.generated.ts';
import { isoTime } from '../http/read-model.ts';

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

interface DeliveryRow {
  delivery_id: string;
  d_webhook: string;
  d_tenant: string;
  d_event_type: string;
  d_event_id: string;
  d_status: string;
  d_attempts: number | string;
  d_http: number | null;
  d_error: string | null;
  d_first: number | string;
  d_last: number | string;
}

export interface StoredDelivery {
  item: DeliveryItem;
  payloadJson: string;
  webhookId: string;
  tenantId: string;
}

export class DeliveryLog {
  constructor(private readonly clickhouse: ClickHouse) {}

  async list(
    webhookId: string,
    filter: { status?: string | undefined },
    page: { limit: number; offset: number },
  ): Promise<{ items: DeliveryItem[]; hasMore: boolean }> {
    const rows = await this.clickhouse.query<DeliveryRow>(
      this.latest(webhookId, null, filter.status, page.limit + 1, page.offset),
    );
    return { items: rows.slice(0, page.limit).map(toItem), hasMore: rows.length > page.limit };
  }

  /** The delivery's current state and the exact payload it carries, for a re-send. */
  async get(webhookId: string | null, deliveryId: string): Promise<StoredDelivery | null> {
    const [row] = await this.clickhouse.query<DeliveryRow & { d_payload: string }>(
      this.latest(webhookId, deliveryId, undefined, 1, 0),
    );
    return row
      ? { item: toItem(row), payloadJson: row.d_payload, webhookId: row.d_webhook, tenantId: row.d_tenant }
      : null;
  }

  /** Dead-lettered deliveries of every webhook, newest first (the admin command). */
  async deadLetters(limit: number): Promise<(DeliveryItem & { webhook_id: string; tenant_id: string })[]> {
    const rows = await this.clickhouse.query<DeliveryRow>(this.latest(null, null, 'dead_lettered', limit, 0));
    return rows.map((r) => ({ ...toItem(r), webhook_id: r.d_webhook, tenant_id: r.d_tenant }));
  }

  private latest(
    webhookId: string | null,
    deliveryId: string | null,
    status: string | undefined,
    limit: number,
    offset: number,
  ): string {
    return sql`
SELECT delivery_id, any(webhook_id) AS d_webhook, any(tenant_id) AS d_tenant, any(event_type) AS d_event_type, any(event_id) AS d_event_id,
  argMax(status, version) AS d_status, countIf(status != 'pending') AS d_attempts,
  argMax(last_http_status, version) AS d_http, argMax(last_error, version) AS d_error,
  toUnixTimestamp(min(occurred_at)) AS d_first, toUnixTimestamp(max(occurred_at)) AS d_last,
  any(payload_json) AS d_payload
FROM webhook_deliveries
WHERE 1 ${raw(webhookId === null ? '' : sql`AND webhook_id = ${webhookId}`)}
  ${raw(deliveryId === null ? '' : sql`AND delivery_id = ${deliveryId}`)}
GROUP BY delivery_id
${raw(status === undefined ? '' : sql`HAVING d_status = ${status}`)}
ORDER BY d_first DESC, delivery_id DESC
LIMIT ${limit} OFFSET ${offset}`;
  }
}

function toItem(r: DeliveryRow): DeliveryItem {
  return {
    id: r.delivery_id,
    event_type: r.d_event_type,
    event_id: r.d_event_id,
    status: r.d_status,
    attempts: Number(r.d_attempts),
    last_http_status: r.d_http,
    last_error: r.d_error,
    created_at: isoTime(r.d_first),
    updated_at: isoTime(r.d_last),
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
  return {
    delivery_id: delivery.item.id,
    webhook_id: delivery.webhookId,
    tenant_id: delivery.tenantId,
    event_type: delivery.item.event_type,
    event_id: delivery.item.event_id,
    payload_json: delivery.payloadJson,
    attempt: 1,
    due_at: now,
    status: 'pending',
    last_http_status: null,
    last_error: null,
    occurred_at: now,
  };
}
