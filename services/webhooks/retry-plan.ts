// Where a webhook delivery job goes after an attempt fails. The schedule is data (WEBHOOK_RETRY_SCHEDULE),
// one Kafka topic per delay: a consumer of `.retry-5m` only ever waits 5 minutes, so a job due in 10 hours
// never sits in front of one due in 5 seconds. Attempt 1 is the first delivery, from the main topic.
import { deadLetterTopicName, parseDuration, retryTopicName, topicNames } from '../runtime/kafka/topics.ts';

export type RetryDecision =
  /** Publish the job, now numbered `attempt`, to `topic`; it is due `delayMs` after this failure. */
  | { kind: 'retry'; topic: string; delayMs: number; attempt: number }
  /** No attempts left: the job goes to the dead-letter topic. */
  | { kind: 'dead-letter'; topic: string };

export interface RetryPlan {
  /** First delivery + one attempt per delay of the schedule. */
  readonly maxAttempts: number;
  afterFailure(attempt: number): RetryDecision;
}

/** Exhausted jobs share the main topic's `.dlq` (DESIGN: "after the last, to `.dlq`"). */
export const deliveryDeadLetterTopic = deadLetterTopicName(topicNames.webhookDeliveries);

export function createRetryPlan(schedule: readonly string[]): RetryPlan {
  // Parsed once, up front: a bad schedule must stop the dispatcher at start, not on the first failure.
  const steps = schedule.map((delay) => ({ topic: retryTopicName(delay), delayMs: parseDuration(delay) }));
  const maxAttempts = steps.length + 1;
  return {
    maxAttempts,
    afterFailure(attempt) {
      if (!Number.isInteger(attempt) || attempt < 1 || attempt > maxAttempts) {
        throw new RangeError(`attempt must be an integer from 1 to ${maxAttempts}, got ${attempt}`);
      }
      const step = steps[attempt - 1];
      if (step === undefined) return { kind: 'dead-letter', topic: deliveryDeadLetterTopic };
      return { kind: 'retry', topic: step.topic, delayMs: step.delayMs, attempt: attempt + 1 };
    },
  };
}
