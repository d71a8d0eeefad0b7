import { describe, expect, it } from 'vitest';
import { ClickHouseQueryError, ClickHouseUnavailableError } from '../clickhouse/client.ts';
import { createLogger } from '../logger.ts';
import { retryTransient } from './transient.ts';

const logger = createLogger('test', 'silent');
const fast = { logger, initialDelayMs: 1 };

/** A step that fails with each of `errors` in turn, then answers 'done'. */
const failingWith = (...errors: Error[]) => {
  let calls = 0;
  const step = async () => {
    const error = errors[calls++];
    if (error) throw error;
    return 'done';
  };
  return { step, calls: () => calls };
};

describe('retryTransient', () => {
  it('tries again after a dependency was unavailable', async () => {
    const { step, calls } = failingWith(
      new ClickHouseUnavailableError('INSERT', new Error('socket hang up')),
      new ClickHouseUnavailableError('INSERT', new Error('ECONNRESET')),
    );
    await expect(retryTransient('insert', step, fast)).resolves.toBe('done');
    expect(calls()).toBe(3);
  });

  it('fails at once on an error that another try cannot fix', async () => {
    const { step, calls } = failingWith(new ClickHouseQueryError('INSERT', new Error('Code: 60')));
    await expect(retryTransient('insert', step, fast)).rejects.toBeInstanceOf(ClickHouseQueryError);
    expect(calls()).toBe(1);
  });

  it('gives up after its attempts, with the last error', async () => {
    const down = () => new ClickHouseUnavailableError('INSERT', new Error('ECONNREFUSED'));
    const { step, calls } = failingWith(down(), down(), down(), down());
    await expect(retryTransient('insert', step, { ...fast, attempts: 3 })).rejects.toThrow(/ECONNREFUSED/);
    expect(calls()).toBe(3);
  });

  it('stops retrying once aborted', async () => {
    const stop = new AbortController();
    stop.abort();
    const { step, calls } = failingWith(new ClickHouseUnavailableError('INSERT', new Error('ECONNRESET')));
    await expect(retryTransient('insert', step, { ...fast, signal: stop.signal })).rejects.toThrow(
      /ECONNRESET/,
    );
    expect(calls()).toBe(1);
  });
});
