// JSON Feed 1.0 and 1.1 (https://www.jsonfeed.org/version/1.1/). The document
// is validated here, at the edge: a feed without an items array is refused, an
// item that is not an object is skipped (and reported) rather than failing the
// feed. An item without the id the spec requires is read as an RSS item without
// a guid is: the article is identified by its link (as Python's feedparser and
// gofeed read it), where it had been dropped.

import { escapeText } from 'entities';
import { parseFeedDate } from './dates.ts';
import { FeedParseError } from './errors.ts';
import { cleanText, distinct, joinNames } from './fields.ts';
import { kindOf, type MediaRef } from './media.ts';
import type { FeedContent, FeedContext, ParsedItem } from './types.ts';
import { jsonFeedHints } from './publisher-hints.ts';
import { resolveHtmlUrls, resolveUrl } from './urls.ts';

type JsonObject = Record<string, unknown>;

// Any 1.x: the spec's minor versions only add fields a 1.0 reader may ignore, and "1.0" is written too.
const SUPPORTED_VERSION = /^https?:\/\/(?:www\.)?jsonfeed\.org\/version\/1(?:\.\d+)?\/?$/i;
const ANY_JSON_FEED_VERSION = /^https?:\/\/(?:www\.)?jsonfeed\.org\/version\//i;

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function string(object: JsonObject, key: string): string | null {
  const value = object[key];
  return typeof value === 'string' ? cleanText(value) : null;
}

function objects(value: unknown): JsonObject[] {
  return Array.isArray(value) ? value.filter(isObject) : [];
}

/** 1.1 "authors" (array), else 1.0 "author" (object). */
function authorNames(object: JsonObject): string[] {
  const authors = Array.isArray(object.authors) ? objects(object.authors) : objects([object.author]);
  return authors.map((author) => string(author, 'name') ?? '');
}

/** The spec tells readers to coerce a numeric id to a string. */
function itemId(item: JsonObject): string | null {
  const id = item.id;
  if (typeof id === 'number' && Number.isFinite(id)) return String(id);
  return typeof id === 'string' ? cleanText(id) : null;
}

function parseItem(
  item: JsonObject,
  id: string | null,
  feedAuthors: string[],
  homePage: string | null,
  baseUrl: string | null,
): ParsedItem {
  const resolve = (url: string) => resolveUrl(url, homePage, baseUrl);
  const url = string(item, 'url') ?? string(item, 'external_url');
  const contentText = string(item, 'content_text');
  const summary = string(item, 'summary'); // plain text by the spec
  const publishedRaw = string(item, 'date_published') ?? string(item, 'date_modified');
  const attachments = objects(item.attachments).flatMap((attachment): MediaRef[] => {
    const attachmentUrl = string(attachment, 'url');
    if (attachmentUrl === null) return [];
    return [
      { url: resolve(attachmentUrl), type: string(attachment, 'mime_type'), medium: null, width: null },
    ];
  });
  const image = string(item, 'image') ?? string(item, 'banner_image');
  const tags = Array.isArray(item.tags)
    ? item.tags.filter((tag): tag is string => typeof tag === 'string')
    : [];

  const contentHtml = resolveHtmlUrls(string(item, 'content_html'), homePage, baseUrl);
  return {
    guid: id,
    url: url === null ? null : resolve(url),
    title: string(item, 'title'),
    summaryHtml:
      summary !== null ? escapeText(summary) : contentText !== null ? escapeText(contentText) : null,
    summaryIsText: summary !== null || contentText !== null,
    contentHtml: contentHtml ?? (contentText !== null ? escapeText(contentText) : null),
    contentIsText: contentHtml === null && contentText !== null,
    author: joinNames(authorNames(item)) ?? joinNames(feedAuthors),
    publishedRaw,
    published: parseFeedDate(publishedRaw),
    categories: distinct(tags),
    language: string(item, 'language'),
    imageUrl:
      (image === null ? null : resolve(image)) ??
      attachments.find((attachment) => kindOf(attachment) === 'image')?.url ??
      null,
    enclosureUrl: attachments.find((attachment) => kindOf(attachment) === 'audio-video')?.url ?? null,
    publisher: null,
  };
}

/** Parses a JSON Feed document; `warnings` collects what was skipped. */
export function parseJsonFeed(
  text: string,
  warnings: string[] = [],
  context: FeedContext = { baseUrl: null },
): FeedContent {
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new FeedParseError(`malformed JSON: ${message}`, { cause: error });
  }
  if (!isObject(document)) throw new FeedParseError('not a feed: JSON document is not an object');
  const version = typeof document.version === 'string' ? document.version.trim() : null;
  if (version === null || !ANY_JSON_FEED_VERSION.test(version)) {
    throw new FeedParseError('not a feed: JSON document without a JSON Feed "version"');
  }
  if (!SUPPORTED_VERSION.test(version)) throw new FeedParseError(`unsupported JSON Feed version: ${version}`);
  if (!Array.isArray(document.items)) throw new FeedParseError('JSON Feed has no "items" array');

  const homePageValue = string(document, 'home_page_url');
  const homePage = homePageValue === null ? null : resolveUrl(homePageValue, context.baseUrl);
  const feedAuthors = authorNames(document);
  const items: ParsedItem[] = [];
  let skipped = 0;
  for (const item of document.items as unknown[]) {
    if (isObject(item)) items.push(parseItem(item, itemId(item), feedAuthors, homePage, context.baseUrl));
    else skipped += 1;
  }
  if (skipped > 0) warnings.push(`${skipped} JSON Feed item(s) skipped: not an object`);

  return {
    format: 'json',
    title: string(document, 'title'),
    siteUrl: homePage,
    language: string(document, 'language'),
    items,
    hints: jsonFeedHints(document, context.baseUrl),
  };
}
