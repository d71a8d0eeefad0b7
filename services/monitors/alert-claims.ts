// One alert per monitor and article URL. The same story reaches us as two articles when two feeds carry
// it (a publisher's "top stories" and its "business" feed, or one feed added under two URLs): two
// article ids with one canonical URL. A monitor's owner wants to hear of the story once, so the first
// article to match claims the (monitor, URL) pair and later articles with that URL raise no alert for
// that monitor. The claim names the article that holds it, so the holder's own re-enrichments and
// replays raise its alert again (the same alert id, deduplicated downstream as before).
//
// Claims live in Redis for a window (MATCHER_REPEATED_STORY_DAYS), one SET NX GET per pair, pipelined:
// one round trip a batch. Matchers on other partitions share them. Should Redis lose them, a replay may
// let the other article of a pair win: a second alert for the story, never a lost one.
import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import { DependencyUnavailableError } from '../runtime/kafka/errors.ts';

export interface AlertClaim {
  monitorId: string;
  /** The article's canonical URL. */
  url: string;
  articleId: string;
}

export interface AlertClaims {
  /** For each claim, in order, the article that holds its (monitor, URL) pair now (itself if it won). */
  holders(claims: readonly AlertClaim[]): Promise<string[]>;
}

export class RedisAlertClaims implements AlertClaims {
  constructor(
    private readonly redis: Pick<Redis, 'pipeline'>,
    private readonly options: { prefix: string; windowSeconds: number },
  ) {}

  keyOf(claim: Pick<AlertClaim, 'monitorId' | 'url'>): string {
    const url = createHash('sha256').update(claim.url).digest('base64url').slice(0, 32);
    return `${this.options.prefix}alert-url:${claim.monitorId}:${url}`;
  }

  async holders(claims: readonly AlertClaim[]): Promise<string[]> {
    if (claims.length === 0) return [];
    const pipeline = this.redis.pipeline();
    // NX with GET (Redis 7): sets the key if it is free and answers the value it had (null: this claim won).
    for (const claim of claims)
      pipeline.set(this.keyOf(claim), claim.articleId, 'EX', this.options.windowSeconds, 'NX', 'GET');
    let answers: [Error | null, unknown][] | null;
    try {
      answers = await pipeline.exec();
    } catch (error) {
      throw new DependencyUnavailableError(`Redis cannot record alert claims: ${(error as Error).message}`, {
        cause: error,
      });
    }
    return claims.map((claim, i) => {
      const [error, previous] = answers?.[i] ?? [new Error('no answer'), null];
      if (error)
        throw new DependencyUnavailableError(`Redis cannot record alert claims: ${error.message}`, {
          cause: error,
        });
      return typeof previous === 'string' ? previous : claim.articleId;
    });
  }
}

/**
 * The alerts to raise: each keeps its place unless another article holds its monitor and URL. Alerts
 * without a URL (an article the read model did not have) are not claimed.
 */
export async function withoutRepeatedStories<
  A extends { monitor_id: string; article_url: string; article_id: string },
>(alerts: readonly A[], claims: AlertClaims): Promise<{ raised: A[]; repeated: A[] }> {
  const claimed = alerts.filter((a) => a.article_url !== '');
  const holders = await claims.holders(
    claimed.map((a) => ({ monitorId: a.monitor_id, url: a.article_url, articleId: a.article_id })),
  );
  const repeatedSet = new Set(claimed.filter((a, i) => holders[i] !== a.article_id));
  return {
    raised: alerts.filter((a) => !repeatedSet.has(a)),
    repeated: alerts.filter((a) => repeatedSet.has(a)),
  };
}
