// Fan-out: every alert becomes one pending delivery job per webhook subscribed to it, appended to
// news.webhook-deliveries.v1 keyed by webhook id (so one endpoint's jobs share a partition). The job
// carries the exact body to sign and send, built once here and never re-serialised.
//
// Delivery ids are derived from (event type, alert, webhook), not random: replaying the alerts topic,
// or a batch retried after a crash before its offsets were committed, appends jobs with the same ids,
// and receivers dedupe on the `webhook-id` header they become.
import { hash } from 'node:crypto';
import type { Alert, WebhookDelivery } from '../runtime/events/types.generated.ts';
import type { BatchHandler } from '../runtime/kafka/consumer.ts';
import { DependencyUnavailableError } from '../runtime/kafka/errors.ts';
import type { EventProducer } from '../runtime/kafka/producer.ts';
import { topicNames } from '../runtime/kafka/topics.ts';
import type { Logger } from '../runtime/logger.ts';
import type { AudioUrls } from '../audio/audio-urls.ts';
import { alertData } from '../webhooks/alert-data.ts';
import { pendingJob } from '../webhooks/delivery-job.ts';
import { NEWS_ALERT } from '../webhooks/event-types.ts';
import type { WebhookDirectory } from './webhook-directory.ts';

/**
 * `msg_` + 32 hex characters (128 bits of a SHA-256): stable for the same event and webhook, unique
 * otherwise, and within the Standard Webhooks id alphabet.
 */
export function deliveryId(eventType: string, eventId: string, webhookId: string): string {
  // One-shot crypto.hash: no Hash object and stream around it per delivery (a third of createHash's cost).
  const digest = hash('sha256', `${eventType}\n${eventId}\n${webhookId}`, 'hex');
  return `msg_${digest.slice(0, 32)}`;
}

/** The news.alert body: `event`, `timestamp` (ISO 8601 UTC, when the alert was raised), `data` (alert-data.ts). */
export function alertPayload(alert: Alert, audio?: AudioUrls): string {
  return JSON.stringify({
    event: NEWS_ALERT,
    timestamp: new Date(alert.occurred_at).toISOString(),
    data: alertData(alert, audio),
  });
}

/** The first-attempt job of one event for one webhook, due now. */
export function firstDeliveryJob(
  event: { type: string; id: string; payload: string },
  webhook: { webhook_id: string; tenant_id: string },
  now: Date,
): WebhookDelivery {
  return pendingJob(
    {
      delivery_id: deliveryId(event.type, event.id, webhook.webhook_id),
      webhook_id: webhook.webhook_id,
      tenant_id: webhook.tenant_id,
      event_type: event.type,
      event_id: event.id,
      payload_json: event.payload,
    },
    now.getTime(),
  );
}

/** The first-attempt jobs for one alert, one per webhook, due now. */
export function alertDeliveryJobs(
  alert: Alert,
  webhooks: readonly { webhook_id: string; tenant_id: string }[],
  now: Date,
  audio?: AudioUrls,
): WebhookDelivery[] {
  const event = { type: NEWS_ALERT, id: alert.alert_id, payload: alertPayload(alert, audio) };
  return webhooks.map((webhook) => firstDeliveryJob(event, webhook, now));
}

export interface FanOutDeps {
  directory: Pick<WebhookDirectory, 'catchUp' | 'subscribers'>;
  producer: Pick<EventProducer, 'send'>;
  logger: Logger;
  /**
   * Writes data.audio_url: the narration's file, or the article's narration when the alert has no key
   * (webhooks/alert-data.ts). The dispatcher gives unsigned addresses, stored in the job, which each
   * attempt signs (payload-audio-urls.ts).
   */
  audio?: AudioUrls;
  clock?: () => Date;
}

/**
 * The batch handler of the news.alerts.v1 consumer. The runner commits the batch's offsets only after
 * this returned, i.e. after the jobs were appended; a failure appends them again on the retry, with the
 * same delivery ids.
 */
export function fanOutHandler(deps: FanOutDeps): BatchHandler<Alert> {
  const clock = deps.clock ?? (() => new Date());
  return async (events) => {
    await unavailableOnError('reading news.webhooks.v1', () => deps.directory.catchUp());
    const now = clock();
    const jobs: WebhookDelivery[] = [];
    for (const { value: alert } of events) {
      if (alert === null) continue; // alerts are a stream: a tombstone means nothing here
      const webhooks = deps.directory.subscribers(alert.tenant_id, NEWS_ALERT, alert.monitor_id);
      jobs.push(...alertDeliveryJobs(alert, webhooks, now, deps.audio));
      if (webhooks.length > 0) {
        deps.logger.debug({ alertId: alert.alert_id, webhooks: webhooks.length }, 'alert fanned out');
      }
    }
    await unavailableOnError(`appending to ${topicNames.webhookDeliveries}`, () =>
      deps.producer.send(
        topicNames.webhookDeliveries,
        jobs.map((job) => ({ key: job.webhook_id, value: job })),
      ),
    );
  };
}

/**
 * Kafka failing is never the events' fault: the runner must wait for it, not dead-letter the alerts (or
 * documentaries) after its retries, which would lose their deliveries.
 */
export async function unavailableOnError<T>(what: string, step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (error) {
    throw new DependencyUnavailableError(`${what} failed: ${(error as Error).message}`, { cause: error });
  }
}
