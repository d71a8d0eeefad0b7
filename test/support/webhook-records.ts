// Records shared by the dispatcher's unit tests. Not a test file itself: vitest only collects *.test.ts.
import type { Alert, Webhook, WebhookDelivery } from '../../services/runtime/events/types.generated.ts';

export function webhookWith(overrides: Partial<Webhook> = {}): Webhook {
  return {
    webhook_id: 'wh_1',
    tenant_id: 'ten_1',
    url: 'https://hooks.example/news',
    events: ['news.alert'],
    filter: null,
    secret_ref: 'sealed',
    previous_secret_ref: null,
    previous_secret_expires_at: null,
    active: true,
    disabled_reason: null,
    created_at: 1_000,
    version: 1,
    occurred_at: 1_000,
    ...overrides,
  };
}

export function alertWith(overrides: Partial<Alert> = {}): Alert {
  return {
    alert_id: 'al_1',
    tenant_id: 'ten_1',
    monitor_id: 'mon_1',
    contact_id: 'crm-42',
    company: 'Acme Widgets',
    article_id: 'art_1',
    article_title: 'Acme Widgets opens a plant',
    article_url: 'https://news.example/acme',
    article_source_name: 'Harbour Gazette',
    article_publisher_name: null,
    article_publisher_url: null,
    article_published_at: Date.UTC(2026, 0, 5, 8, 0),
    news_summary: 'Acme Widgets said on Monday it would open a plant.',
    audio_url: null,
    audio_key: null,
    matched_terms: ['Acme Widgets'],
    occurred_at: Date.UTC(2026, 0, 5, 9, 30, 0, 123),
    ...overrides,
  };
}

export function jobWith(overrides: Partial<WebhookDelivery> = {}): WebhookDelivery {
  return {
    delivery_id: 'msg_0123456789abcdef0123456789abcdef',
    webhook_id: 'wh_1',
    tenant_id: 'ten_1',
    event_type: 'news.alert',
    event_id: 'al_1',
    payload_json: '{"event":"news.alert","timestamp":"2026-01-05T09:30:00.123Z","data":{}}',
    attempt: 1,
    due_at: 5_000,
    status: 'pending',
    last_http_status: null,
    last_error: null,
    occurred_at: 5_000,
    ...overrides,
  };
}
