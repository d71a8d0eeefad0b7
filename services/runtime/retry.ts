// One way to try an operation again. Every place that retries says, as data, how many attempts it
// allows and how its pauses grow; the decisions (how long a pause is, when to give up) are the pure
// functions below, and `retrying` only carries them out.
//
// - Each failure is classified: `retry` (another attempt may work; it uses up one of the attempts),
//   `give-up` (no attempt can work), or `wait` (a dependency is down: the operation is fine and waits
//   for it, however long, without using up attempts).
// - Pauses grow exponentially with full jitter: before retry n the pause is drawn uniformly from
//   [0, min(cap, initial * 2^(n-1))]. Many consumers failing on the same outage then come back spread
//   over the whole interval instead of in step.
// - An abort signal ends a pause at once; no attempt starts after it fired.
// - `whileWaiting` runs at least once a second during a pause (a Kafka consumer's heartbeat, so the
//   group does not evict a member that is only waiting).

export interface RetryPolicy {
  /** Attempts before giving up (the first one included); Infinity never gives up. */
  maxAttempts: number;
  /** Upper bound of the first pause; each later one doubles it. */
  initialBackoffMs: number;
  /** No pause is longer than this. */
  maxBackoffMs: number;
}

/** How one failure is treated; see the top of this file. */
export type Verdict = 'retry' | 'give-up' | 'wait';

/** Where a run of attempts stands after a failure. */
export interface RetryState {
  /** Number of the attempt that failed, from 1; an attempt after a `wait` keeps the number. */
  attempt: number;
  /** Dependency waits so far, this failure's excluded. */
  waits: number;
}

/** What follows a failure. */
export type NextStep =
  | { kind: 'retry'; delayMs: number }
  | { kind: 'wait'; delayMs: number }
  /** The failure was classified `give-up`. */
  | { kind: 'give-up' }
  /** A `retry` failure of the last attempt the policy allows. */
  | { kind: 'exhausted' };

/** A random number in [0, 1]; injectable so that tests can pin the jitter. */
export type Random = () => number;

/** The longest pause before retry `n` (n >= 1): min(cap, initial * 2^(n-1)). */
export function backoffCeiling(policy: RetryPolicy, n: number): number {
  // Past 2^30 the cap has long been reached; this keeps the arithmetic finite.
  const exponential = policy.initialBackoffMs * 2 ** Math.min(Math.max(n, 1) - 1, 30);
  return Math.min(policy.maxBackoffMs, exponential);
}

/** The pause before retry `n`: full jitter, uniform in [0, backoffCeiling(n)]. */
export function backoffDelay(policy: RetryPolicy, n: number, random: Random = Math.random): number {
  return Math.round(Math.min(1, Math.max(0, random())) * backoffCeiling(policy, n));
}

/** The decision after a failure classified `verdict` in `state`. */
export function nextStep(
  policy: RetryPolicy,
  verdict: Verdict,
  state: RetryState,
  random: Random = Math.random,
): NextStep {
  switch (verdict) {
    case 'give-up':
      return { kind: 'give-up' };
    case 'wait':
      // Waits grow on their own count, so a long outage backs off to the cap whatever the attempt.
      return { kind: 'wait', delayMs: backoffDelay(policy, state.waits + 1, random) };
    case 'retry':
      if (state.attempt >= policy.maxAttempts) return { kind: 'exhausted' };
      return { kind: 'retry', delayMs: backoffDelay(policy, state.attempt, random) };
  }
}

/** The state the next attempt runs in, after a failure in `state` followed by `step`. */
export function advance(state: RetryState, step: { kind: 'retry' | 'wait' }): RetryState {
  return step.kind === 'wait'
    ? { attempt: state.attempt, waits: state.waits + 1 }
    : { attempt: state.attempt + 1, waits: state.waits };
}

/** One failed attempt, as the `onFailure` hook sees it. */
export interface FailedAttempt extends RetryState {
  error: unknown;
  verdict: Verdict;
  next: NextStep;
}

export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

export interface RetryOptions {
  policy: RetryPolicy;
  /** Treatment of each failure; every failure is `retry` if not given. */
  classify?: (error: unknown) => Verdict;
  /** Ends a pause at once; no attempt starts after it fired. */
  signal?: AbortSignal;
  /**
   * Called at least once a second while pausing (and once after a shorter pause). An error it throws
   * ends the retrying with that error, so a call site that must not stop for it catches it.
   */
  whileWaiting?: () => Promise<void> | void;
  /** Called after each failure, before any pause: the place for logs and counters. */
  onFailure?: (failure: FailedAttempt) => void;
  random?: Random;
  /** Resolves after `ms`, or early once `signal` aborts; tests make it instant. */
  sleep?: Sleep;
}

/** How a run of attempts ended. `attempts` is the number of the last attempt made. */
export type RetryOutcome<T> =
  | { kind: 'done'; value: T; attempts: number }
  | { kind: 'give-up' | 'exhausted' | 'aborted'; error: unknown; attempts: number };

/** Runs `operation` until it succeeds, a failure ends the run, or `signal` aborts; never throws for it. */
export async function retrying<T>(
  operation: (attempt: number) => Promise<T>,
  options: RetryOptions,
): Promise<RetryOutcome<T>> {
  const classify = options.classify ?? (() => 'retry');
  const random = options.random ?? Math.random;
  let state: RetryState = { attempt: 1, waits: 0 };
  for (;;) {
    try {
      return { kind: 'done', value: await operation(state.attempt), attempts: state.attempt };
    } catch (error) {
      const verdict = classify(error);
      const next = nextStep(options.policy, verdict, state, random);
      options.onFailure?.({ ...state, error, verdict, next });
      if (next.kind === 'give-up' || next.kind === 'exhausted')
        return { kind: next.kind, error, attempts: state.attempt };
      if (options.signal?.aborted) return { kind: 'aborted', error, attempts: state.attempt };
      await pause(next.delayMs, options);
      if (options.signal?.aborted) return { kind: 'aborted', error, attempts: state.attempt };
      state = advance(state, next);
    }
  }
}

/** `retrying`, for a call site that only wants the value: any other outcome throws the last error. */
export async function retry<T>(
  operation: (attempt: number) => Promise<T>,
  options: RetryOptions,
): Promise<T> {
  const outcome = await retrying(operation, options);
  if (outcome.kind === 'done') return outcome.value;
  throw outcome.error;
}

/** Longest stretch between two `whileWaiting` calls. */
export const heartbeatIntervalMs = 1_000;

async function pause(ms: number, options: RetryOptions): Promise<void> {
  const sleep = options.sleep ?? abortableSleep;
  if (!options.whileWaiting) return sleep(ms, options.signal);
  let left = ms;
  do {
    const slice = Math.min(heartbeatIntervalMs, left);
    await sleep(slice, options.signal);
    if (options.signal?.aborted) return;
    left -= slice;
    await options.whileWaiting();
  } while (left > 0);
}

/** Resolves after `ms`, or as soon as `signal` aborts (it never rejects). */
export function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}
