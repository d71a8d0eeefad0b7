// The outlet an item names as its origin (RSS <source>, Atom <source>: ParsedItem.publisher), as the
// article's publisher_name and publisher_url (article-publisher.ts is how the API shows them).
// The publisher is another outlet than the source: the newspaper of a Google News item. Some feeds
// write their own address in every item's <source url> (a CMS filling the element with the channel's
// feed, or the site's main feed in each of its section feeds); taken as the publisher, every article of
// such a source would say it was first published by the feed it was found in. An address of the
// source's own site is therefore never the publisher's; the name stays when it names another outlet
// (a wire agency's copy carried by its client's feed), and goes when it is the feed's own.
import { canonicalUrl } from '../../runtime/canonical-url.ts';
import type { ArticleDiscovered, Source } from '../../runtime/events/types.generated.ts';
import { plainLine } from '../../runtime/plain-text.ts';
import type { ItemPublisher, ParsedFeed } from '../parser/types.ts';
import { comparableName } from './publisher-suffix.ts';

/** An outlet's name (RSS <source>) is a name: a longer text there is not one. */
const maxPublisherNameLength = 200;

export type ArticlePublisherFields = Pick<ArticleDiscovered, 'publisher_name' | 'publisher_url'>;

/** What the polled feed is known by: the hosts of its addresses and its names (comparableName). */
export interface OwnFeed {
  hosts: ReadonlySet<string>;
  names: readonly string[];
}

/** A host as a site is compared: lowercase (canonicalUrl), without a leading "www.". */
function siteHost(url: string | null): string | null {
  const canonical = url ? canonicalUrl(url) : null;
  return canonical === null ? null : new URL(canonical).hostname.replace(/^www\./, '');
}

/**
 * The feed's own site: the hosts of the URL it is polled at and was polled at before it moved, of the
 * address it gives itself (rel="self") and of its home page (the feed's link, the source's site URL).
 * A host, not a URL: another feed of the same site (its main feed named in a section feed) is the same
 * outlet.
 */
export function ownFeed(feed: ParsedFeed, source: Source): OwnFeed {
  const addresses = [
    source.feed_url,
    ...source.previous_urls,
    source.site_url,
    feed.hints.selfUrl,
    feed.siteUrl,
  ];
  const hosts = new Set(addresses.map((url) => siteHost(url)).filter((host) => host !== null));
  const names = [feed.title, source.name].map((name) => comparableName(name ?? '')).filter(Boolean);
  return { hosts, names };
}

/** A feed titled "Example News - Business" (or "…: Business") is Example News's too. */
const namesFeed = (name: string, feedName: string) =>
  feedName === name || (feedName.startsWith(name) && /^\s*[-–—|:]\s/u.test(feedName.slice(name.length)));

/**
 * The article's publisher fields: the name as plain text (at most 200 characters), the address in
 * canonical form when it is http(s); both null when the item names none, and no address of the feed's
 * own site nor, beside such an address, the feed's own name.
 */
export function itemPublisher(
  publisher: ItemPublisher | null,
  own: OwnFeed,
  base: string,
): ArticlePublisherFields {
  let name = plainLine(publisher?.name ?? null).slice(0, maxPublisherNameLength) || null;
  let url = publisher?.url ? canonicalUrl(publisher.url, base) : null;
  const host = siteHost(url);
  if (host !== null && own.hosts.has(host)) {
    url = null;
    const comparable = name === null ? null : comparableName(name);
    if (comparable !== null && own.names.some((feedName) => namesFeed(comparable, feedName))) name = null;
  }
  return { publisher_name: name, publisher_url: url };
}
