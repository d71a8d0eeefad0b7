// Dedupe across re-polls, restarts and pollers (Redis, bounded by expiry).
// Two steps so that a crash loses nothing: claim (short expiry) before
// producing, confirm (long expiry) after Kafka acknowledged. A poller that
// dies between the two leaves a claim that expires, and the next poll emits
// the article; the deterministic id makes that one rare repeat harmless.
import type { Redis } from 'ioredis';

export interface SeenArticlesOptions {
  /** How long a confirmed article is remembered. */
  ttlSeconds: number;
  /** How long a claim holds while its article is being produced. */
  claimSeconds?: number;
  prefix?: string;
}

export class SeenArticles {
  private readonly claimSeconds: number;
  private readonly prefix: string;

  constructor(
    private readonly redis: Redis,
    private readonly options: SeenArticlesOptions,
  ) {
    this.claimSeconds = options.claimSeconds ?? 300;
    this.prefix = options.prefix ?? 'news:seen:';
  }

  /** Returns the ids this caller now owns: never seen, and not claimed by anyone else. */
  async claim(ids: readonly string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const pipeline = this.redis.pipeline();
    for (const id of ids) pipeline.set(this.prefix + id, 'claimed', 'EX', this.claimSeconds, 'NX');
    const replies = (await pipeline.exec()) ?? [];
    const owned = new Set<string>();
    replies.forEach(([error, reply], i) => {
      if (error) throw error;
      if (reply === 'OK') owned.add(ids[i]!);
    });
    return owned;
  }

  /** The articles reached Kafka: remember them for the full TTL. */
  async confirm(ids: Iterable<string>): Promise<void> {
    const pipeline = this.redis.pipeline();
    for (const id of ids) pipeline.set(this.prefix + id, 'seen', 'EX', this.options.ttlSeconds);
    await pipeline.exec();
  }

  /** Producing failed: give the claims back so the next poll retries them. */
  async release(ids: Iterable<string>): Promise<void> {
    const keys = [...ids].map((id) => this.prefix + id);
    if (keys.length) await this.redis.del(...keys);
  }
}
