import { describe, expect, it } from 'vitest';
import type { FailedAttempt, RetryPolicy } from '../retry.ts';
import { DependencyUnavailableError, PoisonMessageError } from './errors.ts';
import {
  batchDisposition,
  batchVerdict,
  messageDisposition,
  messageVerdict,
  retryBatch,
  retryMessage,
  type HandlerRetry,
} from './handler-failures.ts';

const policy: RetryPolicy = { maxAttempts: 3, initialBackoffMs: 200, maxBackoffMs: 1_000 };
const transient = () => new Error('ClickHouse briefly unavailable');
const down = () => new DependencyUnavailableError('ClickHouse is down');
const poison = () => new PoisonMessageError('article has no usable title');

/** A handler that fails with each of `errors` in turn, then succeeds. */
function handlerFailing(...errors: Error[]) {
  let calls = 0;
  const handle = async () => {
    const error = errors[calls++];
    if (error) throw error;
  };
  return { handle, calls: () => calls };
}

/** The runner's retry options, with instant pauses that are remembered and the longest jitter. */
function options(signal = new AbortController().signal) {
  const slept: number[] = [];
  const failures: FailedAttempt[] = [];
  let beats = 0;
  const retry: HandlerRetry = {
    policy,
    signal,
    whileWaiting: async () => void beats++,
    onFailure: (failure) => void failures.push(failure),
    random: () => 1,
    sleep: async (ms) => void slept.push(ms),
  };
  return { retry, slept, failures, beats: () => beats };
}

describe('the verdict on a failure', () => {
  it('of one message: poison gives up, an unavailable dependency is waited for, anything else is retried', () => {
    expect(messageVerdict(poison())).toBe('give-up');
    expect(messageVerdict(down())).toBe('wait');
    expect(messageVerdict(transient())).toBe('retry');
    expect(messageVerdict('a string thrown')).toBe('retry');
  });

  it('of a batch: poison is retried too, since it does not say which message is bad', () => {
    expect(batchVerdict(poison())).toBe('retry');
    expect(batchVerdict(down())).toBe('wait');
    expect(batchVerdict(transient())).toBe('retry');
  });
});

describe('what becomes of a message', () => {
  it('is dead-lettered with the poison error as the reason, after one attempt', () => {
    expect(messageDisposition({ kind: 'give-up', error: poison(), attempts: 1 })).toEqual({
      kind: 'dead-letter',
      reason: 'PoisonMessageError: article has no usable title',
      attempts: 1,
    });
  });

  it('is dead-lettered saying how many attempts failed once they are used up', () => {
    expect(messageDisposition({ kind: 'exhausted', error: transient(), attempts: 3 })).toEqual({
      kind: 'dead-letter',
      reason: 'gave up after 3 attempts: Error: ClickHouse briefly unavailable',
      attempts: 3,
    });
  });

  it('is left for redelivery when the runner stops while retrying it', () => {
    expect(messageDisposition({ kind: 'aborted', error: transient(), attempts: 2 })).toEqual({
      kind: 'stopped',
    });
  });
});

describe('what becomes of a batch', () => {
  it('is split into its messages once its attempts are used up', () => {
    const error = transient();
    expect(batchDisposition({ kind: 'exhausted', error, attempts: 3 })).toEqual({ kind: 'split', error });
  });

  it('is left for redelivery when the runner stops while retrying it', () => {
    expect(batchDisposition({ kind: 'aborted', error: transient(), attempts: 1 })).toEqual({
      kind: 'stopped',
    });
  });
});

describe('retryMessage', () => {
  it('dead-letters poison at once, without a pause', async () => {
    const { handle, calls } = handlerFailing(poison());
    const { retry, slept } = options();
    await expect(retryMessage(handle, retry)).resolves.toMatchObject({ kind: 'dead-letter', attempts: 1 });
    expect(calls()).toBe(1);
    expect(slept).toEqual([]);
  });

  it('retries a transient failure with growing pauses and processes the message once it works', async () => {
    const { handle, calls } = handlerFailing(transient(), transient());
    const { retry, slept, failures } = options();
    await expect(retryMessage(handle, retry)).resolves.toEqual({ kind: 'processed' });
    expect(calls()).toBe(3);
    expect(slept).toEqual([200, 400]);
    expect(failures.map((f) => f.next.kind)).toEqual(['retry', 'retry']);
  });

  it('dead-letters after maxAttempts failures; the last one is not counted as a retry', async () => {
    const { handle, calls } = handlerFailing(transient(), transient(), transient(), transient());
    const { retry, failures } = options();
    await expect(retryMessage(handle, retry)).resolves.toEqual({
      kind: 'dead-letter',
      reason: 'gave up after 3 attempts: Error: ClickHouse briefly unavailable',
      attempts: 3,
    });
    expect(calls()).toBe(3);
    expect(failures.map((f) => f.next.kind)).toEqual(['retry', 'retry', 'exhausted']);
  });

  it('waits out an unavailable dependency beyond maxAttempts, heartbeating, without dead-lettering', async () => {
    const { handle, calls } = handlerFailing(down(), down(), down(), down());
    const { retry, slept, beats } = options();
    await expect(retryMessage(handle, retry)).resolves.toEqual({ kind: 'processed' });
    expect(calls()).toBe(5);
    expect(slept).toEqual([200, 400, 800, 1_000]);
    expect(beats()).toBe(4);
  });

  it('dead-letters poison found after a wait with the attempt it was found on', async () => {
    const { handle } = handlerFailing(transient(), down(), poison());
    const { retry } = options();
    await expect(retryMessage(handle, retry)).resolves.toMatchObject({ kind: 'dead-letter', attempts: 2 });
  });

  it('leaves the message to be redelivered when the runner stops', async () => {
    const stop = new AbortController();
    const { retry } = options(stop.signal);
    const { handle, calls } = handlerFailing(transient(), transient());
    retry.onFailure = () => stop.abort();
    await expect(retryMessage(handle, retry)).resolves.toEqual({ kind: 'stopped' });
    expect(calls()).toBe(1);
  });
});

describe('retryBatch', () => {
  it('splits a batch that keeps failing, poison included, after maxAttempts', async () => {
    const { handle, calls } = handlerFailing(poison(), poison(), poison());
    const { retry, slept } = options();
    await expect(retryBatch(handle, retry)).resolves.toMatchObject({ kind: 'split' });
    expect(calls()).toBe(3);
    expect(slept).toEqual([200, 400]);
  });

  it('waits for an unavailable dependency without using up the attempts before a split', async () => {
    const { handle, calls } = handlerFailing(transient(), down(), down(), down(), transient());
    const { retry, failures } = options();
    await expect(retryBatch(handle, retry)).resolves.toEqual({ kind: 'processed' });
    expect(calls()).toBe(6);
    expect(failures.map((f) => [f.attempt, f.next.kind])).toEqual([
      [1, 'retry'],
      [2, 'wait'],
      [2, 'wait'],
      [2, 'wait'],
      [2, 'retry'],
    ]);
  });
});
