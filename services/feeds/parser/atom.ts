// Atom 1.0 (RFC 4287) and Atom 0.3 (read through the same namespace, see
// namespaces.ts). Text constructs carry their own type: "text" is escaped to
// HTML, "html" is already HTML, "xhtml" is the markup inside the wrapper div.
// Links resolve against xml:base, which may be set on any ancestor, then the
// feed's home page, then the URL the feed was fetched from.

import { plainLine } from '../../runtime/plain-text.ts';
import { escapeText } from 'entities';
import { parseFeedDate } from './dates.ts';
import { childText, cleanText, distinct, joinNames, lastTextOfFirst, type ElementName } from './fields.ts';
import { enclosureRef, mediaText, moduleCategories, pickMedia, type MediaRef } from './media.ts';
import { NS } from './namespaces.ts';
import { publisherHintsOf } from './publisher-hints.ts';
import type { FeedContent, FeedContext, ItemPublisher, ParsedItem } from './types.ts';
import { resolveHtmlUrls, resolveUrl } from './urls.ts';
import {
  attribute,
  childElement,
  childElements,
  htmlContent,
  innerXml,
  textContent,
  type XmlElement,
} from './xml-tree.ts';

interface TextConstruct {
  kind: 'text' | 'html' | 'xhtml';
  value: string;
}

// Atom 1.0 (RFC 4287 4.1.3.3): content of a MIME type that is neither text/* nor XML is Base64.
const XML_MIME = /[/+]xml$/;
// Media that is never article text, whatever its bytes decode to.
const BINARY_MIME = /^(image|audio|video|font|model)\//;

/**
 * Base64 content as text, when it is text: valid UTF-8 without control
 * characters. Null for anything else (an image, a PDF): there is no article text
 * in it, and the item keeps its summary.
 */
function decodeBase64Text(encoded: string): string | null {
  const compact = encoded.replace(/\s+/g, '');
  // Node skips what is not Base64 and decodes the rest: inline JSON that should have been encoded
  // ({"a":1}) would become a "k". What is not Base64 is no content here (the item keeps its summary).
  if (!/^[A-Za-z0-9+/\-_]*={0,2}$/.test(compact)) return null;
  const bytes = Buffer.from(compact, 'base64');
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
  // eslint-disable-next-line no-control-regex -- control characters are what tells bytes from text
  return /[\u0000-\u0008\u000B\u000C\u000E-\u001F]/.test(text) ? null : text;
}

/** A construct read from its own (already decoded) text, by its type. */
function typedText(kind: string, text: string): TextConstruct {
  return kind === 'html' || kind === 'text/html'
    ? { kind: 'html', value: text }
    : { kind: 'text', value: text };
}

/**
 * Reads a text construct (title, summary: RFC 4287 3.1 allows text, html and xhtml) or an entry's
 * content (4.1.3, any media type); null for out-of-line (src=), XML or binary content. A text construct
 * of another type is never dropped as data: Base64 text if it is that, else text as written.
 */
function textConstruct(element: XmlElement | undefined, isContent = false): TextConstruct | null {
  if (!element || attribute(element, 'src') !== undefined) return null;
  // type="" is as good as no type: RFC 4287's default, "text".
  const type = attribute(element, 'type')?.trim().toLowerCase() || 'text';
  const mode = attribute(element, 'mode')?.trim().toLowerCase(); // Atom 0.3
  if (mode === 'base64') {
    if (BINARY_MIME.test(type)) return null;
    const decoded = decodeBase64Text(textContent(element));
    return decoded === null ? null : typedText(type, decoded);
  }
  if (type === 'xhtml' || type === 'application/xhtml+xml') {
    if (mode === 'escaped') return { kind: 'html', value: textContent(element) };
    // The content is what is inside the wrapper div (RFC 4287 3.1.1.3), whose
    // namespace some feeds forget to declare.
    const elements = element.children.filter((child): child is XmlElement => typeof child !== 'string');
    const wrapper = elements.length === 1 && elements[0]?.local === 'div' ? elements[0] : element;
    return { kind: 'xhtml', value: innerXml(wrapper) };
  }
  if (type === 'html' || type === 'text/html') return { kind: 'html', value: htmlContent(element) };
  if (type === 'text' || type.startsWith('text/')) return { kind: 'text', value: textContent(element) };
  if (!isContent) {
    // No text construct has another type (RFC 4287 3.1). Feeds that give one mostly mean Base64 text, as
    // content of such a type is (feedparser reads it so too): decoded when it is, else the text as written.
    const value = textContent(element);
    return { kind: 'text', value: decodeBase64Text(value) ?? value };
  }
  // Other XML (an SVG, a custom vocabulary) is data, not article text.
  if (XML_MIME.test(type) || BINARY_MIME.test(type)) return null;
  // Any other type is Base64: application/json, a script, or a binary document (decoded to null).
  const decoded = decodeBase64Text(textContent(element));
  return decoded === null ? null : { kind: 'text', value: decoded };
}

function asHtml(construct: TextConstruct | null): string | null {
  if (!construct) return null;
  return cleanText(construct.kind === 'text' ? escapeText(construct.value) : construct.value);
}

function asPlainText(construct: TextConstruct | null): string | null {
  if (!construct) return null;
  if (construct.kind === 'text') return cleanText(construct.value);
  return cleanText(plainLine(construct.value));
}

/**
 * Titles keep markup when typed html/xhtml ("may contain HTML"); text titles are
 * escaped, so that a title about "<canvas>" keeps its angle brackets when the
 * title is read as HTML downstream.
 */
function asTitle(construct: TextConstruct | null): string | null {
  if (!construct) return null;
  return cleanText(construct.kind === 'text' ? escapeText(construct.value) : construct.value);
}

/** The names of an entry's or a feed's atom:author elements (an RSS item's too, where it has them). */
export function atomAuthorNames(parent: XmlElement): string[] {
  return childElements(parent, NS.atom, 'author').map((author) => childText(author, NS.atom, 'name') ?? '');
}

interface Link {
  href: string;
  rel: string;
  type: string | null;
  element: XmlElement;
}

function links(parent: XmlElement): Link[] {
  return childElements(parent, NS.atom, 'link').flatMap((element) => {
    const href = attribute(element, 'href')?.trim();
    if (!href) return [];
    const rel = attribute(element, 'rel')?.trim() ?? 'alternate';
    return [{ href, rel, type: attribute(element, 'type')?.trim() ?? null, element }];
  });
}

/**
 * RFC 4287 4.2.11: an entry copied from another feed keeps that feed's metadata in <source>; its title
 * and home page name where the entry was first published (a planet's or an aggregator's entry).
 */
function sourcePublisher(source: XmlElement, ...bases: (string | null)[]): ItemPublisher | null {
  const name = asPlainText(textConstruct(childElement(source, NS.atom, 'title')));
  const url = alternateUrl(source, source.base, ...bases);
  return name === null && url === null ? null : { name, url };
}

function alternateUrl(parent: XmlElement, ...bases: (string | null)[]): string | null {
  const alternate = links(parent).find((link) => link.rel === 'alternate');
  return alternate ? resolveUrl(alternate.href, alternate.element.base, ...bases) : null;
}

/** An entry's dates, the publication first (an RSS item's atom: dates too, after its own). */
export const ATOM_DATES: readonly ElementName[] = [
  [NS.atom, 'published'],
  [NS.atom, 'updated'],
  // Atom 0.3
  [NS.atom, 'issued'],
  [NS.atom, 'created'],
  [NS.atom, 'modified'],
];

/** A text construct's HTML with its relative URLs resolved against its own xml:base and the outer bases. */
function constructHtml(
  element: XmlElement | undefined,
  bases: (string | null)[],
  isContent = false,
): { html: string | null; text: boolean } {
  const construct = textConstruct(element, isContent);
  return {
    html: resolveHtmlUrls(asHtml(construct), element?.base ?? null, ...bases),
    text: construct?.kind === 'text',
  };
}

/**
 * The atom:summary or atom:content of `parent` as HTML, by its type, with its URLs resolved (`text`: it
 * was plain text, escaped). An entry's, or an RSS item's that writes them (RSS's own elements first).
 */
export function atomHtml(
  parent: XmlElement,
  local: 'summary' | 'content',
  bases: (string | null)[],
): { html: string | null; text: boolean } {
  return constructHtml(childElement(parent, NS.atom, local), bases, local === 'content');
}

/**
 * An RSS or RDF item's summary and content: the format's own element (`own`, HTML as written), else the
 * item's atom:summary and atom:content by Atom's rules, else (the summary) `otherSummary`, each with its
 * URLs resolved. `summaryIsText`/`contentIsText` are set only where Atom's plain text was taken, as the
 * Atom parser sets them, so an item without Atom's elements reads as it always did.
 */
export function itemTextsOrAtom(
  item: XmlElement,
  own: { summary: string | null; content: string | null },
  bases: (string | null)[],
  otherSummary: () => string | null = () => null,
): Pick<ParsedItem, 'summaryHtml' | 'summaryIsText' | 'contentHtml' | 'contentIsText'> {
  const summary = own.summary === null ? atomHtml(item, 'summary', bases) : null;
  const content = own.content === null ? atomHtml(item, 'content', bases) : null;
  return {
    summaryHtml:
      own.summary !== null
        ? resolveHtmlUrls(own.summary, ...bases)
        : (summary?.html ?? resolveHtmlUrls(otherSummary(), ...bases)),
    ...(summary?.html && summary.text ? { summaryIsText: true } : {}),
    contentHtml: own.content !== null ? resolveHtmlUrls(own.content, ...bases) : (content?.html ?? null),
    ...(content?.html && content.text ? { contentIsText: true } : {}),
  };
}

/** The atom:title of `parent`, as a title (asTitle); null when it has none. */
export function atomTitle(parent: XmlElement): string | null {
  return asTitle(textConstruct(childElement(parent, NS.atom, 'title')));
}

/** The terms (else labels) of the atom:category elements of `parent`. */
export function atomCategories(parent: XmlElement): string[] {
  return distinct(
    childElements(parent, NS.atom, 'category').map((c) => attribute(c, 'term') ?? attribute(c, 'label')),
  );
}

function parseEntry(
  entry: XmlElement,
  feedAuthors: string[],
  siteUrl: string | null,
  baseUrl: string | null,
): ParsedItem {
  const publishedRaw = lastTextOfFirst(entry, ATOM_DATES);
  const summary = atomHtml(entry, 'summary', [siteUrl, baseUrl]);
  const content = atomHtml(entry, 'content', [siteUrl, baseUrl]);
  const source = childElement(entry, NS.atom, 'source');
  const resolve = (url: string) => resolveUrl(url, entry.base, siteUrl, baseUrl);
  const enclosures = links(entry)
    .filter((link) => link.rel === 'enclosure')
    .map((link) =>
      enclosureRef(link.href, link.type ?? undefined, (url) =>
        resolveUrl(url, link.element.base, siteUrl, baseUrl),
      ),
    )
    .filter((ref): ref is MediaRef => ref !== null);
  // FeedBurner's alternate link is its click-tracking redirect; origLink is the publisher's URL.
  const origin = childElement(entry, NS.feedburner, 'origLink');
  const originUrl = origin ? cleanText(textContent(origin)) : null;
  const categories = atomCategories(entry);

  return {
    guid: childText(entry, NS.atom, 'id'),
    url:
      originUrl !== null && origin
        ? resolveUrl(originUrl, origin.base, siteUrl, baseUrl)
        : alternateUrl(entry, siteUrl, baseUrl),
    title: atomTitle(entry) ?? mediaText(entry, 'title'),
    summaryHtml:
      summary.html ?? resolveHtmlUrls(mediaText(entry, 'description'), entry.base, siteUrl, baseUrl),
    // Set only when true, as the RSS and RDF parsers never set it: an entry without these reads as before.
    ...(summary.html !== null && summary.text ? { summaryIsText: true } : {}),
    contentHtml: content.html,
    ...(content.html !== null && content.text ? { contentIsText: true } : {}),
    // RFC 4287 4.2.1: an entry without authors has its source's, else the feed's.
    author:
      joinNames(atomAuthorNames(entry)) ??
      (source ? joinNames(atomAuthorNames(source)) : null) ??
      joinNames(feedAuthors),
    publishedRaw,
    published: parseFeedDate(publishedRaw),
    categories: categories.length > 0 ? categories : moduleCategories(entry),
    language: cleanText(attribute(entry, 'lang', NS.xml)),
    ...pickMedia(entry, enclosures, resolve),
    publisher: source ? sourcePublisher(source, siteUrl, baseUrl) : null,
  };
}

/**
 * The tree with the root's namespace read as Atom's: a <feed> whose generator
 * forgot xmlns (or wrote a wrong one) is still Atom, and its children are in
 * that same namespace. Elements in other namespaces (media:, xhtml) keep theirs.
 */
function asAtomNamespace(element: XmlElement, from: string): XmlElement {
  return {
    ...element,
    ns: element.ns === from ? NS.atom : element.ns,
    children: element.children.map((child) =>
      typeof child === 'string' ? child : asAtomNamespace(child, from),
    ),
  };
}

export function parseAtom(document: XmlElement, context: FeedContext): FeedContent {
  const root = document.ns === NS.atom ? document : asAtomNamespace(document, document.ns);
  const siteUrl = alternateUrl(root, context.baseUrl);
  const feedAuthors = atomAuthorNames(root);
  return {
    format: 'atom',
    title: asPlainText(textConstruct(childElement(root, NS.atom, 'title'))),
    siteUrl,
    language: cleanText(attribute(root, 'lang', NS.xml)),
    items: childElements(root, NS.atom, 'entry').map((entry) =>
      parseEntry(entry, feedAuthors, siteUrl, context.baseUrl),
    ),
    hints: publisherHintsOf(root, context.baseUrl),
  };
}
