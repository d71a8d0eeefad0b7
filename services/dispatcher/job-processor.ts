// What the delivery consumer does with one due job: make the attempt, then append its records until they
// are written. Appends are retried on their own (Kafka restarting must neither lose the outcome nor make
// us POST again); if the partition is revoked or the process stops meanwhile, the job is left
// uncommitted and attempted again by whoever reads it next.
import type { WebhookDelivery } from '../runtime/events/types.generated.ts';
import { describeError } from '../runtime/kafka/errors.ts';
import { topicNames } from '../runtime/kafka/topics.ts';
import type { Logger } from '../runtime/logger.ts';
import { retrying, type RetryPolicy } from '../runtime/retry.ts';
import type { ProcessJob } from './delivery-consumer.ts';
import type { AppendAll } from './attempt-records.ts';
import type { Append, DeliveryWorker } from './delivery-worker.ts';
import type { WebhookDirectory } from './webhook-directory.ts';

export interface JobProcessorDeps {
  worker: Pick<DeliveryWorker, 'attempt'>;
  append: AppendAll;
  directory: Pick<WebhookDirectory, 'remember'>;
  logger: Logger;
  clock?: () => Date;
  /** How appends are retried; tests shorten the pauses. */
  appendRetry?: RetryPolicy;
}

/** Appends are retried until they are written or the job is given up (revoked, stopping). */
export const defaultAppendRetry: RetryPolicy = {
  maxAttempts: Infinity,
  initialBackoffMs: 200,
  maxBackoffMs: 10_000,
};

export function jobProcessor(deps: JobProcessorDeps): ProcessJob {
  const clock = deps.clock ?? (() => new Date());
  const appendRetry = deps.appendRetry ?? defaultAppendRetry;
  return async (job, context) => {
    context.signal.throwIfAborted();
    let appends: Append[];
    try {
      ({ appends } = await deps.worker.attempt(job));
    } catch (error) {
      // A bug, not the endpoint: record it and dead-letter the job rather than retry it forever.
      deps.logger.error(
        { err: error, webhookId: job.webhook_id, deliveryId: job.delivery_id },
        'delivery attempt failed unexpectedly; dead-lettering the job',
      );
      appends = unexpected(job, describeError(error), clock());
    }
    // The request is over: its slot goes to another request while the records are appended, and the
    // webhook's next job may start, unless it depends on these records (a 410 disables the webhook: the
    // next job must find it disabled, so it waits until the new state is written and remembered).
    if (changesWebhook(appends)) context.lease.releaseSlot();
    else context.lease.releaseKey();
    context.signal.throwIfAborted();
    // The common case without the retrying machinery around it (its closures and options, per job);
    // a failure is retried below, where it is logged and backed off.
    try {
      await deps.append(appends, context);
      remember(deps.directory, appends);
      return;
    } catch (error) {
      context.signal.throwIfAborted();
      deps.logger.warn(
        { webhookId: job.webhook_id, deliveryId: job.delivery_id, attempt: 0, err: describeError(error) },
        'appending a delivery outcome failed; retrying',
      );
    }
    const appended = await retrying(() => deps.append(appends, context), {
      policy: appendRetry,
      signal: context.signal,
      onFailure: ({ error, attempt }) =>
        deps.logger.warn(
          { webhookId: job.webhook_id, deliveryId: job.delivery_id, attempt, err: describeError(error) },
          'appending a delivery outcome failed; retrying',
        ),
    });
    // Only an abort ends the retrying without the records written: the job stays uncommitted.
    if (appended.kind !== 'done') throw context.signal.aborted ? context.signal.reason : appended.error;
    remember(deps.directory, appends);
  };
}

/** A webhook state the attempt appended (disabled after 410) is used at once, once it is written. */
function remember(directory: Pick<WebhookDirectory, 'remember'>, appends: readonly Append[]): void {
  for (const append of appends) if (append.kind === 'webhook') directory.remember(append.state);
}

function changesWebhook(appends: readonly Append[]): boolean {
  for (const append of appends) if (append.kind === 'webhook') return true;
  return false;
}

function unexpected(job: WebhookDelivery, error: string, now: Date): Append[] {
  const record: WebhookDelivery = {
    ...job,
    status: 'dead_lettered',
    last_http_status: null,
    last_error: `dispatcher error: ${error}`,
    occurred_at: now.getTime(),
  };
  return [
    { kind: 'dead-letter', record, reason: record.last_error! },
    { kind: 'delivery', topic: topicNames.webhookDeliveries, record },
  ];
}
