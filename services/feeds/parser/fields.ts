// Small normalisations shared by the format adapters.

import { decodeHTMLStrict, escapeText } from 'entities';
import {
  attribute,
  childElement,
  childElements,
  htmlContent,
  textContent,
  type XmlElement,
} from './xml-tree.ts';

/** Trimmed text, or null when nothing is left. */
export function cleanText(text: string | null | undefined): string | null {
  const trimmed = text?.trim() ?? '';
  return trimmed === '' ? null : trimmed;
}

/** Distinct non-empty values, in first-seen order. */
export function distinct(values: (string | null | undefined)[]): string[] {
  return [...new Set(values.map(cleanText).filter((value): value is string => value !== null))];
}

/** Author names joined with ", ", or null when there are none. */
export function joinNames(names: (string | null | undefined)[]): string | null {
  const unique = distinct(names);
  return unique.length === 0 ? null : unique.join(', ');
}

// An address as bylines write one: no spaces, brackets or a second "@", a dot in its domain.
const address = String.raw`(?:mailto:)?[^\s@()<>\[\]]+@[^\s@()<>\[\]]+\.[^\s@()<>\[\]]+`;
/** "jane@example.org (Jane Doe)": RSS's <author> as its spec writes it. */
const addressThenName = new RegExp(String.raw`^${address}\s*\((.+)\)$`, 'i');
/** "Jane Doe (jane@example.org)", "Jane Doe <jane@example.org>", "Jane Doe [jane@example.org]". */
const nameThenAddress = new RegExp(
  String.raw`^(.+?)[\s,]*(?:\(\s*${address}\s*\)|<\s*${address}\s*>|\[\s*${address}\s*\])$`,
  'i',
);

/**
 * An author's name without the e-mail address written beside it: RSS's <author> is "email (Name)" by
 * its spec, and feeds write "Name (email)" or "Name <email>" in <author>, <dc:creator> and <itunes:author>
 * too. The name is what readers want. A bracketed part that is not an address ("Jane Doe (Reuters)")
 * stays, and so does an address given alone: it is all the feed says of its author.
 */
export function authorName(text: string | null): string | null {
  const trimmed = text?.trim() ?? '';
  const match = addressThenName.exec(trimmed) ?? nameThenAddress.exec(trimmed);
  return cleanText(match?.[1] ?? trimmed);
}

/** authorName of each, joined with ", " (joinNames). */
export function joinAuthorNames(names: (string | null | undefined)[]): string | null {
  return joinNames(names.map((name) => authorName(name ?? null)));
}

/** Text of the first such child with non-blank text (feeds repeat elements, some empty). */
export function childText(parent: XmlElement, ns: string, local: string): string | null {
  for (const element of childElements(parent, ns, local)) {
    const text = cleanText(textContent(element));
    if (text !== null) return text;
  }
  return null;
}

/** The first such child's content as HTML (xml-tree.ts htmlContent), trimmed. */
export function childHtml(parent: XmlElement, ns: string, local: string): string | null {
  const element = childElement(parent, ns, local);
  return element ? cleanText(htmlContent(element)) : null;
}

/**
 * Text of the last such child with non-blank text: where a single-valued element
 * (a date) repeats, the last one wins, as in feedparser, which overwrites as it reads.
 */
export function lastChildText(parent: XmlElement, ns: string, local: string): string | null {
  let found: string | null = null;
  for (const element of childElements(parent, ns, local)) found = cleanText(textContent(element)) ?? found;
  return found;
}

/** A name in a namespace, in the order a field looks for it. */
export type ElementName = readonly [ns: string, local: string];

/** The first of `names`, in order, with non-blank text: the core element first, then the fallbacks. */
export function firstText(parent: XmlElement, names: readonly ElementName[]): string | null {
  for (const [ns, local] of names) {
    const text = childText(parent, ns, local);
    if (text !== null) return text;
  }
  return null;
}

/** The last value of the first of `names` that is present (dates: see lastChildText). */
export function lastTextOfFirst(parent: XmlElement, names: readonly ElementName[]): string | null {
  for (const [ns, local] of names) {
    const text = lastChildText(parent, ns, local);
    if (text !== null) return text;
  }
  return null;
}

const PLAIN_TYPES = /^(text|plain|text\/plain)$/i;

/**
 * An element's content as HTML. Mostly RSS elements carry (escaped) HTML; one
 * that says it is plain text (type="text/plain", Media RSS type="plain") is
 * escaped, so that "a <b> tag" keeps its angle brackets instead of losing them
 * as markup.
 */
export function elementHtml(element: XmlElement, defaultType = 'html'): string | null {
  const type = attribute(element, 'type')?.trim() || defaultType;
  return cleanText(PLAIN_TYPES.test(type) ? escapeText(textContent(element)) : htmlContent(element));
}

/** The first of `names`, in order, whose content (elementHtml) is not blank. */
export function firstHtml(parent: XmlElement, names: readonly ElementName[]): string | null {
  for (const [ns, local] of names) {
    for (const element of childElements(parent, ns, local)) {
      const html = elementHtml(element);
      if (html !== null) return html;
    }
  }
  return null;
}

const REFERENCE = /&(?:[A-Za-z][A-Za-z0-9]{1,31}|#[0-9]{1,7}|#x[0-9A-Fa-f]{1,6});/;

/**
 * A title that should be plain text but still holds references after the XML
 * decoding ("Tom &amp;amp; Jerry" in the document): escaped twice by its
 * generator, so decoded once more. Only once: a title that means "&amp;" literally
 * would need three levels, which no feed seen does.
 */
export function unescapeTwiceEscaped(text: string | null): string | null {
  return text !== null && REFERENCE.test(text) ? decodeHTMLStrict(text) : text;
}
