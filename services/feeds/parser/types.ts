// The one shape every feed format is normalised into. Downstream code never
// needs to know which format an article came from.

import type { PublisherHints } from './publisher-hints.ts';

export type FeedFormat = 'rss' | 'rdf' | 'atom' | 'json';

export interface ParsedFeed {
  format: FeedFormat;
  /** Plain text, entities decoded, trimmed. */
  title: string | null;
  /** The feed's home page (absolute when it could be resolved). */
  siteUrl: string | null;
  /** As declared ("en-us", "pt-BR"), raw; null when none. */
  language: string | null;
  items: ParsedItem[];
  /** How often the publisher says to fetch, and its WebSub hubs (publisher-hints.ts). */
  hints: PublisherHints;
  /**
   * What did not stop the parse but is worth showing on the source's health
   * page: ignored charsets, skipped items, a document that was not well-formed
   * and was read leniently (some of it may be missing). Empty for a clean feed.
   */
  warnings: string[];
}

/** What a format adapter reads from the document; parse-feed.ts adds the warnings. */
export type FeedContent = Omit<ParsedFeed, 'warnings'>;

/** What the caller knows about the document beyond its bytes. */
export interface FeedContext {
  /**
   * The URL the feed was fetched from (after redirects): the outermost base for
   * relative links, after xml:base and the feed's own home page.
   */
  baseUrl: string | null;
}

export interface ParsedItem {
  /** RSS guid / Atom id / JSON Feed id / RDF rdf:about, verbatim. */
  guid: string | null;
  /** Absolute when it could be resolved against xml:base or the feed's link. */
  url: string | null;
  /** As in the feed: may contain HTML markup. */
  title: string | null;
  /** Always HTML: plain-text sources are escaped. */
  summaryHtml: string | null;
  /**
   * The summary was plain text by its format's word (Atom's type="text", JSON Feed's summary), escaped
   * into summaryHtml: a tag it shows is quoted, never markup escaped once too often. Absent: unknown.
   */
  summaryIsText?: boolean;
  /** Always HTML: plain-text sources are escaped. */
  contentHtml: string | null;
  /** As summaryIsText, of the content (Atom's type="text", JSON Feed's content_text). */
  contentIsText?: boolean;
  author: string | null;
  /** The date string as found in the feed. */
  publishedRaw: string | null;
  /** publishedRaw parsed; null when it could not be. */
  published: Date | null;
  categories: string[];
  /** Declared on the item itself; null otherwise. */
  language: string | null;
  imageUrl: string | null;
  /** Audio or video attachment (podcasts). */
  enclosureUrl: string | null;
  /**
   * Where an aggregator's item was first published (RSS <source>, Atom <source>): Google News and
   * planet feeds name the outlet there. Null when the item names none (the feed's own site published it).
   */
  publisher: ItemPublisher | null;
}

/** The outlet an item names as its origin; at least one of the two is set. */
export interface ItemPublisher {
  /** As in the feed (plain text for RSS, a text construct for Atom); null when only the URL is given. */
  name: string | null;
  /** Absolute when it could be resolved; null when only the name is given. */
  url: string | null;
}
