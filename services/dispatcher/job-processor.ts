// What the delivery consumer does with one due job: make the attempt, then append its records until they
// are written. Appends are retried on their own (Kafka restarting must neither lose the outcome nor make
// us POST again); if the partition is revoked or the process stops meanwhile, the job is left
// uncommitted and attempted again by whoever reads it next.
import type { WebhookDelivery } from '../runtime/events/types.generated.ts';
import { describeError } from '../runtime/kafka/errors.ts';
import { topicNames } from '../runtime/kafka/topics.ts';
import type { Logger } from '../runtime/logger.ts';
import type { ProcessJob } from './delivery-consumer.ts';
import type { AppendAll } from './delivery-log.ts';
import type { Append, DeliveryWorker } from './delivery-worker.ts';
import type { WebhookDirectory } from './webhook-directory.ts';

export interface JobProcessorDeps {
  worker: Pick<DeliveryWorker, 'attempt'>;
  append: AppendAll;
  directory: Pick<WebhookDirectory, 'remember'>;
  logger: Logger;
  clock?: () => Date;
  /** Backoff between append attempts; tests shorten it. */
  backoffMs?: (attempt: number) => number;
}

export function jobProcessor(deps: JobProcessorDeps): ProcessJob {
  const clock = deps.clock ?? (() => new Date());
  const backoffMs = deps.backoffMs ?? ((attempt) => Math.min(10_000, 200 * 2 ** (attempt - 1)));
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
    for (let attempt = 1; ; attempt++) {
      context.signal.throwIfAborted();
      try {
        await deps.append(appends, context);
        break;
      } catch (error) {
        deps.logger.warn(
          { webhookId: job.webhook_id, deliveryId: job.delivery_id, attempt, err: describeError(error) },
          'appending a delivery outcome failed; retrying',
        );
        await sleep(backoffMs(attempt), context.signal);
      }
    }
    for (const append of appends) if (append.kind === 'webhook') deps.directory.remember(append.state);
  };
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

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
    };
    const onAbort = () => {
      done();
      reject(signal.reason as Error);
    };
    const timer = setTimeout(() => {
      done();
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
