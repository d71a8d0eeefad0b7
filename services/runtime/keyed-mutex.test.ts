import { describe, expect, it } from 'vitest';
import { ApiError } from './api-error.ts';
import { busyUnlessFree, LocalMutex, LockTimeoutError } from './keyed-mutex.ts';

const tick = () => new Promise((resolve) => setTimeout(resolve, 1));

describe('LocalMutex', () => {
  it('runs the tasks of a key one at a time, in order, and those of other keys alongside', async () => {
    const mutex = new LocalMutex();
    const events: string[] = [];
    const task = (name: string) => async () => {
      events.push(`${name} start`);
      await tick();
      events.push(`${name} end`);
      return name;
    };
    const results = await Promise.all([
      mutex.run('a', task('a1')),
      mutex.run('a', task('a2')),
      mutex.run('b', task('b1')),
    ]);
    expect(results).toEqual(['a1', 'a2', 'b1']);
    // a2 starts only after a1 ended; b1 does not wait for a1.
    expect(events.indexOf('a2 start')).toBeGreaterThan(events.indexOf('a1 end'));
    expect(events.indexOf('b1 start')).toBeLessThan(events.indexOf('a1 end'));
  });

  it('goes on with the next task after one fails, and hands the failure to its caller', async () => {
    const mutex = new LocalMutex();
    const failing = mutex.run('a', async () => {
      throw new Error('boom');
    });
    const next = mutex.run('a', async () => 'next');
    await expect(failing).rejects.toThrow('boom');
    await expect(next).resolves.toBe('next');
  });
});

describe('busyUnlessFree', () => {
  it('answers 503 with Retry-After when the lock stayed taken, and passes anything else through', async () => {
    const busy = await busyUnlessFree(
      Promise.reject(new LockTimeoutError('k', 10)),
      'another change is under way',
    ).catch((error: unknown) => error);
    expect(busy).toBeInstanceOf(ApiError);
    expect(busy).toMatchObject({
      code: 'service_unavailable',
      message: 'another change is under way; retry the request in a few seconds',
      headers: { 'Retry-After': '2' },
    });
    const other = new Error('ClickHouse is down');
    await expect(busyUnlessFree(Promise.reject(other), 'x')).rejects.toBe(other);
    await expect(busyUnlessFree(Promise.resolve(7), 'x')).resolves.toBe(7);
  });
});
