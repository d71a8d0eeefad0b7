// What the poller remembers about a source between polls: HTTP validators for
// the conditional GET and the failure streak. Ephemeral (Redis): losing it
// costs one unconditional GET and resets the streak, nothing more.
import type { Redis } from 'ioredis';
import { RedisScript } from '../runtime/redis-script.ts';

export interface PollState {
  etag: string | null;
  lastModified: string | null;
  consecutiveFailures: number;
}

const empty: PollState = { etag: null, lastModified: null, consecutiveFailures: 0 };
const thirtyDays = 30 * 24 * 60 * 60;

/**
 * The state replaced whole, atomically, as one command: a MULTI of DEL, HSET and EXPIRE is five, each
 * with its own reply for the client to read, on every poll.
 */
const setScript = new RedisScript(`
redis.call('DEL', KEYS[1])
redis.call('HSET', KEYS[1], 'etag', ARGV[1], 'last_modified', ARGV[2], 'failures', ARGV[3])
return redis.call('EXPIRE', KEYS[1], ARGV[4])`);

/** The state as stored (a hash, as HGETALL gives it); no hash, the state of a source never polled. */
export function pollStateOf(raw: Record<string, string> | null | undefined): PollState {
  if (!raw || Object.keys(raw).length === 0) return { ...empty };
  return {
    etag: raw.etag || null,
    lastModified: raw.last_modified || null,
    consecutiveFailures: Number(raw.failures ?? 0) || 0,
  };
}

export class PollStateStore {
  constructor(
    private readonly redis: Redis,
    private readonly prefix = 'news:poll:',
  ) {}

  /** Where a source's state is kept (source-lock.ts reads it as it takes the lock). */
  key(sourceId: string): string {
    return this.prefix + sourceId;
  }

  async get(sourceId: string): Promise<PollState> {
    return pollStateOf(await this.redis.hgetall(this.key(sourceId)));
  }

  async set(sourceId: string, state: PollState): Promise<void> {
    await setScript.run(
      this.redis,
      [this.key(sourceId)],
      [state.etag ?? '', state.lastModified ?? '', String(state.consecutiveFailures), thirtyDays],
    );
  }
}
