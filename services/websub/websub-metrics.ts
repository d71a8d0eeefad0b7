// What WebSub counts, on the process's metrics registry: every notification by outcome (a forged or
// missing signature shows here, not only in a log line) and every step of the subscriptions.
import { Counter, type Registry } from 'prom-client';

export type NotificationOutcome =
  'accepted' | 'unsigned' | 'bad_signature' | 'unknown_source' | 'too_large' | 'unparseable';

export type SubscriptionOutcome =
  | 'requested'
  | 'renewal_requested'
  | 'verified'
  | 'denied'
  | 'unconfirmed'
  | 'refused'
  | 'failed'
  | 'unsubscribe_requested'
  | 'unsubscribed'
  | 'verification_rejected';

export interface WebsubMetrics {
  notification(outcome: NotificationOutcome): void;
  subscription(outcome: SubscriptionOutcome): void;
}

export function websubMetrics(registry: Registry): WebsubMetrics {
  const notifications = new Counter({
    name: 'websub_notifications_total',
    help: 'WebSub notifications received, by outcome (accepted, unsigned, bad_signature, unknown_source, too_large, unparseable).',
    labelNames: ['outcome'],
    registers: [registry],
  });
  const subscriptions = new Counter({
    name: 'websub_subscriptions_total',
    help: 'WebSub subscription steps, by outcome (requested, renewal_requested, verified, denied, unconfirmed, refused, failed, unsubscribe_requested, unsubscribed, verification_rejected).',
    labelNames: ['outcome'],
    registers: [registry],
  });
  return {
    notification: (outcome) => notifications.inc({ outcome }),
    subscription: (outcome) => subscriptions.inc({ outcome }),
  };
}
