// RedisMutex on the real Redis: two processes' mutexes (two instances, each with its own owner) take
// turns on a key; a lock held elsewhere makes a task wait, and past its wait the task is refused.
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LockTimeoutError, RedisMutex } from '../../services/runtime/keyed-mutex.ts';
import { stack } from './support/stack.ts';

describe('RedisMutex', () => {
  let redis: Redis;
  const prefix = `test:lock:${randomUUID()}:`;

  beforeAll(() => {
    redis = new Redis(stack.REDIS_URL);
  });
  afterAll(async () => {
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    redis.disconnect();
  });

  it('lets one process at a time run the tasks of a key', async () => {
    const first = new RedisMutex({ redis, prefix });
    const second = new RedisMutex({ redis, prefix });
    let inside = 0;
    let most = 0;
    const task = async () => {
      inside += 1;
      most = Math.max(most, inside);
      await new Promise((resolve) => setTimeout(resolve, 20));
      inside -= 1;
    };
    await Promise.all(
      Array.from({ length: 6 }, (_, i) => (i % 2 === 0 ? first : second).run('tenant-1', task)),
    );
    expect(most).toBe(1);
    // Released after each task: nothing is left locked.
    expect(await redis.exists(`${prefix}tenant-1`)).toBe(0);
  });

  it('waits for a lock another process holds, and gives up past its wait', async () => {
    await redis.set(`${prefix}tenant-2`, 'someone else', 'PX', 300);
    const mutex = new RedisMutex({ redis, prefix, waitMs: 2_000 });
    const started = Date.now();
    await mutex.run('tenant-2', async () => undefined);
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);

    await redis.set(`${prefix}tenant-3`, 'someone else', 'PX', 10_000);
    const impatient = new RedisMutex({ redis, prefix, waitMs: 100 });
    let ran = false;
    await expect(impatient.run('tenant-3', async () => (ran = true))).rejects.toBeInstanceOf(
      LockTimeoutError,
    );
    expect(ran).toBe(false);
    // Not released by a process that never held it.
    expect(await redis.get(`${prefix}tenant-3`)).toBe('someone else');
  });
});
