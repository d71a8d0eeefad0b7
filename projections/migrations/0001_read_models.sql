-- Read models, projected from the Kafka topics by the projector. Every table can be rebuilt by replaying
-- its topic. `version` is the Kafka offset of the event that wrote the row: offsets only grow for a key
-- (a key always lands on the same partition) and a replay reproduces them, so ReplacingMergeTree keeps
-- the newest state and projecting twice leaves the same rows (read with FINAL, or argMax by version).
-- Valid on ClickHouse 18.16 and current releases: no DateTime64, no LowCardinality, no TTL.

-- An article as discovered in a feed (news.articles.discovered.v1).
CREATE TABLE IF NOT EXISTS articles (
  article_id String,
  source_id String,
  source_name String,
  url String,
  original_url String,
  guid Nullable(String),
  title String,
  summary String,
  content String,
  author Nullable(String),
  published_at DateTime('UTC'),
  published_at_clamped UInt8,
  discovered_at DateTime('UTC'),
  language String,
  category String,
  image_url Nullable(String),
  version UInt64
) ENGINE = ReplacingMergeTree(version)
PARTITION BY toYear(published_at)
ORDER BY (published_at, article_id);

-- The latest AI enrichment of each article (news.articles.enriched.v1).
CREATE TABLE IF NOT EXISTS article_enrichments (
  article_id String,
  status String,
  failure_reason Nullable(String),
  summary Nullable(String),
  context Nullable(String),
  insights Array(String),
  sentiment_label Nullable(String),
  sentiment_score Nullable(Float64),
  entity_names Array(String),
  entity_types Array(String),
  keywords Array(String),
  category Nullable(String),
  language Nullable(String),
  reading_time_seconds Nullable(UInt32),
  provider String,
  model String,
  enriched_at DateTime('UTC'),
  version UInt64
) ENGINE = ReplacingMergeTree(version)
ORDER BY article_id;

-- The latest narration of each article (news.articles.narrated.v1).
CREATE TABLE IF NOT EXISTS article_narrations (
  article_id String,
  status String,
  failure_reason Nullable(String),
  audio_url Nullable(String),
  voice Nullable(String),
  format Nullable(String),
  duration_ms Nullable(UInt64),
  characters Nullable(UInt32),
  provider String,
  narrated_at DateTime('UTC'),
  version UInt64
) ENGINE = ReplacingMergeTree(version)
ORDER BY article_id;

-- The current state of each source (news.sources.v1, compacted; a tombstone writes deleted = 1).
CREATE TABLE IF NOT EXISTS sources (
  source_id String,
  name String,
  feed_url String,
  site_url Nullable(String),
  category String,
  language String,
  country String,
  active UInt8,
  poll_interval_seconds UInt32,
  created_by_tenant Nullable(String),
  created_at Nullable(DateTime('UTC')),
  updated_at DateTime('UTC'),
  deleted UInt8,
  version UInt64
) ENGINE = ReplacingMergeTree(version)
ORDER BY source_id;

-- Every poll of every source (news.feed-polls.v1).
CREATE TABLE IF NOT EXISTS feed_polls (
  poll_id String,
  source_id String,
  feed_url String,
  status String,
  http_status Nullable(UInt16),
  items_seen UInt32,
  new_items UInt32,
  skipped_items UInt32,
  error_reason Nullable(String),
  duration_ms UInt32,
  consecutive_failures UInt32,
  healthy UInt8,
  started_at DateTime('UTC'),
  occurred_at DateTime('UTC'),
  next_poll_at Nullable(DateTime('UTC')),
  version UInt64
) ENGINE = ReplacingMergeTree(version)
PARTITION BY toYYYYMM(occurred_at)
ORDER BY (source_id, occurred_at, poll_id);

-- Health of each source: its latest poll, and its record over all polls.
CREATE VIEW IF NOT EXISTS source_health AS
SELECT
  source_id,
  max(occurred_at) AS last_polled_at,
  argMax(status, occurred_at) AS last_status,
  argMax(error_reason, occurred_at) AS last_error,
  argMax(healthy, occurred_at) AS healthy,
  argMax(consecutive_failures, occurred_at) AS consecutive_failures,
  argMax(next_poll_at, occurred_at) AS next_poll_at,
  count() AS polls,
  countIf(status = 'ok') AS polls_ok,
  sum(new_items) AS articles_discovered,
  avg(duration_ms) AS avg_duration_ms
FROM feed_polls FINAL
GROUP BY source_id;

-- Articles per source per hour of publication (each article counted once, however often it was projected).
CREATE VIEW IF NOT EXISTS articles_per_source_hour AS
SELECT source_id, toStartOfHour(published_at) AS hour, uniqExact(article_id) AS articles
FROM articles
GROUP BY source_id, hour;

-- Articles per category per day of publication.
CREATE VIEW IF NOT EXISTS articles_per_category_day AS
SELECT category, toDate(published_at) AS day, uniqExact(article_id) AS articles
FROM articles
GROUP BY category, day;
