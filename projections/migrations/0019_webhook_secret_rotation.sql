-- A webhook's previous signing secret while a rotation's grace period lasts (news.webhooks.v1
-- `previous_secret_ref` and `previous_secret_expires_at`): sealed like secret_ref, never in clear. The API
-- needs them here to re-state a registration it changes during the grace period (a PATCH, a monitor
-- joining), or that change would end the grace period early; GET shows the expiry. Rows written before
-- this column read NULL: no previous secret.
ALTER TABLE webhooks
  ADD COLUMN previous_secret_ref Nullable(String) AFTER secret_ref,
  ADD COLUMN previous_secret_expires_at Nullable(DateTime('UTC')) AFTER previous_secret_ref;
