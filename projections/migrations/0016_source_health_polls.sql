-- source_health: the next poll and the interval come from the latest *poll* of the source. A push from
-- the source's WebSub hub (trigger = 'websub') is recorded in feed_polls too, with no next poll and no
-- interval of its own: read as the latest row, it hid when the source is polled next.
DROP TABLE IF EXISTS source_health;
CREATE VIEW source_health AS
SELECT
  source_id,
  max(occurred_at) AS last_polled_at,
  argMax(status, occurred_at) AS last_status,
  argMax(error_reason, occurred_at) AS last_error,
  argMax(healthy, occurred_at) AS healthy,
  argMax(consecutive_failures, occurred_at) AS consecutive_failures,
  argMaxIf(next_poll_at, occurred_at, trigger != 'websub') AS next_poll_at,
  argMaxIf(poll_interval_seconds, occurred_at, trigger != 'websub') AS poll_interval_seconds,
  argMaxIf(interval_reason, occurred_at, trigger != 'websub') AS interval_reason,
  count() AS polls,
  countIf(status = 'ok') AS polls_ok,
  countIf(trigger = 'websub') AS pushes,
  sum(new_items) AS articles_discovered,
  avg(duration_ms) AS avg_duration_ms
FROM feed_polls FINAL
GROUP BY source_id;
