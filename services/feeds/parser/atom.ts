// Atom 1.0 (RFC 4287) and Atom 0.3 (read through the same namespace, see
// namespaces.ts). Text constructs carry their own type: "text" is escaped to
// HTML, "html" is already HTML, "xhtml" is the markup inside the wrapper div.
// Links resolve against xml:base, which may be set on any ancestor.

import { plainLine } from '../../runtime/plain-text.ts';
import { escapeText } from 'entities';
import { parseFeedDate } from './dates.ts';
import { childText, cleanText, distinct, joinNames } from './fields.ts';
import { enclosureRef, pickMedia, type MediaRef } from './media.ts';
import { NS } from './namespaces.ts';
import type { ParsedFeed, ParsedItem } from './types.ts';
import { resolveUrl } from './urls.ts';
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

/** Reads a text construct; null for out-of-line (src=) or binary content. */
function textConstruct(element: XmlElement | undefined): TextConstruct | null {
  if (!element || attribute(element, 'src') !== undefined) return null;
  const type = attribute(element, 'type')?.trim().toLowerCase() ?? 'text';
  const mode = attribute(element, 'mode')?.trim().toLowerCase(); // Atom 0.3
  if (mode === 'base64') return null;
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
  return null; // other MIME types: images, arbitrary XML
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

/** Titles keep markup when typed html/xhtml ("may contain HTML"); text titles stay text. */
function asTitle(construct: TextConstruct | null): string | null {
  return construct ? cleanText(construct.value) : null;
}

function authorNames(parent: XmlElement): string[] {
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

function alternateUrl(parent: XmlElement, siteUrl: string | null): string | null {
  const alternate = links(parent).find((link) => link.rel === 'alternate');
  return alternate ? resolveUrl(alternate.href, alternate.element.base, siteUrl) : null;
}

function parseEntry(entry: XmlElement, feedAuthors: string[], siteUrl: string | null): ParsedItem {
  const publishedRaw =
    childText(entry, NS.atom, 'published') ??
    childText(entry, NS.atom, 'updated') ??
    // Atom 0.3
    childText(entry, NS.atom, 'issued') ??
    childText(entry, NS.atom, 'created') ??
    childText(entry, NS.atom, 'modified');
  const source = childElement(entry, NS.atom, 'source');
  const resolve = (url: string) => resolveUrl(url, entry.base, siteUrl);
  const enclosures = links(entry)
    .filter((link) => link.rel === 'enclosure')
    .map((link) =>
      enclosureRef(link.href, link.type ?? undefined, (url) => resolveUrl(url, link.element.base, siteUrl)),
    )
    .filter((ref): ref is MediaRef => ref !== null);

  return {
    guid: childText(entry, NS.atom, 'id'),
    url: alternateUrl(entry, siteUrl),
    title: asTitle(textConstruct(childElement(entry, NS.atom, 'title'))),
    summaryHtml: asHtml(textConstruct(childElement(entry, NS.atom, 'summary'))),
    contentHtml: asHtml(textConstruct(childElement(entry, NS.atom, 'content'))),
    // RFC 4287 4.2.1: an entry without authors has its source's, else the feed's.
    author:
      joinNames(authorNames(entry)) ??
      (source ? joinNames(authorNames(source)) : null) ??
      joinNames(feedAuthors),
    publishedRaw,
    published: parseFeedDate(publishedRaw),
    categories: distinct(
      childElements(entry, NS.atom, 'category').map((c) => attribute(c, 'term') ?? attribute(c, 'label')),
    ),
    language: cleanText(attribute(entry, 'lang', NS.xml)),
    ...pickMedia(entry, enclosures, resolve),
  };
}

export function parseAtom(root: XmlElement): ParsedFeed {
  const siteUrl = alternateUrl(root, null);
  const feedAuthors = authorNames(root);
  return {
    format: 'atom',
    title: asPlainText(textConstruct(childElement(root, NS.atom, 'title'))),
    siteUrl,
    language: cleanText(attribute(root, 'lang', NS.xml)),
    items: childElements(root, NS.atom, 'entry').map((entry) => parseEntry(entry, feedAuthors, siteUrl)),
  };
}
