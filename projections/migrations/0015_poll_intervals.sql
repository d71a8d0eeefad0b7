-- Adaptive polling and WebSub (news.feed-polls.v1 poll_interval_seconds, interval_reason, trigger):
-- the interval the poller chose for the source at each poll and why, and whether the content was
-- polled or pushed by the source's hub. Rows projected before this migration read null and 'poll'.
ALTER TABLE feed_polls ADD COLUMN poll_interval_seconds Nullable(UInt32) AFTER next_poll_at;
ALTER TABLE feed_polls ADD COLUMN interval_reason Nullable(String) AFTER poll_interval_seconds;
ALTER TABLE feed_polls ADD COLUMN trigger String DEFAULT 'poll' AFTER interval_reason;

-- source_health gains the latest interval and its reason (a view is replaced whole).
DROP TABLE IF EXISTS source_health;
CREATE VIEW source_health AS
SELECT
  source_id,
  max(occurred_at) AS last_polled_at,
  argMax(status, occurred_at) AS last_status,
  argMax(error_reason, occurred_at) AS last_error,
  argMax(healthy, occurred_at) AS healthy,
  argMax(consecutive_failures, occurred_at) AS consecutive_failures,
  argMax(next_poll_at, occurred_at) AS next_poll_at,
  argMax(poll_interval_seconds, occurred_at) AS poll_interval_seconds,
  argMax(interval_reason, occurred_at) AS interval_reason,
  count() AS polls,
  countIf(status = 'ok') AS polls_ok,
  countIf(trigger = 'websub') AS pushes,
  sum(new_items) AS articles_discovered,
  avg(duration_ms) AS avg_duration_ms
FROM feed_polls FINAL
GROUP BY source_id;
