-- source_health: the latest poll's error, next poll and interval, NULL included. argMax passes a NULL
-- over (as every ClickHouse aggregate does), so a source that recovered showed its last error beside
-- last_status 'ok', and a source no longer scheduled its last planned poll. A tuple is never NULL: its
-- element is the latest row's, NULL or not.
DROP TABLE IF EXISTS source_health;
CREATE VIEW source_health AS
SELECT
  source_id,
  max(occurred_at) AS last_polled_at,
  argMax(status, occurred_at) AS last_status,
  argMax(tuple(error_reason), occurred_at).1 AS last_error,
  argMax(healthy, occurred_at) AS healthy,
  argMax(consecutive_failures, occurred_at) AS consecutive_failures,
  argMaxIf(tuple(next_poll_at), occurred_at, trigger != 'websub').1 AS next_poll_at,
  argMaxIf(tuple(poll_interval_seconds), occurred_at, trigger != 'websub').1 AS poll_interval_seconds,
  argMaxIf(tuple(interval_reason), occurred_at, trigger != 'websub').1 AS interval_reason,
  count() AS polls,
  countIf(status = 'ok') AS polls_ok,
  countIf(trigger = 'websub') AS pushes,
  sum(new_items) AS articles_discovered,
  avg(duration_ms) AS avg_duration_ms
FROM feed_polls FINAL
GROUP BY source_id;
