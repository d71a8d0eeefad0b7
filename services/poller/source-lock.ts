// A short Redis lock per source: during a rebalance two pollers may briefly
// both believe they own a partition; the lock keeps them from polling the same
// source at the same time (and dedupe keeps either from emitting twice).
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { RedisScript, releaseOwnLock } from '../runtime/redis-script.ts';
import { pollStateOf, type PollState, type PollStateStore } from './poll-state.ts';

/** acquire()'s SET, then, only if it took the lock, the source's poll state (a flat HGETALL reply). */
const acquireReadingScript = new RedisScript(`
if not redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2], 'NX') then return false end
return redis.call('HGETALL', KEYS[2])`);

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

  /**
   * acquire(), and what the poll needs first, the source's poll state, read in the same command: one
   * round trip to Redis fewer per poll. Null when another poller holds the lock (nothing is read).
   */
  async acquireReading(sourceId: string, state: Pick<PollStateStore, 'key'>): Promise<PollState | null> {
    const reply = (await acquireReadingScript.run(
      this.redis,
      [this.prefix + sourceId, state.key(sourceId)],
      [this.owner, this.holdMs],
    )) as string[] | null;
    if (reply === null) return null;
    const raw: Record<string, string> = {};
    for (let i = 0; i + 1 < reply.length; i += 2) raw[reply[i]!] = reply[i + 1]!;
    return pollStateOf(raw);
  }

  async release(sourceId: string): Promise<void> {
    await releaseOwnLock.run(this.redis, [this.prefix + sourceId], [this.owner]);
  }
}
