// What POST /v1/sources learns of a URL before adding it: fetched once under the poller's outbound rules
// and parsed, it is a feed (its title, language and home page), or it is not, and then why not and, when
// it is a web page, which feeds the page names for itself (feed-links.ts), for the caller to be
// subscribed through.
import { feedLinksOfBody } from '../../feeds/discovery/feed-links.ts';
import type { FeedFetcher } from '../../feeds/fetcher/feed-fetcher.ts';
import { parseFeed } from '../../feeds/parser/parse-feed.ts';

export type FeedCheckResult =
  | { ok: true; title: string | null; language: string | null; siteUrl: string | null; items: number }
  | {
      ok: false;
      reason: string;
      /** The feeds the page at the URL links to, best first; empty when it is no page or names none. */
      feedLinks: readonly string[];
      /** Where the page was fetched from after redirects, when it was fetched. */
      pageUrl?: string;
      /** The feed's own Retry-After (a 429 or 503), in milliseconds; absent when it sent none. */
      retryAfterMs?: number | null;
    };

/** Fetches and parses a feed once. */
export type FeedCheck = (url: string) => Promise<FeedCheckResult>;

/** How many of a page's feeds are worth trying: the first is the site's own nearly always. */
export const feedLinksTried = 3;

export function feedCheck(fetcher: Pick<FeedFetcher, 'fetch'>): FeedCheck {
  return async (url) => {
    const outcome = await fetcher.fetch({ url });
    if (outcome.kind === 'failed')
      return { ok: false, reason: outcome.reason, feedLinks: [], retryAfterMs: outcome.retryAfterMs };
    if (outcome.kind === 'refused') return { ok: false, reason: outcome.reason, feedLinks: [] };
    if (outcome.kind !== 'ok')
      return { ok: false, reason: `unexpected answer ${outcome.status}`, feedLinks: [] };
    try {
      // Relative links (the channel's own <link>, a home page of "/") resolve against where the feed is.
      const feed = parseFeed(outcome.body, outcome.contentType, { baseUrl: outcome.finalUrl });
      return {
        ok: true,
        title: feed.title,
        language: feed.language,
        siteUrl: feed.siteUrl,
        items: feed.items.length,
      };
    } catch (error) {
      const reason = (error as Error).message;
      // Not a feed: perhaps a page that names its feeds.
      const links = feedLinksOfBody(outcome.body, outcome.contentType, outcome.finalUrl);
      return {
        ok: false,
        reason,
        feedLinks: links.slice(0, feedLinksTried).map((l) => l.url),
        pageUrl: outcome.finalUrl,
      };
    }
  };
}
