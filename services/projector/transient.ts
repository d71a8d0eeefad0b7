// The rebuild gives up on a broken dependency, but not on a blip: a dropped
// keep-alive connection or a busy ClickHouse answers the next attempt, and
// failing an hour-long replay for it would be absurd. So a step that failed
// with "dependency unavailable" is tried again a few times, with growing
// pauses (about 15 s in all), before the failure counts. Any other error (a
// statement ClickHouse rejects) counts at once. The steps before the replay
// are not retried: a dependency down at the start loses nothing by stopping,
// and the operator hears about it at once.
import { describeError, isUnavailable } from '../runtime/kafka/errors.ts';
import type { Logger } from '../runtime/logger.ts';

export interface TransientRetry {
  logger: Logger;
  attempts?: number;
  initialDelayMs?: number;
  /** Called while waiting (a consumer's heartbeat), at least once a second. */
  whileWaiting?: () => Promise<void>;
  signal?: AbortSignal;
}

export async function retryTransient<T>(
  what: string,
  step: () => Promise<T>,
  options: TransientRetry,
): Promise<T> {
  const attempts = options.attempts ?? 6;
  for (let attempt = 1; ; attempt++) {
    try {
      return await step();
    } catch (error) {
      if (!isUnavailable(error) || attempt >= attempts || options.signal?.aborted) throw error;
      const delay = (options.initialDelayMs ?? 500) * 2 ** (attempt - 1);
      options.logger.warn(
        { what, attempt, delay, err: describeError(error) },
        'dependency unavailable; retrying',
      );
      for (let waited = 0; waited < delay && !options.signal?.aborted; waited += 1_000) {
        await new Promise((resolve) => setTimeout(resolve, Math.min(1_000, delay - waited)));
        await options.whileWaiting?.();
      }
    }
  }
}
