import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  abortableSleep,
  advance,
  backoffCeiling,
  backoffDelay,
  nextStep,
  retry,
  retrying,
  type FailedAttempt,
  type RetryPolicy,
  type Verdict,
} from './retry.ts';

const policy: RetryPolicy = { maxAttempts: 5, initialBackoffMs: 200, maxBackoffMs: 1_000 };
const highest = () => 1;
const lowest = () => 0;

/** An operation that fails with each of `errors` in turn, then answers 'done'. */
function failingWith(...errors: unknown[]) {
  let calls = 0;
  const operation = async () => {
    if (calls < errors.length) throw errors[calls++];
    calls++;
    return 'done';
  };
  return { operation, calls: () => calls };
}

/** A sleep that returns at once and remembers what it was asked for. */
function recordingSleep() {
  const slept: number[] = [];
  return { slept, sleep: async (ms: number) => void slept.push(ms) };
}

const byMessage: (error: unknown) => Verdict = (error) => (error as Error).message as Verdict;

describe('the backoff schedule', () => {
  it('doubles the ceiling from the initial backoff up to the cap', () => {
    expect([1, 2, 3, 4, 5, 6].map((n) => backoffCeiling(policy, n))).toEqual([
      200, 400, 800, 1_000, 1_000, 1_000,
    ]);
  });

  it('stays at the cap however many retries came before', () => {
    expect(backoffCeiling(policy, 10_000)).toBe(1_000);
    expect(backoffCeiling({ ...policy, maxBackoffMs: Infinity }, 10_000)).toBeLessThan(Infinity);
  });

  it('draws each pause with full jitter: from 0 up to the ceiling', () => {
    for (let n = 1; n <= 6; n++) {
      expect(backoffDelay(policy, n, lowest)).toBe(0);
      expect(backoffDelay(policy, n, highest)).toBe(backoffCeiling(policy, n));
      expect(backoffDelay(policy, n, () => 0.5)).toBe(backoffCeiling(policy, n) / 2);
    }
  });

  it('keeps every pause within [0, min(cap, initial * 2^(n-1))] with a real random source', () => {
    for (let n = 1; n <= 8; n++) {
      for (let i = 0; i < 200; i++) {
        const delay = backoffDelay(policy, n);
        expect(delay).toBeGreaterThanOrEqual(0);
        expect(delay).toBeLessThanOrEqual(Math.min(1_000, 200 * 2 ** (n - 1)));
      }
    }
  });

  it('clamps a random source that strays outside [0, 1]', () => {
    expect(backoffDelay(policy, 1, () => 7)).toBe(200);
    expect(backoffDelay(policy, 1, () => -1)).toBe(0);
  });
});

describe('nextStep', () => {
  it('retries after the pause of the attempt that failed', () => {
    expect(nextStep(policy, 'retry', { attempt: 3, waits: 0 }, highest)).toEqual({
      kind: 'retry',
      delayMs: 800,
    });
  });

  it('is exhausted when the last attempt the policy allows failed', () => {
    expect(nextStep(policy, 'retry', { attempt: 4, waits: 0 }, highest).kind).toBe('retry');
    expect(nextStep(policy, 'retry', { attempt: 5, waits: 0 }, highest)).toEqual({ kind: 'exhausted' });
  });

  it('never gives up under a policy of Infinity attempts', () => {
    const forever = { ...policy, maxAttempts: Infinity };
    expect(nextStep(forever, 'retry', { attempt: 1_000_000, waits: 0 }, highest)).toEqual({
      kind: 'retry',
      delayMs: 1_000,
    });
  });

  it('gives up at once on a failure classified give-up, whatever attempts are left', () => {
    expect(nextStep(policy, 'give-up', { attempt: 1, waits: 0 })).toEqual({ kind: 'give-up' });
  });

  it('waits for a dependency even after the last attempt, with pauses growing on the waits', () => {
    expect(nextStep(policy, 'wait', { attempt: 5, waits: 0 }, highest)).toEqual({
      kind: 'wait',
      delayMs: 200,
    });
    expect(nextStep(policy, 'wait', { attempt: 1, waits: 2 }, highest)).toEqual({
      kind: 'wait',
      delayMs: 800,
    });
  });

  it('does not count a wait as an attempt', () => {
    const waited = advance({ attempt: 2, waits: 0 }, { kind: 'wait' });
    expect(waited).toEqual({ attempt: 2, waits: 1 });
    expect(advance(waited, { kind: 'retry' })).toEqual({ attempt: 3, waits: 1 });
  });
});

describe('retrying', () => {
  it('returns the value of the first attempt that works, after the scheduled pauses', async () => {
    const { operation, calls } = failingWith(new Error('retry'), new Error('retry'));
    const { slept, sleep } = recordingSleep();
    const outcome = await retrying(operation, { policy, sleep, random: highest });
    expect(outcome).toEqual({ kind: 'done', value: 'done', attempts: 3 });
    expect(calls()).toBe(3);
    expect(slept).toEqual([200, 400]);
  });

  it('gives up after maxAttempts with the last error', async () => {
    const last = new Error('retry');
    const { operation, calls } = failingWith(new Error('retry'), new Error('retry'), last);
    const { slept, sleep } = recordingSleep();
    const outcome = await retrying(operation, { policy: { ...policy, maxAttempts: 3 }, sleep });
    expect(outcome).toEqual({ kind: 'exhausted', error: last, attempts: 3 });
    expect(calls()).toBe(3);
    expect(slept).toHaveLength(2);
  });

  it('gives up at once on a failure classified give-up', async () => {
    const fatal = new Error('give-up');
    const { operation, calls } = failingWith(new Error('retry'), fatal);
    const { slept, sleep } = recordingSleep();
    const outcome = await retrying(operation, { policy, classify: byMessage, sleep });
    expect(outcome).toEqual({ kind: 'give-up', error: fatal, attempts: 2 });
    expect(calls()).toBe(2);
    expect(slept).toHaveLength(1);
  });

  it('waits out a dependency beyond maxAttempts, the waits using up no attempts', async () => {
    const waits = Array.from({ length: 6 }, () => new Error('wait'));
    const { operation, calls } = failingWith(new Error('retry'), ...waits, new Error('retry'));
    const { slept, sleep } = recordingSleep();
    const attempts: number[] = [];
    const outcome = await retrying(
      async (attempt) => {
        attempts.push(attempt);
        return operation();
      },
      { policy: { ...policy, maxAttempts: 3 }, classify: byMessage, sleep, random: highest },
    );
    expect(outcome).toMatchObject({ kind: 'done', attempts: 3 });
    expect(calls()).toBe(9);
    expect(attempts).toEqual([1, 2, 2, 2, 2, 2, 2, 2, 3]);
    // retry 1, then six waits growing on their own count, then retry 2
    expect(slept).toEqual([200, 200, 400, 800, 1_000, 1_000, 1_000, 400]);
  });

  it('reports every failure, with its verdict and what follows, before pausing', async () => {
    const { operation } = failingWith(new Error('retry'), new Error('wait'), new Error('retry'));
    const failures: FailedAttempt[] = [];
    const events: string[] = [];
    await retrying(operation, {
      policy: { ...policy, maxAttempts: 2 },
      classify: byMessage,
      random: lowest,
      sleep: async () => void events.push('sleep'),
      onFailure: (failure) => {
        failures.push(failure);
        events.push(failure.next.kind);
      },
    });
    expect(failures.map(({ attempt, waits, verdict, next }) => ({ attempt, waits, verdict, next }))).toEqual([
      { attempt: 1, waits: 0, verdict: 'retry', next: { kind: 'retry', delayMs: 0 } },
      { attempt: 2, waits: 0, verdict: 'wait', next: { kind: 'wait', delayMs: 0 } },
      { attempt: 2, waits: 1, verdict: 'retry', next: { kind: 'exhausted' } },
    ]);
    expect(events).toEqual(['retry', 'sleep', 'wait', 'sleep', 'exhausted']);
  });

  it('calls whileWaiting at least once a second of a pause', async () => {
    const { operation } = failingWith(new Error('retry'));
    const { slept, sleep } = recordingSleep();
    let beats = 0;
    await retrying(operation, {
      policy: { maxAttempts: 2, initialBackoffMs: 3_500, maxBackoffMs: 3_500 },
      random: highest,
      sleep,
      whileWaiting: () => void beats++,
    });
    expect(slept).toEqual([1_000, 1_000, 1_000, 500]);
    expect(beats).toBe(4);
  });

  it('makes the first attempt even when already aborted, and no second one', async () => {
    const stop = new AbortController();
    stop.abort();
    const error = new Error('retry');
    const { operation, calls } = failingWith(error);
    const { slept, sleep } = recordingSleep();
    const outcome = await retrying(operation, { policy, signal: stop.signal, sleep });
    expect(outcome).toEqual({ kind: 'aborted', error, attempts: 1 });
    expect(calls()).toBe(1);
    expect(slept).toEqual([]);
  });

  describe('with a pause under way', () => {
    afterEach(() => void vi.useRealTimers());

    it('ends the pause as soon as the signal aborts, without waiting for the timer', async () => {
      vi.useFakeTimers();
      const stop = new AbortController();
      const { operation, calls } = failingWith(new Error('retry'), new Error('retry'));
      let beats = 0;
      const running = retrying(operation, {
        policy: { maxAttempts: 5, initialBackoffMs: 60_000, maxBackoffMs: 60_000 },
        random: highest,
        signal: stop.signal,
        whileWaiting: () => void beats++,
      });
      await vi.advanceTimersByTimeAsync(2_500);
      expect(beats).toBe(2);
      stop.abort();
      // No timer is advanced from here: the outcome must come from the abort alone.
      await expect(running).resolves.toMatchObject({ kind: 'aborted', attempts: 1 });
      expect(calls()).toBe(1);
      expect(beats).toBe(2);
      expect(vi.getTimerCount()).toBe(0);
    });
  });
});

describe('retry', () => {
  it('returns the value, or throws the last error of any other outcome', async () => {
    const { sleep } = recordingSleep();
    await expect(retry(failingWith(new Error('retry')).operation, { policy, sleep })).resolves.toBe('done');
    const fatal = new Error('give-up');
    await expect(retry(failingWith(fatal).operation, { policy, classify: byMessage, sleep })).rejects.toBe(
      fatal,
    );
  });
});

describe('abortableSleep', () => {
  afterEach(() => void vi.useRealTimers());

  it('resolves after the time, or at once when aborted, and leaves no timer behind', async () => {
    vi.useFakeTimers();
    let slept = false;
    void abortableSleep(1_000).then(() => (slept = true));
    await vi.advanceTimersByTimeAsync(999);
    expect(slept).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(slept).toBe(true);

    const stop = new AbortController();
    const pending = abortableSleep(60_000, stop.signal);
    stop.abort();
    await pending;
    expect(vi.getTimerCount()).toBe(0);
    await abortableSleep(60_000, stop.signal); // already aborted: at once
  });
});
