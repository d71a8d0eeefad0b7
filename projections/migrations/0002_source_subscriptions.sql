-- Which tenant subscribes to which source (news.source-subscriptions.v1, compacted). The latest record per
-- (tenant, source) wins; an unsubscribe writes subscribed = 0 rather than removing the row, so an analyst
-- can still see who once followed a source.
CREATE TABLE IF NOT EXISTS source_subscriptions (
  tenant_id String,
  source_id String,
  subscribed UInt8,
  updated_at DateTime('UTC'),
  version UInt64
) ENGINE = ReplacingMergeTree(version)
ORDER BY (tenant_id, source_id);
