-- Audio documentaries (news.documentaries.v1): every lifecycle event is a row, so the table is both
-- the status history of each documentary (requested, the steps it progressed through, ready or failed)
-- and, through its newest row, the current state the API serves. `version` is the event's Kafka offset;
-- a documentary's events share a partition (keyed by its id), so its newest row has the highest
-- version. Projecting an event twice replaces its own row.
--
-- elapsed_ms is the time since the request, in milliseconds (DateTime here keeps seconds only), so a
-- step's duration is the difference between two rows. The script and the cited articles are JSON text
-- (articles_json, segments_json, as the API serves them); their ids are also plain arrays for SQL.
CREATE TABLE IF NOT EXISTS documentaries (
  documentary_id String,
  tenant_id String,
  topic String,
  sources Array(String),
  format String,
  status String,
  stage Nullable(String),
  progress Nullable(Float64),
  length String,
  language Nullable(String),
  voice Nullable(String),
  date_range Nullable(String),
  period_from Nullable(DateTime('UTC')),
  period_to Nullable(DateTime('UTC')),
  max_articles Nullable(UInt32),
  article_ids Array(String),
  article_count UInt32,
  story_count UInt32,
  articles_json String,
  segments_json String,
  audio_url Nullable(String),
  audio_key Nullable(String),
  transcript_url Nullable(String),
  transcript_key Nullable(String),
  transcript_json_key Nullable(String),
  duration_ms Nullable(UInt64),
  failure_code Nullable(String),
  failure_reason Nullable(String),
  requested_at DateTime('UTC'),
  occurred_at DateTime('UTC'),
  elapsed_ms UInt64,
  version UInt64
) ENGINE = ReplacingMergeTree(version)
ORDER BY (documentary_id, version);
