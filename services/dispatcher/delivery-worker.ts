// One attempt of one delivery job, from the job to what must be appended about it. The HTTP request is
// the only side effect here: the records (outcome, follow-up job, dead letter, disabled webhook) are
// returned as data and appended by the caller, which retries the appends alone, so a Kafka hiccup
// never makes us POST twice, and commits the job's offset only once they are written.
//
// Outcomes, all appended to news.webhook-deliveries.v1 (the delivery log):
//   2xx                       → succeeded
//   410 Gone                  → disabled, and the webhook is disabled (a new news.webhooks.v1 state)
//   webhook deleted/inactive  → disabled, no request
//   other failure             → failed_retrying + the next pending job on the retry topic the plan names,
//                               due after the plan's delay spread, or later if a 429/503 asked with
//                               Retry-After (retry-timing.ts), or, after the last attempt (or if retrying
//                               cannot help), dead_lettered + the job on news.webhook-deliveries.v1.dlq
import type { AudioUrls } from '../audio/audio-urls.ts';
import { signedPayload } from '../audio/payload-audio-urls.ts';
import type { Webhook, WebhookDelivery } from '../runtime/events/types.generated.ts';
import { topicNames } from '../runtime/kafka/topics.ts';
import type { Logger } from '../runtime/logger.ts';
import type { DeliveryClient, DeliveryOutcome } from '../webhooks/delivery-client.ts';
import { WEBHOOK_TEST } from '../webhooks/event-types.ts';
import type { RetryPlan } from '../webhooks/retry-plan.ts';
import { receiverWait, retryAfterNote } from '../webhooks/retry-timing.ts';
import type { SigningKeys } from '../webhooks/signing-keys.ts';
import { signatureHeadersWithKeys } from '../webhooks/signing.ts';
import { signingSecretRefs } from '../webhooks/secret-rotation.ts';
import type { WebhookDirectory } from './webhook-directory.ts';

export const GONE_REASON = 'the endpoint answered 410 Gone';

/** A record the attempt produced, in the order it must be appended. */
export type Append =
  /** To the delivery log (outcomes) or a retry topic (the next job); keyed by webhook id. */
  | { kind: 'delivery'; topic: string; record: WebhookDelivery }
  /** The exhausted job, to news.webhook-deliveries.v1.dlq. */
  | { kind: 'dead-letter'; record: WebhookDelivery; reason: string }
  /** A new state of the webhook (disabled after 410), to news.webhooks.v1. */
  | { kind: 'webhook'; state: Webhook };

export type AttemptStatus = Exclude<WebhookDelivery['status'], 'pending' | 'unknown'>;

export interface AttemptResult {
  status: AttemptStatus;
  appends: Append[];
}

export interface DeliveryWorkerDeps {
  directory: Pick<WebhookDirectory, 'get' | 'catchUp'>;
  /** The HMAC key of each webhook's sealed secret. */
  secrets: Pick<SigningKeys, 'keyOf'>;
  client: Pick<DeliveryClient, 'deliver'>;
  plan: RetryPlan;
  logger: Logger;
  /**
   * Signs the unsigned audio addresses of the stored payload into the body each attempt sends
   * (payload-audio-urls.ts); absent: the body is sent as stored.
   */
  audio?: AudioUrls;
  clock?: () => Date;
}

type Failure = Extract<DeliveryOutcome, { kind: 'failed' }>;

export class DeliveryWorker {
  private readonly clock: () => Date;

  constructor(private readonly deps: DeliveryWorkerDeps) {
    this.clock = deps.clock ?? (() => new Date());
  }

  /** Makes attempt `job.attempt` of a pending job. Never throws for a failed delivery: that is an outcome. */
  async attempt(job: WebhookDelivery): Promise<AttemptResult> {
    let webhook = this.deps.directory.get(job.webhook_id);
    if (whyNotDeliver(job, webhook) !== null) {
      // The instance that fanned the job out knew the webhook; this one may be a few records behind.
      await this.deps.directory.catchUp();
      webhook = this.deps.directory.get(job.webhook_id);
    }
    const refusal = whyNotDeliver(job, webhook);
    if (refusal !== null || webhook === undefined) {
      return this.finish(job, { status: 'disabled', httpStatus: null, error: refusal, durationMs: null });
    }

    // Signed for this attempt: the stored job holds no signed URL (news.webhook-deliveries.v1 is read by
    // others), and a retry days later gets URLs that play as long as the first attempt's did.
    const body = this.deps.audio ? signedPayload(job.payload_json, this.deps.audio) : job.payload_json;
    let headers;
    try {
      // The webhook's secrets as they are at this attempt, not when the job was queued: after a rotation
      // a retry is signed with the new secret, and with the previous one only while its grace period lasts.
      const now = this.clock();
      const keys = signingSecretRefs(webhook, now.getTime()).map((ref) => this.deps.secrets.keyOf(ref));
      headers = signatureHeadersWithKeys({ id: job.delivery_id, timestamp: now, body }, keys);
    } catch (error) {
      // A key missing from WEBHOOK_SECRET_KEYS can be fixed before the next attempt: retry as planned.
      // The message names the kid at most, never the secret.
      const reason = `the signing secret could not be used: ${(error as Error).message}`;
      return this.failed(job, {
        kind: 'failed',
        status: null,
        error: reason,
        durationMs: 0,
        retryable: true,
      });
    }

    const outcome = await this.deps.client.deliver({ url: webhook.url, headers, body });
    switch (outcome.kind) {
      case 'delivered':
        return this.finish(job, {
          status: 'succeeded',
          httpStatus: outcome.status,
          error: null,
          durationMs: outcome.durationMs,
        });
      case 'gone': {
        const state: Webhook = {
          ...webhook,
          active: false,
          disabled_reason: GONE_REASON,
          version: webhook.version + 1,
          occurred_at: this.clock().getTime(),
        };
        return this.finish(
          job,
          { status: 'disabled', httpStatus: 410, error: GONE_REASON, durationMs: outcome.durationMs },
          [{ kind: 'webhook', state }],
        );
      }
      case 'failed':
        return this.failed(job, outcome);
    }
  }

  private failed(job: WebhookDelivery, failure: Failure): AttemptResult {
    const attempt = Math.min(job.attempt, this.deps.plan.maxAttempts);
    const now = this.clock().getTime();
    const retryAfterMs = receiverWait(failure.status, failure.retryAfter, now);
    const decision = failure.retryable
      ? this.deps.plan.nextAttempt({ attempt, deliveryId: job.delivery_id, retryAfterMs })
      : ({ kind: 'dead-letter' } as const);
    const facts = {
      httpStatus: failure.status,
      error: failure.error,
      durationMs: failure.durationMs,
    };
    if (decision.kind === 'retry') {
      facts.error += retryAfterNote(decision, retryAfterMs);
      const next: WebhookDelivery = {
        ...job,
        attempt: decision.attempt,
        due_at: now + decision.delayMs,
        status: 'pending',
        last_http_status: failure.status,
        last_error: facts.error,
        occurred_at: now,
      };
      // The next job first: if we die between the two, the attempt is made again, nothing is lost.
      return this.finish(job, { status: 'failed_retrying', ...facts }, [
        { kind: 'delivery', topic: decision.topic, record: next },
      ]);
    }
    const reason = failure.retryable
      ? `gave up after attempt ${job.attempt}: ${failure.error}`
      : `not retried: ${failure.error}`;
    return this.finish(job, { status: 'dead_lettered', ...facts }, [], reason);
  }

  private finish(
    job: WebhookDelivery,
    outcome: {
      status: AttemptStatus;
      httpStatus: number | null;
      error: string | null;
      durationMs: number | null;
    },
    before: Append[] = [],
    deadLetterReason?: string,
  ): AttemptResult {
    const record: WebhookDelivery = {
      ...job,
      status: outcome.status,
      last_http_status: outcome.httpStatus,
      last_error: outcome.error,
      occurred_at: this.clock().getTime(),
    };
    const appends: Append[] = [...before];
    if (deadLetterReason !== undefined)
      appends.push({ kind: 'dead-letter', record, reason: deadLetterReason });
    appends.push({ kind: 'delivery', topic: topicNames.webhookDeliveries, record });
    // One line per attempt; never the secret, the payload or the URL (its path or query may hold a token).
    this.deps.logger.info(
      {
        webhookId: job.webhook_id,
        deliveryId: job.delivery_id,
        eventType: job.event_type,
        attempt: job.attempt,
        status: outcome.status,
        httpStatus: outcome.httpStatus,
        durationMs: outcome.durationMs,
        error: outcome.error,
      },
      'webhook delivery attempt',
    );
    return { status: outcome.status, appends };
  }
}

/** Why a job must not be sent to `webhook` at all, or null if it may. */
function whyNotDeliver(job: WebhookDelivery, webhook: Webhook | undefined): string | null {
  if (webhook === undefined) return 'the webhook was deleted';
  if (webhook.tenant_id !== job.tenant_id) return 'the webhook belongs to another tenant';
  if (!webhook.active) {
    return webhook.disabled_reason
      ? `the webhook is disabled: ${webhook.disabled_reason}`
      : 'the webhook is paused';
  }
  // A test ping (POST /api/v1/webhooks/{id}/test) goes to the webhook whatever events it subscribes to.
  if (job.event_type !== WEBHOOK_TEST && !webhook.events.includes(job.event_type))
    return `the webhook no longer subscribes to ${job.event_type}`;
  return null;
}
