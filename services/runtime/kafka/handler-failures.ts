// What the consumer runner (consumer.ts) does when its handler fails, apart from the Kafka plumbing:
// - one message: a poison message is dead-lettered at once; a dependency that is down is waited for,
//   however long, without using up the message's attempts; anything else is retried with backoff and
//   dead-lettered once the attempts are used up;
// - a whole batch: a dependency that is down is waited for; any other failure is retried, and a batch
//   that keeps failing is split into its messages, each handled as above, so that one bad message is
//   dead-lettered without taking its neighbours with it.
import {
  retrying,
  type FailedAttempt,
  type RetryOutcome,
  type RetryPolicy,
  type Random,
  type Sleep,
  type Verdict,
} from '../retry.ts';
import { describeError, isPoison, isUnavailable } from './errors.ts';

export const messageVerdict = (error: unknown): Verdict =>
  isUnavailable(error) ? 'wait' : isPoison(error) ? 'give-up' : 'retry';

/**
 * A batch handler's failure says nothing about which message caused it, so even a poison error is
 * retried: only once the batch is split does it dead-letter the one message.
 */
export const batchVerdict = (error: unknown): Verdict => (isUnavailable(error) ? 'wait' : 'retry');

export type MessageDisposition =
  | { kind: 'processed' }
  | { kind: 'dead-letter'; reason: string; attempts: number }
  /** The runner is stopping: leave the offset unresolved so that the message is delivered again. */
  | { kind: 'stopped' };

export function messageDisposition(outcome: RetryOutcome<unknown>): MessageDisposition {
  switch (outcome.kind) {
    case 'done':
      return { kind: 'processed' };
    case 'aborted':
      return { kind: 'stopped' };
    case 'give-up':
      return { kind: 'dead-letter', reason: describeError(outcome.error), attempts: outcome.attempts };
    case 'exhausted':
      return {
        kind: 'dead-letter',
        reason: `gave up after ${outcome.attempts} attempts: ${describeError(outcome.error)}`,
        attempts: outcome.attempts,
      };
  }
}

export type BatchDisposition =
  | { kind: 'processed' }
  /** Handle the batch's messages one at a time; `error` is the batch's last failure. */
  | { kind: 'split'; error: unknown }
  | { kind: 'stopped' };

export function batchDisposition(outcome: RetryOutcome<unknown>): BatchDisposition {
  switch (outcome.kind) {
    case 'done':
      return { kind: 'processed' };
    case 'aborted':
      return { kind: 'stopped' };
    case 'give-up':
    case 'exhausted':
      return { kind: 'split', error: outcome.error };
  }
}

export interface HandlerRetry {
  policy: RetryPolicy;
  /** The runner's stop. */
  signal: AbortSignal;
  /** The consumer's heartbeat, so that the group keeps a member that is waiting. */
  whileWaiting: () => Promise<void>;
  onFailure: (failure: FailedAttempt) => void;
  random?: Random;
  sleep?: Sleep;
}

/** Handles one message with its retries; says what became of it. */
export async function retryMessage(
  handle: () => Promise<void>,
  options: HandlerRetry,
): Promise<MessageDisposition> {
  return messageDisposition(await retrying(handle, { ...options, classify: messageVerdict }));
}

/** Handles one fetched batch with its retries; says what became of it. */
export async function retryBatch(
  handle: () => Promise<void>,
  options: HandlerRetry,
): Promise<BatchDisposition> {
  return batchDisposition(await retrying(handle, { ...options, classify: batchVerdict }));
}
