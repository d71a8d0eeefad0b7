// One task at a time per key, across every process that shares a Redis: for a check and the write it
// allows, such as "the plan allows one more alert endpoint" and the registration (two requests that both
// counted 9 of 10 would otherwise both register). Within a process the tasks of a key wait in line
// (so a process does not compete with itself through Redis); across processes a Redis lock (SET NX PX,
// released only by its holder) is taken around each task, polled for until it is free.
//
// Redis unreachable: the task runs under the process's own line only, and the failure is reported. A
// registration is not refused because Redis is down; the limit then holds per API process. A task that
// outlives `holdMs` loses the lock to the next process: it is bounded by the request's own deadline,
// which is shorter.
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { ApiError } from './api-error.ts';
import { releaseOwnLock } from './redis-script.ts';

export interface KeyedMutex {
  run<T>(key: string, task: () => Promise<T>): Promise<T>;
}

/** The line of each key in this process. */
export class LocalMutex implements KeyedMutex {
  private readonly tails = new Map<string, Promise<unknown>>();

  run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const before = this.tails.get(key) ?? Promise.resolve();
    const result = before.then(task, task);
    const tail = result.then(
      () => undefined,
      () => undefined,
    );
    this.tails.set(key, tail);
    // The last in line clears its key, so keys do not pile up.
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return result;
  }
}

export interface RedisMutexOptions {
  redis: Pick<Redis, 'set' | 'evalsha' | 'eval'>;
  /** Prefix of the lock keys (REDIS_KEY_PREFIX and what is locked). */
  prefix: string;
  /** How long a lock is held at most. */
  holdMs?: number;
  /** How long a task waits for another process's lock before it gives up (and throws). */
  waitMs?: number;
  pollMs?: number;
  /** Told when Redis cannot be reached (the task then runs without the cross-process lock). */
  onRedisError?: (error: unknown) => void;
}

export class LockTimeoutError extends Error {
  constructor(key: string, waitMs: number) {
    super(`${key} stayed locked for ${waitMs} ms`);
    this.name = 'LockTimeoutError';
  }
}

/**
 * What an API request answers when the lock it needed stayed taken (LockTimeoutError): 503
 * service_unavailable with `message` (what is under way) and Retry-After, since the other request holding
 * it ends within seconds. Other failures pass through.
 */
export async function busyUnlessFree<T>(locked: Promise<T>, message: string): Promise<T> {
  try {
    return await locked;
  } catch (error) {
    if (!(error instanceof LockTimeoutError)) throw error;
    throw new ApiError('service_unavailable', `${message}; retry the request in a few seconds`, {
      'Retry-After': '2',
    });
  }
}

export class RedisMutex implements KeyedMutex {
  private readonly local = new LocalMutex();
  private readonly owner = randomUUID();
  private readonly holdMs: number;
  private readonly waitMs: number;
  private readonly pollMs: number;

  constructor(private readonly options: RedisMutexOptions) {
    this.holdMs = options.holdMs ?? 30_000;
    this.waitMs = options.waitMs ?? 15_000;
    this.pollMs = options.pollMs ?? 25;
  }

  run<T>(key: string, task: () => Promise<T>): Promise<T> {
    return this.local.run(key, async () => {
      const lockKey = this.options.prefix + key;
      const held = await this.acquire(lockKey);
      try {
        return await task();
      } finally {
        if (held)
          await releaseOwnLock.run(this.options.redis, [lockKey], [this.owner]).catch(() => undefined);
      }
    });
  }

  /** True once held; false when Redis could not be asked (the task goes ahead without it). */
  private async acquire(lockKey: string): Promise<boolean> {
    const giveUpAt = Date.now() + this.waitMs;
    for (;;) {
      let reply: string | null;
      try {
        reply = await this.options.redis.set(lockKey, this.owner, 'PX', this.holdMs, 'NX');
      } catch (error) {
        this.options.onRedisError?.(error);
        return false;
      }
      if (reply === 'OK') return true;
      if (Date.now() >= giveUpAt) throw new LockTimeoutError(lockKey, this.waitMs);
      await new Promise((resolve) => setTimeout(resolve, this.pollMs));
    }
  }
}
