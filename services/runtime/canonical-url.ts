// The canonical form of a URL: what makes two links "the same article" or
// "the same feed". Tracking parameters and fragments are removed, the host is
// lowercased, default ports dropped, remaining query parameters sorted, so a
// link shared with utm_* tags and one without give the same id.

/** Query parameters that only track where a click came from. */
const trackingParameters = new Set([
  'fbclid',
  'gclid',
  'dclid',
  'gbraid',
  'wbraid',
  'msclkid',
  'mc_cid',
  'mc_eid',
  'igshid',
  'yclid',
  '_ga',
  '_gl',
  'ref_src',
  'cmpid',
  'ito',
  'ns_mchannel',
  'ns_source',
  'ns_campaign',
  'ns_linkname',
  'ns_fee',
  'at_medium',
  'at_campaign',
  'ocid',
  // Webtrends campaign tags (heise and other German publishers' feeds).
  'wt_mc',
  'wt_zmc',
]);

const trackingPrefixes = ['utm_', 'pk_', 'mtm_', 'hsa_', 'oly_', '__hs', 'vero_'];

const isTracking = (name: string, value: string) => {
  const lower = name.toLowerCase();
  return (
    trackingParameters.has(lower) ||
    trackingPrefixes.some((p) => lower.startsWith(p)) ||
    // Medium tags every link of its feeds `?source=rss----<publication>---<n>`; a `source` of other
    // values may choose what a page shows, so only that form goes.
    (lower === 'source' && /^rss[-_]/i.test(value))
  );
};

/**
 * The article a click-counting redirect carries whole at the end of its path, as Folha's feeds link
 * theirs (`https://redir.folha.com.br/redir/online/…/rss091/*https://www1.folha.uol.com.br/…`): the same
 * article as its direct link, and the link a reader wants.
 */
const wrappedLink = /\/\*(https?:\/\/.+)$/i;

/**
 * Returns the canonical absolute URL, or null if `raw` is not an http(s) URL
 * (resolved against `base` when relative).
 */
export function canonicalUrl(raw: string, base?: string): string | null {
  return canonicalAndResolved(raw, base)?.canonical ?? null;
}

/**
 * canonicalUrl, and the URL as resolved before it was made canonical (`new URL(raw.trim(), base).href`):
 * the poller keeps both for every item, and this parses the link once for the two.
 */
export function canonicalAndResolved(
  raw: string,
  base?: string,
): { canonical: string; resolved: string } | null {
  let url: URL;
  try {
    url = new URL(raw.trim(), base);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  const resolved = url.href;
  const wrapped = wrappedLink.exec(url.pathname + url.search)?.[1];
  if (wrapped !== undefined) {
    const inner = canonicalAndResolved(wrapped);
    if (inner) return { canonical: inner.canonical, resolved };
  }
  // Every setter serialises the URL again, and most links need none of them (this runs for every item
  // of every poll), so each is set only when it changes something. A '#' or '?' left with nothing
  // after it still counts: the href keeps it.
  if (url.href.includes('#')) url.hash = '';
  if (url.username || url.password) {
    url.username = '';
    url.password = '';
  }
  const hostname = url.hostname.toLowerCase().replace(/\.$/, '');
  if (hostname !== url.hostname) url.hostname = hostname;
  // URL already drops default ports; keep the explicit non-default ones.
  if (url.href.includes('?')) {
    const kept = [...url.searchParams.entries()].filter(([name, value]) => !isTracking(name, value));
    kept.sort(([a, av], [b, bv]) => (a === b ? av.localeCompare(bv) : a < b ? -1 : 1));
    url.search = kept.length ? `?${new URLSearchParams(kept).toString()}` : '';
  }
  if (url.pathname === '') url.pathname = '/';
  return { canonical: url.href, resolved };
}
