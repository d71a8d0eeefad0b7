// Subscriptions in Redis, one JSON value per source, readable by every poller: the one that subscribed
// is not necessarily the one a hub's verification or notification reaches. Transitions that answer a
// hub are compare-and-set on the request id, so a late answer to an older request changes nothing.
import type { Redis } from 'ioredis';
import { RedisScript } from '../runtime/redis-script.ts';
import type { Subscription } from './subscription.ts';

/** A record outlives its last deadline by this much, then Redis forgets it (a source long gone). */
const keepMs = 7 * 24 * 60 * 60 * 1000;

// KEYS[1]: the record; ARGV: expected request id, the next record ('' deletes it), its expiry (ms).
const replaceIfCurrent = new RedisScript(`
local current = redis.call('GET', KEYS[1])
if not current then return 0 end
if cjson.decode(current).request ~= ARGV[1] then return 0 end
if ARGV[2] == '' then redis.call('DEL', KEYS[1]) else redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3]) end
return 1
`);

/** What the keeper and the callback need of the store (an in-memory one stands in for it in unit tests). */
export interface Subscriptions {
  get(sourceId: string): Promise<Subscription | null>;
  put(subscription: Subscription): Promise<void>;
  /** Writes `next` (null: deletes) only if the stored record still belongs to request `request`. */
  replace(sourceId: string, request: string, next: Subscription | null): Promise<boolean>;
  delete(sourceId: string): Promise<void>;
}

export class SubscriptionStore implements Subscriptions {
  constructor(
    private readonly redis: Pick<Redis, 'get' | 'set' | 'del' | 'evalsha' | 'eval'>,
    private readonly prefix: string,
    private readonly clock: () => number = Date.now,
  ) {}

  private key(sourceId: string) {
    return `${this.prefix}${sourceId}`;
  }

  async get(sourceId: string): Promise<Subscription | null> {
    const raw = await this.redis.get(this.key(sourceId));
    return raw === null ? null : (JSON.parse(raw) as Subscription);
  }

  async put(subscription: Subscription): Promise<void> {
    await this.redis.set(
      this.key(subscription.sourceId),
      JSON.stringify(subscription),
      'PX',
      this.ttl(subscription),
    );
  }

  /** Writes `next` (null: deletes) only if the stored record still belongs to request `request`. */
  async replace(sourceId: string, request: string, next: Subscription | null): Promise<boolean> {
    const result = await replaceIfCurrent.run(
      this.redis,
      [this.key(sourceId)],
      [request, next === null ? '' : JSON.stringify(next), next === null ? 0 : this.ttl(next)],
    );
    return result === 1;
  }

  async delete(sourceId: string): Promise<void> {
    await this.redis.del(this.key(sourceId));
  }

  private ttl(s: Subscription): number {
    const last = Math.max(this.clock(), s.expiresAt ?? 0, s.retryAt ?? 0, s.verifyBy ?? 0);
    return Math.max(1, last - this.clock() + keepMs);
  }
}
