// When to poll a source next. Data, not code spread over the scheduler: the
// interval with jitter (so thousands of sources do not poll in step), backoff
// after failures, and the server's Retry-After, whichever is latest.

export const maxBackoffMs = 6 * 60 * 60 * 1000;
export const maxDelayMs = 24 * 60 * 60 * 1000;
export const jitter = 0.1;

export function nextPollDelay(input: {
  intervalMs: number;
  consecutiveFailures: number;
  retryAfterMs: number | null;
  random: number;
}): number {
  const { intervalMs, consecutiveFailures } = input;
  const backoff =
    consecutiveFailures === 0
      ? intervalMs
      : Math.max(intervalMs, Math.min(maxBackoffMs, intervalMs * 2 ** Math.min(consecutiveFailures, 16)));
  const jittered = backoff * (1 - jitter + 2 * jitter * input.random);
  return Math.round(Math.min(maxDelayMs, Math.max(jittered, input.retryAfterMs ?? 0)));
}

/** A newly assigned source is polled soon, spread over a few seconds so a restart does not stampede. */
export function firstPollDelay(intervalMs: number, random: number, spreadMs = 10_000): number {
  return Math.round(random * Math.min(intervalMs, spreadMs));
}
