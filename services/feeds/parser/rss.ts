// RSS 0.91-0.94 and 2.0 (root <rss>): channel and items in no namespace, plus
// the modules feeds actually use: content:encoded, Dublin Core and DC terms,
// Media RSS, iTunes, atom:link, feedburner:origLink, and Atom's own elements
// (atom:author, atom:updated, atom:summary, ...) where generators write them in
// an item. A core element wins; the modules stand in where it is missing or blank.

import { atomAuthorNames, atomCategories, ATOM_DATES, atomTitle, itemTextsOrAtom } from './atom.ts';
import { parseFeedDate } from './dates.ts';
import {
  authorName,
  childText,
  cleanText,
  distinct,
  firstHtml,
  firstText,
  joinAuthorNames,
  lastTextOfFirst,
  unescapeTwiceEscaped,
  type ElementName,
} from './fields.ts';
import { enclosureRef, mediaText, moduleCategories, pickMedia, type MediaRef } from './media.ts';
import { NS } from './namespaces.ts';
import { publisherHintsOf } from './publisher-hints.ts';
import type { FeedContent, FeedContext, ItemPublisher, ParsedItem } from './types.ts';
import { resolveUrl } from './urls.ts';
import { attribute, childElement, childElements, textContent, type XmlElement } from './xml-tree.ts';

const TITLE: readonly ElementName[] = [
  [NS.none, 'title'],
  [NS.dc, 'title'],
];
const SUMMARY: readonly ElementName[] = [
  [NS.none, 'description'],
  [NS.dc, 'description'],
  [NS.none, 'summary'],
  [NS.itunes, 'summary'],
];
const CONTENT: readonly ElementName[] = [
  [NS.content, 'encoded'],
  [NS.xhtml, 'body'],
  [NS.none, 'body'],
  [NS.none, 'fullitem'],
];
// feedparser's order for an item's date: the publication date first, the
// creation date, then the last modification as the best there is.
const DATE: readonly ElementName[] = [
  [NS.none, 'pubDate'],
  [NS.dc, 'date'],
  [NS.dcterms, 'issued'],
  [NS.dcterms, 'created'],
  [NS.dcterms, 'modified'],
  // An RSS item that writes Atom's dates (as some generators do), after RSS's and Dublin Core's own.
  ...ATOM_DATES,
];

/** href of the first atom:link that is an alternate (rel absent or "alternate"). */
export function atomAlternateHref(parent: XmlElement): { href: string; element: XmlElement } | null {
  for (const element of childElements(parent, NS.atom, 'link')) {
    const rel = attribute(element, 'rel')?.trim() ?? 'alternate';
    const href = attribute(element, 'href')?.trim();
    if (rel === 'alternate' && href) return { href, element };
  }
  return null;
}

function itemUrl(item: XmlElement, bases: (string | null)[]): string | null {
  // FeedBurner rewrites <link> into its click-tracking redirect and keeps the
  // publisher's own URL here: the article's identity should not depend on FeedBurner.
  const origin = childElements(item, NS.feedburner, 'origLink').find((e) => cleanText(textContent(e)));
  if (origin) return resolveUrl(textContent(origin).trim(), origin.base, ...bases);
  for (const link of childElements(item, NS.none, 'link')) {
    const href = cleanText(textContent(link));
    if (href !== null) return resolveUrl(href, link.base, ...bases);
  }
  const alternate = atomAlternateHref(item);
  if (alternate) return resolveUrl(alternate.href, alternate.element.base, ...bases);
  return permalinkGuid(item, bases);
}

/**
 * RSS 2.0: a guid is the item's permalink unless its isPermaLink="false" says otherwise (the attribute
 * defaults to true). An http(s) URL as written, or a root-relative path ("/news/2026/12/06/story")
 * resolved as a <link> would be: against xml:base, the channel's link, then the feed's own URL. Any
 * other guid ("12345", "tag:…", "urn:…") is only an id, whatever the attribute says.
 */
function permalinkGuid(item: XmlElement, bases: (string | null)[]): string | null {
  // The guid element whose text is the item's guid (childText skips blank ones): its own attribute
  // decides, not that of a blank guid before it.
  const element = childElements(item, NS.none, 'guid').find((e) => cleanText(textContent(e)) !== null);
  const guid = element ? cleanText(textContent(element)) : null;
  if (!element || guid === null) return null;
  if (attribute(element, 'isPermaLink')?.trim().toLowerCase() === 'false') return null;
  if (/^https?:\/\//i.test(guid)) return guid;
  return guid.startsWith('/') ? resolveUrl(guid, element.base, ...bases) : null;
}

/**
 * RSS 2.0 <source url="…">Name</source>: "the RSS channel that the item came from". Google News puts the
 * outlet there (its name, and its home page as the url) while the item's link is Google's redirect.
 */
function sourcePublisher(item: XmlElement, resolve: (url: string) => string | null): ItemPublisher | null {
  const source = childElement(item, NS.none, 'source');
  if (!source) return null;
  const name = cleanText(textContent(source));
  const href = cleanText(attribute(source, 'url'));
  const url = href === null ? null : resolve(href);
  return name === null && url === null ? null : { name, url };
}

function atomOrModuleCategories(item: XmlElement): string[] {
  const atom = atomCategories(item);
  return atom.length > 0 ? atom : moduleCategories(item);
}

function parseItem(item: XmlElement, siteUrl: string | null, baseUrl: string | null): ParsedItem {
  const guid = childText(item, NS.none, 'guid');
  const publishedRaw = lastTextOfFirst(item, DATE);
  const bases = [item.base, siteUrl, baseUrl];
  const resolve = (url: string) => resolveUrl(url, ...bases);
  const enclosures = childElements(item, NS.none, 'enclosure')
    .map((element) => enclosureRef(attribute(element, 'url'), attribute(element, 'type'), resolve))
    .filter((ref): ref is MediaRef => ref !== null);
  const categories = distinct(
    [...childElements(item, NS.none, 'category'), ...childElements(item, NS.dc, 'subject')].map(textContent),
  );

  return {
    guid,
    url: itemUrl(item, [siteUrl, baseUrl]),
    title: firstHtml(item, TITLE) ?? atomTitle(item) ?? mediaText(item, 'title'),
    // An item may write Atom's elements in RSS's place (atom:summary, atom:author, atom:updated): read by
    // Atom's rules where RSS's own elements are missing (the byline, dates and categories below too).
    ...itemTextsOrAtom(
      item,
      { summary: firstHtml(item, SUMMARY), content: firstHtml(item, CONTENT) },
      bases,
      () => mediaText(item, 'description'),
    ),
    author:
      joinAuthorNames(childElements(item, NS.dc, 'creator').map(textContent)) ??
      authorName(childText(item, NS.none, 'author')) ??
      authorName(childText(item, NS.itunes, 'author')) ??
      // Not a Dublin Core term, but written for dc:creator by some generators (feedparser reads it too).
      authorName(childText(item, NS.dc, 'author')) ??
      joinAuthorNames(atomAuthorNames(item)),
    publishedRaw,
    published: parseFeedDate(publishedRaw),
    categories: categories.length > 0 ? categories : atomOrModuleCategories(item),
    language: childText(item, NS.dc, 'language'),
    ...pickMedia(item, enclosures, resolve),
    publisher: sourcePublisher(item, resolve),
  };
}

export function parseRss(root: XmlElement, context: FeedContext): FeedContent {
  // Without a <channel> (items straight under <rss>, or nothing at all), the
  // root stands in for it: what a reader sees is the same feed.
  const channel = childElement(root, NS.none, 'channel') ?? root;

  const link = childElements(channel, NS.none, 'link').find((element) => cleanText(textContent(element)));
  const alternate = atomAlternateHref(channel);
  const siteUrl = link
    ? resolveUrl(textContent(link).trim(), link.base, context.baseUrl)
    : alternate
      ? resolveUrl(alternate.href, alternate.element.base, context.baseUrl)
      : null;

  // Some generators put <item> beside <channel> instead of inside it.
  const items =
    channel === root
      ? childElements(root, NS.none, 'item')
      : [...childElements(channel, NS.none, 'item'), ...childElements(root, NS.none, 'item')];
  return {
    format: 'rss',
    title: unescapeTwiceEscaped(firstText(channel, TITLE)),
    siteUrl,
    language: childText(channel, NS.none, 'language') ?? childText(channel, NS.dc, 'language'),
    items: items.map((item) => parseItem(item, siteUrl, context.baseUrl)),
    hints: publisherHintsOf(channel, context.baseUrl),
  };
}
