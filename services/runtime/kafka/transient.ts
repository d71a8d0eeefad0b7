// The rebuild gives up on a broken dependency, but not on a blip: a dropped
// keep-alive connection or a busy ClickHouse answers the next attempt, and
// failing an hour-long replay for it would be absurd. So a step that failed
// with "dependency unavailable" is tried again a few times, with growing
// pauses (up to about 15 s in all), before the failure counts. Any other error (a
// statement ClickHouse rejects) counts at once. The steps before the replay
// are not retried: a dependency down at the start loses nothing by stopping,
// and the operator hears about it at once.
import { describeError, isUnavailable } from './errors.ts';
import type { Logger } from '../logger.ts';
import { retry, type RetryPolicy } from '../retry.ts';

export interface TransientRetry {
  logger: Logger;
  attempts?: number;
  initialDelayMs?: number;
  /** Called while waiting (a consumer's heartbeat), at least once a second. */
  whileWaiting?: () => Promise<void>;
  signal?: AbortSignal;
}

/** Six attempts, pauses of at most 0.5, 1, 2, 4 and 8 s between them. */
export const transientRetry: RetryPolicy = { maxAttempts: 6, initialBackoffMs: 500, maxBackoffMs: 8_000 };

export async function retryTransient<T>(
  what: string,
  step: () => Promise<T>,
  options: TransientRetry,
): Promise<T> {
  return retry(step, {
    policy: {
      ...transientRetry,
      maxAttempts: options.attempts ?? transientRetry.maxAttempts,
      initialBackoffMs: options.initialDelayMs ?? transientRetry.initialBackoffMs,
    },
    classify: (error) => (isUnavailable(error) ? 'retry' : 'give-up'),
    signal: options.signal,
    whileWaiting: options.whileWaiting,
    onFailure: ({ error, attempt, next }) => {
      if (next.kind === 'retry' && !options.signal?.aborted)
        options.logger.warn(
          { what, attempt, delay: next.delayMs, err: describeError(error) },
          'dependency unavailable; retrying',
        );
    },
  });
}
