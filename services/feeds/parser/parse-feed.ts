// The parser's one entry point: raw body bytes and the Content-Type header in,
// one normalised feed out, or a FeedParseError whose reason says why not.
// Synchronous and bounded (limits.ts), so a hostile feed costs at most one
// rejected poll.

import { parseAtom } from './atom.ts';
import { detectFormat } from './detect.ts';
import { decodeBody } from './encoding.ts';
import { FeedParseError } from './errors.ts';
import { parseJsonFeed } from './json-feed.ts';
import { MAX_FEED_BYTES, MAX_ITEMS } from './limits.ts';
import { parseRdf } from './rdf.ts';
import { parseRss } from './rss.ts';
import type { ParsedFeed } from './types.ts';
import { assertSafeXml } from './xml-safety.ts';
import { parseXml } from './xml-tree.ts';

export { FeedParseError } from './errors.ts';
export type { FeedFormat, ParsedFeed, ParsedItem } from './types.ts';

export interface FeedParseResult {
  feed: ParsedFeed;
  /** Things that did not stop the parse but are worth showing on the source's health page. */
  warnings: string[];
}

function isGzip(body: Uint8Array): boolean {
  return body[0] === 0x1f && body[1] === 0x8b;
}

/** parseFeed, plus the warnings collected on the way (ignored charsets, skipped items). */
export function parseFeedWithWarnings(body: Uint8Array, contentType: string | null): FeedParseResult {
  if (body.length === 0) throw new FeedParseError('empty body');
  if (body.length > MAX_FEED_BYTES) {
    throw new FeedParseError(`feed is ${body.length} bytes, more than the ${MAX_FEED_BYTES}-byte limit`);
  }
  if (isGzip(body))
    throw new FeedParseError('not a feed: gzip-compressed data (the body was not decompressed)');

  const { text, warnings } = decodeBody(body, contentType);
  const looksLikeJson = text.trimStart().startsWith('{');
  // Before anything parses XML, including the root-element sniffing below.
  if (!looksLikeJson) assertSafeXml(text);
  const format = detectFormat(text);

  let feed: ParsedFeed;
  if (format === 'json') {
    feed = parseJsonFeed(text, warnings);
  } else {
    const root = parseXml(text);
    feed = format === 'rss' ? parseRss(root) : format === 'rdf' ? parseRdf(root) : parseAtom(root);
  }
  if (feed.items.length > MAX_ITEMS) {
    throw new FeedParseError(`feed has ${feed.items.length} items, more than the limit of ${MAX_ITEMS}`);
  }
  return { feed, warnings };
}

export function parseFeed(body: Uint8Array, contentType: string | null): ParsedFeed {
  return parseFeedWithWarnings(body, contentType).feed;
}
