// The parser's one entry point: raw body bytes and the Content-Type header in,
// one normalised feed out, or a FeedParseError whose reason says why not.
// Synchronous and bounded (limits.ts), so a hostile feed costs at most one
// rejected poll.

import { gunzipSync } from 'node:zlib';
import { parseAtom } from './atom.ts';
import { detectFormat } from './detect.ts';
import { decodeBody } from './encoding.ts';
import { FeedParseError } from './errors.ts';
import { boundItems } from './item-bounds.ts';
import { repairFeedText } from './feed-text.ts';
import { joinedSurrogateReferences } from '../../runtime/text-repair.ts';
import { parseJsonFeed } from './json-feed.ts';
import { MAX_FEED_BYTES, MAX_ITEMS } from './limits.ts';
import { parseRdf } from './rdf.ts';
import { parseRss } from './rss.ts';
import type { FeedContent, FeedContext, ParsedFeed } from './types.ts';
import { assertSafeXml } from './xml-safety.ts';
import { parseXmlLeniently } from './xml-tree.ts';

export { FeedParseError } from './errors.ts';
export type { FeedFormat, ParsedFeed, ParsedItem } from './types.ts';

export interface FeedParseOptions {
  /**
   * The URL the body was fetched from, after redirects (FetchOutcome.finalUrl):
   * relative links that neither xml:base nor the feed's home page resolves are
   * resolved against it. Without it they stay relative.
   */
  baseUrl?: string | null;
}

export interface FeedParseResult {
  feed: ParsedFeed;
  /** The same list as feed.warnings. */
  warnings: string[];
}

/** Whether the body is gzip-compressed data (its magic bytes). */
export function isGzip(body: Uint8Array): boolean {
  return body[0] === 0x1f && body[1] === 0x8b;
}

/**
 * A feed served as a gzip file: a `.xml.gz` URL, or a server that compresses twice or forgets the
 * Content-Encoding header (the fetcher decompresses only what that header declares). Such a body is
 * decompressed once, within the same size limit as any feed, and parsed with a warning that says so; a
 * body still compressed after that, corrupt, or larger than the limit is refused.
 */
function parseGzipped(body: Uint8Array, contentType: string | null, options: FeedParseOptions): ParsedFeed {
  let inner: Buffer;
  try {
    inner = gunzipSync(body, { maxOutputLength: MAX_FEED_BYTES + 1 });
  } catch (error) {
    const tooLarge =
      (error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE' || error instanceof RangeError;
    throw new FeedParseError(
      tooLarge
        ? `not a feed: gzip-compressed data that decompresses to more than the ${MAX_FEED_BYTES}-byte limit`
        : `not a feed: gzip-compressed data that could not be decompressed (${(error as Error).message})`,
    );
  }
  if (isGzip(inner)) throw new FeedParseError('not a feed: gzip-compressed data, compressed twice');
  const feed = parseFeed(inner, contentType, options);
  feed.warnings.push('the body was gzip-compressed with no Content-Encoding saying so; decompressed');
  return feed;
}

/** parseFeed, with the warnings beside the feed (they are also on feed.warnings). */
export function parseFeedWithWarnings(
  body: Uint8Array,
  contentType: string | null,
  options: FeedParseOptions = {},
): FeedParseResult {
  const feed = parseFeed(body, contentType, options);
  return { feed, warnings: feed.warnings };
}

/**
 * A document that is not well-formed is read leniently (xml-tree.ts) and the
 * feed says so in its warnings; when the lenient reading finds no item either,
 * the strict parser's reason is the answer, so a page that is no feed at all
 * still fails with a reason a person can act on.
 */
export function parseFeed(
  body: Uint8Array,
  contentType: string | null,
  options: FeedParseOptions = {},
): ParsedFeed {
  if (body.length === 0) throw new FeedParseError('empty body');
  if (body.length > MAX_FEED_BYTES) {
    throw new FeedParseError(`feed is ${body.length} bytes, more than the ${MAX_FEED_BYTES}-byte limit`);
  }
  if (isGzip(body)) return parseGzipped(body, contentType, options);

  const { text, warnings } = decodeBody(body, contentType);
  const context: FeedContext = { baseUrl: options.baseUrl ?? null };
  const looksLikeJson = text.trimStart().startsWith('{');
  // Before anything parses XML, including the root-element sniffing below.
  if (!looksLikeJson) assertSafeXml(text);
  const format = detectFormat(text);

  let content: FeedContent;
  if (format === 'json') {
    content = parseJsonFeed(text, warnings, context);
  } else {
    const { root, recoveredFrom, unterminatedItems } = parseXmlLeniently(joinedSurrogateReferences(text));
    content =
      format === 'rss'
        ? parseRss(root, context)
        : format === 'rdf'
          ? parseRdf(root, context)
          : parseAtom(root, context);
    if (recoveredFrom !== null) {
      if (content.items.length === 0) throw new FeedParseError(recoveredFrom);
      warnings.push(
        `XML not well-formed, read leniently (${content.items.length} item(s) recovered): ${recoveredFrom}`,
      );
      if (unterminatedItems > 0)
        warnings.push('the document ends inside its last item (cut off?); that item was left out');
    }
  }
  if (content.items.length > MAX_ITEMS) {
    throw new FeedParseError(`feed has ${content.items.length} items, more than the limit of ${MAX_ITEMS}`);
  }
  const repaired = repairFeedText(content);
  return { ...repaired, items: boundItems(repaired.items, warnings), warnings };
}
