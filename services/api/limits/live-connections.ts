// Live connections (SSE streams) per credential holder, limited by plan and
// shared across API instances. Each open connection holds a lease in a Redis
// sorted set scored by its expiry; a holder renews its leases while the
// connection lives, so a crashed instance's connections expire instead of
// counting forever. Acquire is one Lua script: drop expired leases, count,
// admit if under the limit.
import type { Redis } from 'ioredis';

const acquireScript = `
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
if tonumber(ARGV[4]) >= 0 and redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[4]) then return 0 end
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[3])
redis.call('PEXPIRE', KEYS[1], ARGV[5])
return 1`;

export interface Lease {
  /** Keeps the lease alive; call more often than the lease time. */
  renew(): Promise<void>;
  release(): Promise<void>;
}

export class LiveConnections {
  constructor(
    private readonly redis: Redis,
    private readonly options: { prefix: string; leaseMs: number; clock?: () => number },
  ) {}

  private now(): number {
    return (this.options.clock ?? Date.now)();
  }

  /** A lease, or null when the holder already has `limit` live connections (null limit = unlimited). */
  async acquire(holder: string, connectionId: string, limit: number | null): Promise<Lease | null> {
    const key = `${this.options.prefix}${holder}`;
    const now = this.now();
    const admitted = await this.redis.eval(
      acquireScript,
      1,
      key,
      now,
      now + this.options.leaseMs,
      connectionId,
      limit ?? -1,
      this.options.leaseMs * 2,
    );
    if (Number(admitted) !== 1) return null;
    return {
      renew: async () => {
        await this.redis.zadd(key, this.now() + this.options.leaseMs, connectionId);
        await this.redis.pexpire(key, this.options.leaseMs * 2);
      },
      release: async () => {
        await this.redis.zrem(key, connectionId);
      },
    };
  }

  async count(holder: string): Promise<number> {
    const key = `${this.options.prefix}${holder}`;
    await this.redis.zremrangebyscore(key, '-inf', this.now());
    return this.redis.zcard(key);
  }
}
