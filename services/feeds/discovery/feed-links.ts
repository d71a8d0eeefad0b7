// The feeds a web page names for itself (feed autodiscovery): <link rel="alternate"> elements whose type
// is a feed's, as browsers and feed readers find them. People add a site by the address they know, its
// home page, far more often than by its feed's; a page that names its feed can be subscribed through.
//
// Only what the page declares is taken, never guessed from <a> links or common paths: a guess could
// subscribe a caller to some other feed than the one the site offers. Read with htmlparser2's lenient
// tokenizer (entities in attributes decoded, broken markup tolerated), as plain-text.ts reads feed HTML.
import { Parser } from 'htmlparser2';
import { decodeBody } from '../parser/encoding.ts';

export interface FeedLink {
  /** Absolute http(s) URL, resolved against the page's <base href> or the page's own URL. */
  url: string;
  /** The link's title attribute, trimmed; null when it has none. */
  title: string | null;
  /** The declared media type, lowercased, without parameters. */
  type: string;
}

/** Media types that declare a feed. */
const feedTypes = new Set([
  'application/rss+xml',
  'application/atom+xml',
  'application/rdf+xml',
  'application/feed+json',
  'application/x.atom+xml',
  'application/x-atom+xml',
  'application/x-rss+xml',
  'text/xml',
]);

/**
 * `application/json` declared JSON Feed 1.0, but WordPress gives every page a `rel="alternate"
 * type="application/json"` link to its REST API: such a link counts only when it says it is a feed.
 */
const looksLikeJsonFeed = (href: string, title: string | null) =>
  /feed/i.test(href) || (title !== null && /feed/i.test(title));

/** A comments feed (WordPress names one on every post) is the page's feed only when there is no other. */
const isCommentsFeed = (link: FeedLink) =>
  /\bcomments?\b/i.test(link.title ?? '') || /\/comments?(\/|\.|$)/i.test(new URL(link.url).pathname);

/** How much of a page is read: the <head> is near its start, and a page may be large. */
export const maxPageBytes = 1 << 20;

const httpUrl = (href: string, base: string): string | null => {
  try {
    const url = new URL(href.trim(), base);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
    url.hash = '';
    return url.href;
  } catch {
    return null;
  }
};

/**
 * The feeds `html` (a page fetched from `pageUrl`, after redirects) links to, in the page's order except
 * that comments feeds come last; each URL once, at most `limit`.
 */
export function feedLinks(html: string, pageUrl: string, limit = 10): FeedLink[] {
  let base = pageUrl;
  let baseSeen = false;
  const found: { href: string; title: string | null; type: string }[] = [];
  const parser = new Parser(
    {
      onopentag(name, attributes) {
        if (name === 'base' && !baseSeen && attributes.href) {
          // The first <base href> counts (HTML's rule), resolved against the page's address.
          baseSeen = true;
          base = httpUrl(attributes.href, pageUrl) ?? pageUrl;
          return;
        }
        if (name !== 'link' || !attributes.href) return;
        const rel = (attributes.rel ?? '').toLowerCase().split(/\s+/);
        if (!rel.includes('alternate')) return;
        const type = (attributes.type ?? '').split(';')[0]!.trim().toLowerCase();
        const title = attributes.title?.trim() || null;
        const isFeed =
          feedTypes.has(type) || (type === 'application/json' && looksLikeJsonFeed(attributes.href, title));
        if (isFeed) found.push({ href: attributes.href, title, type });
      },
    },
    { lowerCaseTags: true, lowerCaseAttributeNames: true, decodeEntities: true },
  );
  parser.end(html.length > maxPageBytes ? html.slice(0, maxPageBytes) : html);

  // Resolved once the whole page is read: a <base> after a <link> still applies to it.
  const seen = new Set<string>();
  const links: FeedLink[] = [];
  for (const { href, title, type } of found) {
    const url = httpUrl(href, base);
    if (url === null || seen.has(url)) continue;
    seen.add(url);
    links.push({ url, title, type });
  }
  const ordered = [...links.filter((l) => !isCommentsFeed(l)), ...links.filter(isCommentsFeed)];
  return ordered.slice(0, limit);
}

/**
 * feedLinks of a fetched body, decoded as the parser decodes one (its charset from the header, a BOM or
 * the bytes, so that non-ASCII in an href survives); none for a body that cannot be decoded.
 */
export function feedLinksOfBody(body: Uint8Array, contentType: string | null, pageUrl: string): FeedLink[] {
  try {
    return feedLinks(decodeBody(body, contentType).text, pageUrl);
  } catch {
    return [];
  }
}
