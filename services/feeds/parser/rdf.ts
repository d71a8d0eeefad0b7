// RSS 1.0 and RSS 0.90 (root <rdf:RDF>): items are siblings of the channel,
// identified by rdf:about, dated with dc:date; RSS 0.90's namespace is read as
// RSS 1.0's (namespaces.ts).

import { parseFeedDate } from './dates.ts';
import { FeedParseError } from './errors.ts';
import { childHtml, childText, cleanText, distinct, joinAuthorNames, lastTextOfFirst } from './fields.ts';
import { enclosureRef, pickMedia, type MediaRef } from './media.ts';
import { NS } from './namespaces.ts';
import { publisherHintsOf } from './publisher-hints.ts';
import type { FeedContent, FeedContext, ParsedItem } from './types.ts';
import { resolveHtmlUrls, resolveUrl } from './urls.ts';
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
  ]);
  const bases = [item.base, siteUrl, baseUrl];
  const resolve = (url: string) => resolveUrl(url, ...bases);
  const link = childText(item, NS.rss1, 'link');
  return {
    guid: cleanText(attribute(item, 'about', NS.rdf)),
    url: link === null ? null : resolve(link),
    title: childHtml(item, NS.rss1, 'title') ?? childHtml(item, NS.dc, 'title'),
    summaryHtml: resolveHtmlUrls(
      childHtml(item, NS.rss1, 'description') ?? childHtml(item, NS.dc, 'description'),
      ...bases,
    ),
    contentHtml: resolveHtmlUrls(childHtml(item, NS.content, 'encoded'), ...bases),
    author: joinAuthorNames(childElements(item, NS.dc, 'creator').map(textContent)),
    publishedRaw,
    published: parseFeedDate(publishedRaw),
    categories: distinct(childElements(item, NS.dc, 'subject').map(textContent)),
    language: childText(item, NS.dc, 'language'),
    ...pickMedia(item, enclosures(item, resolve), resolve),
    publisher: null,
  };
}

export function parseRdf(root: XmlElement, context: FeedContext): FeedContent {
  const channel = childElement(root, NS.rss1, 'channel');
  if (!channel) throw new FeedParseError('RDF document has no RSS 1.0 <channel> element');
  const link = childText(channel, NS.rss1, 'link');
  const siteUrl = link === null ? null : resolveUrl(link, channel.base, context.baseUrl);
  // Items belong beside the channel; a few generators nest them inside it.
  const items = [...childElements(root, NS.rss1, 'item'), ...childElements(channel, NS.rss1, 'item')];
  return {
    format: 'rdf',
    title: childText(channel, NS.rss1, 'title') ?? childText(channel, NS.dc, 'title'),
    siteUrl,
    language: childText(channel, NS.dc, 'language'),
    items: items.map((item) => parseItem(item, siteUrl, context.baseUrl)),
    hints: publisherHintsOf(channel, context.baseUrl),
  };
}
