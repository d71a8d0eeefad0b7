// An article's link without what a feed changes at every fetch: what the poller's alias of an article
// (seen-articles.ts) and its fingerprint's link (article-fingerprint.ts) are made of.

/**
 * A value made for one fetch: a Unix time (10 digits and more: seconds, milliseconds), a UUID, or a
 * hexadecimal token of 16 characters and more with letters and digits (a session, a cache-buster).
 * An article's own id in a link (`?id=48213`, `?p=1042`) is none of these.
 */
const volatileValue =
  /^(?:\d{10,}|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{16,})$/i;

/** The URL without its volatile query parameters (which the feed may change at every fetch). */
export function stableUrl(url: string): string {
  const query = url.indexOf('?');
  if (query < 0) return url;
  const fragment = url.indexOf('#', query);
  const end = fragment < 0 ? url.length : fragment;
  const kept = url
    .slice(query + 1, end)
    .split('&')
    .filter((pair) => !volatileValue.test(pair.slice(pair.indexOf('=') + 1)));
  return url.slice(0, query) + (kept.length > 0 ? `?${kept.join('&')}` : '') + url.slice(end);
}
