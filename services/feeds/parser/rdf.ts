// RSS 1.0 and RSS 0.90 (root <rdf:RDF>): items are siblings of the channel,
// identified by rdf:about, dated with dc:date; RSS 0.90's namespace is read as
// RSS 1.0's (namespaces.ts).

import { atomAuthorNames, atomCategories, ATOM_DATES, atomTitle, itemTextsOrAtom } from './atom.ts';
import { parseFeedDate } from './dates.ts';
import { FeedParseError } from './errors.ts';
import { childHtml, childText, cleanText, distinct, joinAuthorNames, lastTextOfFirst } from './fields.ts';
import { enclosureRef, pickMedia, type MediaRef } from './media.ts';
import { NS } from './namespaces.ts';
import { publisherHintsOf } from './publisher-hints.ts';
import { atomAlternateHref } from './rss.ts';
import type { FeedContent, FeedContext, ParsedItem } from './types.ts';
import { resolveUrl } from './urls.ts';
import { attribute, childElement, childElements, textContent, type XmlElement } from './xml-tree.ts';

function enclosures(item: XmlElement, resolve: (url: string) => string): MediaRef[] {
  // mod_enclosure says rdf:resource and enc:type; craigslist.rss writes them unprefixed.
  return childElements(item, NS.enc, 'enclosure')
    .map((element) =>
      enclosureRef(
        attribute(element, 'resource', NS.rdf) ??
          attribute(element, 'resource') ??
          attribute(element, 'url', NS.enc),
        attribute(element, 'type', NS.enc) ?? attribute(element, 'type'),
        resolve,
      ),
    )
    .filter((ref): ref is MediaRef => ref !== null);
}

function parseItem(item: XmlElement, siteUrl: string | null, baseUrl: string | null): ParsedItem {
  const publishedRaw = lastTextOfFirst(item, [
    [NS.dc, 'date'],
    [NS.dcterms, 'issued'],
    [NS.dcterms, 'created'],
    [NS.dcterms, 'modified'],
    ...ATOM_DATES,
  ]);
  const bases = [item.base, siteUrl, baseUrl];
  const resolve = (url: string) => resolveUrl(url, ...bases);
  const link = childText(item, NS.rss1, 'link');
  const alternate = link === null ? atomAlternateHref(item) : null;
  // Atom's elements where RSS 1.0's and Dublin Core's are missing, as in RSS 2.0 items (rss.ts).
  const own = {
    summary: childHtml(item, NS.rss1, 'description') ?? childHtml(item, NS.dc, 'description'),
    content: childHtml(item, NS.content, 'encoded'),
  };
  const categories = distinct(childElements(item, NS.dc, 'subject').map(textContent));
  return {
    guid: cleanText(attribute(item, 'about', NS.rdf)),
    url:
      link !== null
        ? resolve(link)
        : alternate && resolveUrl(alternate.href, alternate.element.base, ...bases),
    title: childHtml(item, NS.rss1, 'title') ?? childHtml(item, NS.dc, 'title') ?? atomTitle(item),
    ...itemTextsOrAtom(item, own, bases),
    author:
      joinAuthorNames(childElements(item, NS.dc, 'creator').map(textContent)) ??
      joinAuthorNames(atomAuthorNames(item)),
    publishedRaw,
    published: parseFeedDate(publishedRaw),
    categories: categories.length > 0 ? categories : atomCategories(item),
    language: childText(item, NS.dc, 'language'),
    ...pickMedia(item, enclosures(item, resolve), resolve),
    publisher: null,
  };
}

export function parseRdf(root: XmlElement, context: FeedContext): FeedContent {
  const channel = childElement(root, NS.rss1, 'channel');
  // Items belong beside the channel; a few generators nest them inside it, and some leave the channel
  // out (items alone are still the feed, as an <rss> without its <channel> is: rss.ts).
  const items = [
    ...childElements(root, NS.rss1, 'item'),
    ...(channel ? childElements(channel, NS.rss1, 'item') : []),
  ];
  if (!channel && items.length === 0)
    throw new FeedParseError('RDF document has neither an RSS 1.0 <channel> nor any <item>');
  const link = channel ? childText(channel, NS.rss1, 'link') : null;
  const siteUrl = link === null ? null : resolveUrl(link, channel?.base ?? null, context.baseUrl);
  return {
    format: 'rdf',
    title: channel ? (childText(channel, NS.rss1, 'title') ?? childText(channel, NS.dc, 'title')) : null,
    siteUrl,
    language: channel ? childText(channel, NS.dc, 'language') : null,
    items: items.map((item) => parseItem(item, siteUrl, context.baseUrl)),
    hints: publisherHintsOf(channel ?? root, context.baseUrl),
  };
}
