-- Webhook registrations, CRM monitors, alerts and the webhook delivery log (news.webhooks.v1,
-- news.monitors.v1, news.alerts.v1, news.webhook-deliveries.v1). As everywhere, `version` is the
-- Kafka offset of the event that wrote the row, and a tombstone of a compacted topic writes
-- deleted = 1 under the same key, so the newest state wins and a replay writes the same rows.

-- The current state of each webhook registration. The signing secret itself is never stored: secret_ref
-- is it sealed (AES-256-GCM) with a key only the API and the dispatcher hold (WEBHOOK_SECRET_KEYS); the
-- API needs it here to re-state a registration it changes (a monitor added to its filter).
CREATE TABLE IF NOT EXISTS webhooks (
  webhook_id String,
  tenant_id String,
  url String,
  events Array(String),
  secret_ref String,
  filter_categories Array(String),
  filter_source_ids Array(String),
  filter_languages Array(String),
  filter_words Array(String),
  filter_monitor_ids Array(String),
  active UInt8,
  disabled_reason Nullable(String),
  created_at Nullable(DateTime('UTC')),
  updated_at DateTime('UTC'),
  deleted UInt8,
  version UInt64
) ENGINE = ReplacingMergeTree(version)
ORDER BY webhook_id;

-- The current state of each CRM monitor.
CREATE TABLE IF NOT EXISTS monitors (
  monitor_id String,
  tenant_id String,
  contact_id String,
  company String,
  aliases Array(String),
  alert_webhook String,
  active UInt8,
  created_at Nullable(DateTime('UTC')),
  updated_at DateTime('UTC'),
  deleted UInt8,
  version UInt64
) ENGINE = ReplacingMergeTree(version)
ORDER BY monitor_id;

-- Every news.alert raised (alert_id is deterministic from monitor and article, so a re-match
-- replaces rather than adds).
CREATE TABLE IF NOT EXISTS alerts (
  alert_id String,
  tenant_id String,
  monitor_id String,
  contact_id String,
  company String,
  article_id String,
  article_title String,
  article_url String,
  news_summary String,
  audio_url Nullable(String),
  matched_terms Array(String),
  occurred_at DateTime('UTC'),
  version UInt64
) ENGINE = ReplacingMergeTree(version)
ORDER BY (tenant_id, alert_id);

-- The delivery log: every job and every attempt's outcome on the main deliveries topic (the
-- retry topics carry only the jobs in between). A delivery's state is its highest version.
CREATE TABLE IF NOT EXISTS webhook_deliveries (
  delivery_id String,
  webhook_id String,
  tenant_id String,
  event_type String,
  event_id String,
  payload_json String,
  attempt UInt32,
  status String,
  due_at DateTime('UTC'),
  last_http_status Nullable(Int32),
  last_error Nullable(String),
  occurred_at DateTime('UTC'),
  version UInt64
) ENGINE = ReplacingMergeTree(version)
ORDER BY (webhook_id, delivery_id, attempt, status);
