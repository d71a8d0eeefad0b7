// A short Redis lock per source: during a rebalance two pollers may briefly
// both believe they own a partition; the lock keeps them from polling the same
// source at the same time (and dedupe keeps either from emitting twice).
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';

const releaseScript = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end`;

export class SourceLock {
  private readonly owner = randomUUID();

  constructor(
    private readonly redis: Redis,
    private readonly holdMs: number,
    private readonly prefix = 'news:lock:poll:',
  ) {}

  async acquire(sourceId: string): Promise<boolean> {
    return (await this.redis.set(this.prefix + sourceId, this.owner, 'PX', this.holdMs, 'NX')) === 'OK';
  }

  async release(sourceId: string): Promise<void> {
    await this.redis.eval(releaseScript, 1, this.prefix + sourceId, this.owner);
  }
}
