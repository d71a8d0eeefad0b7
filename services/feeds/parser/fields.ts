// Small normalisations shared by the format adapters.

import { childElement, childElements, htmlContent, textContent, type XmlElement } from './xml-tree.ts';

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

/** RSS <author> is "email (Name)" by the spec: the name is what readers want. */
export function authorName(text: string | null): string | null {
  const match = /^\S+@\S+\s+\((.+)\)$/.exec(text?.trim() ?? '');
  return match?.[1]?.trim() ?? cleanText(text);
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
