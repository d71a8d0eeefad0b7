// What a feed says about itself beyond its items: how often it may be fetched (RSS <ttl>, the RSS 1.0
// syndication module's sy:updatePeriod and sy:updateFrequency) and where it can be pushed from (WebSub:
// <atom:link rel="hub"> and rel="self"). The poller's schedule (services/poller/poll-interval.ts) and
// the WebSub subscriber read them; a feed that says nothing gets nulls and an empty list.
import { childElements, attribute, textContent, type XmlElement } from './xml-tree.ts';
import { NS } from './namespaces.ts';
import { resolveUrl } from './urls.ts';

export interface PublisherHints {
  /** RSS <ttl>: minutes the channel may be cached, as seconds; null when absent or not a number. */
  ttlSeconds: number | null;
  /** sy:updatePeriod divided by sy:updateFrequency, in seconds (hourly × 2 = 1800); null when absent. */
  updateIntervalSeconds: number | null;
  /** WebSub hubs the feed names, absolute http(s) URLs, in document order, without repeats. */
  hubs: string[];
  /** The feed's own URL as it names it (the WebSub topic); null when it names none. */
  selfUrl: string | null;
}

export const noHints: PublisherHints = {
  ttlSeconds: null,
  updateIntervalSeconds: null,
  hubs: [],
  selfUrl: null,
};

const periodSeconds: Record<string, number> = {
  hourly: 3_600,
  daily: 86_400,
  weekly: 7 * 86_400,
  monthly: 30 * 86_400,
  yearly: 365 * 86_400,
};

/** A whole number of at least 1 from an element's text ("60", " 15 "); anything else is not a hint. */
function positiveInteger(text: string | null | undefined): number | null {
  if (text === null || text === undefined || !/^\s*\d{1,9}\s*$/.test(text)) return null;
  const value = Number(text);
  return value >= 1 ? value : null;
}

const firstText = (parent: XmlElement, ns: string, name: string): string | null => {
  const element = childElements(parent, ns, name)[0];
  return element ? textContent(element) : null;
};

function updateInterval(channel: XmlElement): number | null {
  const periodText = firstText(channel, NS.sy, 'updatePeriod');
  const frequencyText = firstText(channel, NS.sy, 'updateFrequency');
  if (periodText === null && frequencyText === null) return null;
  // The module's defaults: daily, once.
  const period = periodSeconds[(periodText ?? 'daily').trim().toLowerCase()];
  const frequency = frequencyText === null ? 1 : positiveInteger(frequencyText);
  if (period === undefined || frequency === null) return null;
  return Math.max(1, Math.round(period / frequency));
}

/** The hints of an XML feed: `channel` is RSS's <channel>, RDF's <channel> or Atom's <feed>. */
export function publisherHintsOf(channel: XmlElement, baseUrl: string | null): PublisherHints {
  const ttlMinutes = positiveInteger(firstText(channel, NS.none, 'ttl'));
  const hubs: string[] = [];
  let selfUrl: string | null = null;
  for (const link of childElements(channel, NS.atom, 'link')) {
    const href = attribute(link, 'href')?.trim();
    if (!href) continue;
    const rels = (attribute(link, 'rel') ?? '').toLowerCase().split(/\s+/);
    const url = resolveUrl(href, link.base, baseUrl);
    if (!/^https?:\/\//i.test(url)) continue;
    if (rels.includes('hub') && !hubs.includes(url)) hubs.push(url);
    if (rels.includes('self') && selfUrl === null) selfUrl = url;
  }
  return {
    ttlSeconds: ttlMinutes === null ? null : ttlMinutes * 60,
    updateIntervalSeconds: updateInterval(channel),
    hubs,
    selfUrl,
  };
}

/** JSON Feed: `hubs` ([{ type, url }], WebSub among the types) and `feed_url`; no caching hints. */
export function jsonFeedHints(document: Record<string, unknown>, baseUrl: string | null): PublisherHints {
  const hubs: string[] = [];
  if (Array.isArray(document.hubs))
    for (const hub of document.hubs as unknown[]) {
      if (typeof hub !== 'object' || hub === null) continue;
      const { type, url } = hub as { type?: unknown; url?: unknown };
      if (typeof url !== 'string' || (typeof type === 'string' && !/websub|pubsubhubbub/i.test(type)))
        continue;
      const resolved = resolveUrl(url.trim(), baseUrl);
      if (/^https?:\/\//i.test(resolved) && !hubs.includes(resolved)) hubs.push(resolved);
    }
  const feedUrl =
    typeof document.feed_url === 'string' ? resolveUrl(document.feed_url.trim(), baseUrl) : null;
  return {
    ...noHints,
    hubs,
    selfUrl: feedUrl !== null && /^https?:\/\//i.test(feedUrl) ? feedUrl : null,
  };
}
