// A delivery job that starts the retry schedule from its first attempt, due now: the first delivery of
// an event, a test ping, or the re-send of a dead-lettered delivery. What identifies the job comes in;
// its state is always the same, so it is written once here.
import type { WebhookDelivery } from '../runtime/events/types.generated.ts';

export type DeliveryJobIdentity = Pick<
  WebhookDelivery,
  'delivery_id' | 'webhook_id' | 'tenant_id' | 'event_type' | 'event_id' | 'payload_json'
>;

export const pendingJob = (job: DeliveryJobIdentity, now: number): WebhookDelivery => ({
  ...job,
  attempt: 1,
  due_at: now,
  status: 'pending',
  last_http_status: null,
  last_error: null,
  occurred_at: now,
});
