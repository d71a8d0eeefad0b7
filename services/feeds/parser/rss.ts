// RSS 0.91-0.94 and 2.0 (root <rss>): channel and items in no namespace, plus
// the modules feeds actually use: content:encoded, Dublin Core, Media RSS,
// iTunes, atom:link.

import { parseFeedDate } from './dates.ts';
import { FeedParseError } from './errors.ts';
import { authorName, childHtml, childText, cleanText, distinct, joinNames } from './fields.ts';
import { enclosureRef, pickMedia, type MediaRef } from './media.ts';
import { NS } from './namespaces.ts';
import type { ParsedFeed, ParsedItem } from './types.ts';
import { resolveUrl } from './urls.ts';
import { attribute, childElement, childElements, textContent, type XmlElement } from './xml-tree.ts';

/** Text of the first child with non-blank text (feeds repeat elements, some empty). */
/** href of the first atom:link that is an alternate (rel absent or "alternate"). */
export function atomAlternateHref(parent: XmlElement): { href: string; element: XmlElement } | null {
  for (const element of childElements(parent, NS.atom, 'link')) {
    const rel = attribute(element, 'rel')?.trim() ?? 'alternate';
    const href = attribute(element, 'href')?.trim();
    if (rel === 'alternate' && href) return { href, element };
  }
  return null;
}

function itemUrl(item: XmlElement, guid: string | null, siteUrl: string | null): string | null {
  for (const link of childElements(item, NS.none, 'link')) {
    const href = cleanText(textContent(link));
    if (href !== null) return resolveUrl(href, link.base, siteUrl);
  }
  const alternate = atomAlternateHref(item);
  if (alternate) return resolveUrl(alternate.href, alternate.element.base, siteUrl);
  // RSS 2.0: a guid is a permalink unless it says otherwise.
  const guidElement = childElement(item, NS.none, 'guid');
  const isPermaLink = guidElement && attribute(guidElement, 'isPermaLink')?.trim().toLowerCase() !== 'false';
  return guid !== null && isPermaLink && /^https?:\/\//i.test(guid) ? guid : null;
}

function parseItem(item: XmlElement, siteUrl: string | null): ParsedItem {
  const guid = childText(item, NS.none, 'guid');
  const publishedRaw = childText(item, NS.none, 'pubDate') ?? childText(item, NS.dc, 'date');
  const resolve = (url: string) => resolveUrl(url, item.base, siteUrl);
  const enclosures = childElements(item, NS.none, 'enclosure')
    .map((element) => enclosureRef(attribute(element, 'url'), attribute(element, 'type'), resolve))
    .filter((ref): ref is MediaRef => ref !== null);

  return {
    guid,
    url: itemUrl(item, guid, siteUrl),
    title: childHtml(item, NS.none, 'title'),
    summaryHtml: childHtml(item, NS.none, 'description'),
    contentHtml: childHtml(item, NS.content, 'encoded'),
    author:
      joinNames(childElements(item, NS.dc, 'creator').map(textContent)) ??
      authorName(childText(item, NS.none, 'author')) ??
      childText(item, NS.itunes, 'author'),
    publishedRaw,
    published: parseFeedDate(publishedRaw),
    categories: distinct(
      [...childElements(item, NS.none, 'category'), ...childElements(item, NS.dc, 'subject')].map(
        textContent,
      ),
    ),
    language: childText(item, NS.dc, 'language'),
    ...pickMedia(item, enclosures, resolve),
  };
}

export function parseRss(root: XmlElement): ParsedFeed {
  const channel = childElement(root, NS.none, 'channel');
  if (!channel) throw new FeedParseError('RSS document has no <channel> element');

  const link = childElements(channel, NS.none, 'link').find((element) => cleanText(textContent(element)));
  const alternate = atomAlternateHref(channel);
  const siteUrl = link
    ? resolveUrl(textContent(link).trim(), link.base)
    : alternate
      ? resolveUrl(alternate.href, alternate.element.base)
      : null;

  // Some generators put <item> beside <channel> instead of inside it.
  const items = [...childElements(channel, NS.none, 'item'), ...childElements(root, NS.none, 'item')];
  return {
    format: 'rss',
    title: childText(channel, NS.none, 'title'),
    siteUrl,
    language: childText(channel, NS.none, 'language') ?? childText(channel, NS.dc, 'language'),
    items: items.map((item) => parseItem(item, siteUrl)),
  };
}
