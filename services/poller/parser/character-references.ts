// Decodes character references in XML text in a single pass: the five XML
// predefined entities, numeric references, and (because feeds in the wild use
// them undeclared) the HTML 4 named ones. Entities declared in a DOCTYPE are
// never expanded: documents that declare any are refused before parsing.

import { HTML_ENTITY_CODE_POINTS } from './html-entities.ts';

const XML_PREDEFINED: ReadonlyMap<string, string> = new Map([
  ['lt', '<'],
  ['gt', '>'],
  ['amp', '&'],
  ['quot', '"'],
  ['apos', "'"],
]);

const REFERENCE = /&(?:#(\d{1,8})|#[xX]([0-9A-Fa-f]{1,8})|([A-Za-z][A-Za-z0-9]{0,31}));/g;

function fromCodePoint(codePoint: number): string {
  const invalid = codePoint === 0 || codePoint > 0x10ffff || (codePoint >= 0xd800 && codePoint <= 0xdfff);
  return invalid ? '\uFFFD' : String.fromCodePoint(codePoint);
}

export function decodeCharacterReferences(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(REFERENCE, (reference, decimal?: string, hex?: string, name?: string) => {
    if (decimal !== undefined) return fromCodePoint(Number.parseInt(decimal, 10));
    if (hex !== undefined) return fromCodePoint(Number.parseInt(hex, 16));
    const predefined = XML_PREDEFINED.get(name ?? '');
    if (predefined !== undefined) return predefined;
    const codePoint = HTML_ENTITY_CODE_POINTS.get(name ?? '');
    return codePoint === undefined ? reference : String.fromCodePoint(codePoint);
  });
}

/** Escapes text so that it reads the same when treated as HTML (or XML character data). */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>]/g, (ch) => (ch === '&' ? '&amp;' : ch === '<' ? '&lt;' : '&gt;'));
}

/** Escapes an attribute value for a double-quoted attribute. */
export function escapeAttribute(value: string): string {
  return escapeHtml(value).replace(/"/g, '&quot;');
}
