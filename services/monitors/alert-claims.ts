// One alert per monitor and article URL, and one per article however often it is edited. The same story reaches us as two articles when two feeds carry
// it (a publisher's "top stories" and its "business" feed, or one feed added under two URLs): two
// article ids with one page, linked alike or in two forms of its URL (pageOf: https and http, AMP, ?ref=rss). A monitor's owner wants to hear of the story once, so the first
// article to match claims the (monitor, URL) pair and later articles with that URL raise no alert for
// that monitor. The claim names the article that holds it, so the holder's own re-enrichments and
// replays raise its alert again (the same alert id, deduplicated downstream as before).
//
// Claims live in Redis for a window (MATCHER_REPEATED_STORY_DAYS), one SET NX GET per pair, pipelined:
// one round trip a batch. Matchers on other partitions share them. Should Redis lose them, a replay may
// let the other article of a pair win: a second alert for the story, never a lost one.
import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import { canonicalUrl } from '../runtime/canonical-url.ts';
import { DependencyUnavailableError } from '../runtime/kafka/errors.ts';

export interface AlertClaim {
  monitorId: string;
  /** The page the article's URL names (pageOf): one key for its http and https, www, AMP and referral forms. */
  url: string;
  articleId: string;
  /** The revision of the article whose enrichment matched (ArticleEnriched.revision). */
  revision: number;
}

/** Who holds a (monitor, page) pair: the article, and the revision that claimed it (null: not recorded). */
export interface ClaimHolder {
  articleId: string;
  revision: number | null;
}

export interface AlertClaims {
  /** For each claim, in order, what holds its (monitor, URL) pair now (the claim itself if it won). */
  holders(claims: readonly AlertClaim[]): Promise<ClaimHolder[]>;
}

/** A claim's value: the article and its revision (claims written before revisions were kept hold the id alone). */
const claimValue = (claim: AlertClaim) => `${claim.articleId} ${claim.revision}`;

function holderOf(value: string): ClaimHolder {
  const space = value.lastIndexOf(' ');
  const revision = space < 0 ? NaN : Number(value.slice(space + 1));
  return Number.isInteger(revision)
    ? { articleId: value.slice(0, space), revision }
    : { articleId: value, revision: null };
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

  async holders(claims: readonly AlertClaim[]): Promise<ClaimHolder[]> {
    if (claims.length === 0) return [];
    const pipeline = this.redis.pipeline();
    // NX with GET (Redis 7): sets the key if it is free and answers the value it had (null: this claim won).
    for (const claim of claims)
      pipeline.set(this.keyOf(claim), claimValue(claim), 'EX', this.options.windowSeconds, 'NX', 'GET');
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
      return typeof previous === 'string'
        ? holderOf(previous)
        : { articleId: claim.articleId, revision: claim.revision };
    });
  }
}

/** Query parameters that mark how a reader reached a page, not which page it is. */
const referralParameters = new Set(['ref', 'referrer', 'ref_url', 'amp', 'amp_js_v', 'usqp', 'cmp', 'rss']);
/** Parameters whose value alone says "the AMP (or feed) form": `outputType=amp`, `from=rss`. */
const formParameter = /^(outputtype|output|format|from|src|source)$/i;
const formValue = /^(amp|rss|feed|rss\d*)$/i;

/**
 * The page an article URL names, as a claim key: URLs that differ only in what canonicalUrl keeps but a
 * reader would call the same page (http or https, `www.`, `amp.` or `m.` before the host, a trailing
 * slash, an `/amp` or `.amp` ending, `?ref=rss`, `?amp=1`, `?outputType=amp`) give one key, so two feeds
 * linking one story in two such forms raise one alert. Other query parameters stay (`?id=2` is another
 * page). Only the claims use it: article ids are made from the canonical URL, and do not change.
 */
export function pageOf(url: string): string {
  const canonical = canonicalUrl(url);
  if (canonical === null) return url;
  const parsed = new URL(canonical);
  const host = parsed.host.toLowerCase().replace(/^(www\d?|amp|m|mobile)\./, '');
  let path = parsed.pathname.replace(/(\/amp|\.amp)(\.html?)?\/?$/i, '$2').replace(/^\/amp\//i, '/');
  if (path.length > 1) path = path.replace(/\/+$/, '');
  const kept = [...parsed.searchParams.entries()]
    .filter(([name, value]) => {
      const lower = name.toLowerCase();
      return !referralParameters.has(lower) && !(formParameter.test(lower) && formValue.test(value));
    })
    .sort(([a, av], [b, bv]) => (a === b ? av.localeCompare(bv) : a < b ? -1 : 1));
  const query = kept.length ? `?${new URLSearchParams(kept).toString()}` : '';
  return `//${host}${path || '/'}${query}`;
}

/**
 * The alerts to raise: each keeps its place unless another article holds its monitor and URL
 * (`repeated`), or an earlier revision of its own article does (`edited`: an article edited after it
 * alerted the monitor alerts once, and its edit reaches subscribers as article.updated; sent again under
 * the same alert id, its new body would reach receivers as a retry of the first, which they drop, or as
 * a second alert). The claiming revision itself, retried or replayed, raises its alert again (the same
 * alert id, deduplicated downstream), so an alert is never lost to its own claim. Alerts without a URL
 * (an article the read model did not have) are not claimed. `revisionOf`: the revision of the article
 * whose enrichment raised the alert.
 */
export async function withoutRepeatedStories<
  A extends { monitor_id: string; article_url: string; article_id: string },
>(
  alerts: readonly A[],
  claims: AlertClaims,
  revisionOf: (alert: A) => number,
): Promise<{ raised: A[]; repeated: A[]; edited: A[] }> {
  const claimed = alerts.filter((a) => a.article_url !== '');
  const holders = await claims.holders(
    claimed.map((a) => ({
      monitorId: a.monitor_id,
      url: pageOf(a.article_url),
      articleId: a.article_id,
      revision: revisionOf(a),
    })),
  );
  const repeated = new Set<A>();
  const edited = new Set<A>();
  claimed.forEach((a, i) => {
    const holder = holders[i]!;
    if (holder.articleId !== a.article_id) repeated.add(a);
    else if (holder.revision !== null && holder.revision < revisionOf(a)) edited.add(a);
  });
  return {
    raised: alerts.filter((a) => !repeated.has(a) && !edited.has(a)),
    repeated: [...repeated],
    edited: [...edited],
  };
}
