// Where a webhook delivery job goes after an attempt fails. The schedule is data (WEBHOOK_RETRY_SCHEDULE),
// one Kafka topic per delay: a consumer of `.retry-5m` only ever waits 5 minutes, so a job due in 10 hours
// never sits in front of one due in 5 seconds. Attempt 1 is the first delivery, from the main topic.
// The delays are the schedule's; nextAttempt() times one delivery's retry (spread, Retry-After) with
// retry-timing.ts.
import { text } from '../runtime/config.ts';
import {
  deadLetterTopicName,
  defaultRetrySchedule,
  parseDuration,
  retryTopicName,
  topicNames,
} from '../runtime/kafka/topics.ts';
import { retryTime, spreadDraw, type RetryAfterEffect, type RetryStep } from './retry-timing.ts';

export type RetryDecision =
  /** Publish the job, now numbered `attempt`, to `topic`; it is due `delayMs` after this failure. */
  | { kind: 'retry'; topic: string; delayMs: number; attempt: number }
  /** No attempts left: the job goes to the dead-letter topic. */
  | { kind: 'dead-letter'; topic: string };

export interface FailedAttempt {
  attempt: number;
  deliveryId: string;
  /** How long the receiver asked us to wait (receiverWait in retry-timing.ts), or null. */
  retryAfterMs: number | null;
}

export type TimedRetryDecision =
  | (Extract<RetryDecision, { kind: 'retry' }> & { retryAfter: RetryAfterEffect })
  | Extract<RetryDecision, { kind: 'dead-letter' }>;

export interface RetryPlan {
  /** First delivery + one attempt per delay of the schedule. */
  readonly maxAttempts: number;
  /** The schedule as written: its exact delay and topic for the attempt after `attempt`. */
  afterFailure(attempt: number): RetryDecision;
  /**
   * The same step for one delivery: its delay spread, or postponed (possibly to a longer retry topic)
   * if the receiver asked with Retry-After.
   */
  nextAttempt(failed: FailedAttempt): TimedRetryDecision;
}

/** Exhausted jobs, after the schedule's last delay, share the main topic's `.dlq`. */
export const deliveryDeadLetterTopic = deadLetterTopicName(topicNames.webhookDeliveries);

export function createRetryPlan(schedule: readonly string[]): RetryPlan {
  // Parsed once, up front: a bad schedule must stop the dispatcher at start, not on the first failure.
  const steps: RetryStep[] = schedule.map((delay) => ({
    topic: retryTopicName(delay),
    delayMs: parseDuration(delay),
  }));
  const maxAttempts = steps.length + 1;
  const afterFailure = (attempt: number): RetryDecision => {
    if (!Number.isInteger(attempt) || attempt < 1 || attempt > maxAttempts) {
      throw new RangeError(`attempt must be an integer from 1 to ${maxAttempts}, got ${attempt}`);
    }
    const step = steps[attempt - 1];
    if (step === undefined) return { kind: 'dead-letter', topic: deliveryDeadLetterTopic };
    return { kind: 'retry', topic: step.topic, delayMs: step.delayMs, attempt: attempt + 1 };
  };
  return {
    maxAttempts,
    afterFailure,
    nextAttempt({ attempt, deliveryId, retryAfterMs }) {
      const planned = afterFailure(attempt);
      if (planned.kind === 'dead-letter') return planned;
      // The draw is keyed by the attempt being scheduled, so each retry of a delivery moves differently.
      const time = retryTime({
        step: planned,
        steps,
        draw: spreadDraw(deliveryId, planned.attempt),
        retryAfterMs,
      });
      return { ...planned, ...time };
    },
  };
}

/**
 * WEBHOOK_RETRY_SCHEDULE, read by provisioning (which creates the retry topics) and the dispatcher (which
 * uses them); both must be given the same value.
 */
export const retryScheduleSetting = text(defaultRetrySchedule.join(','))
  .transform((s) => s.split(',').map((d) => d.trim()))
  .refine(
    (list) =>
      list.length > 0 &&
      list.every((d) => {
        try {
          return parseDuration(d) > 0;
        } catch {
          return false;
        }
      }),
    { message: 'expected comma-separated durations like 5s,5m,30m,2h' },
  );
