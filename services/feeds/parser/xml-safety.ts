// Runs on the raw text before any XML parser sees it. Entity declarations are
// the only way XML makes a parser do more work than the input's size (billion
// laughs) or read something other than the input (external entities, XXE). The
// DOCTYPE's internal subset, where a document declares them, is taken out whole
// (withoutDeclaredEntities: a few old feeds pull in XHTML's Latin-1 entity set
// there, whose names the HTML decoder knows anyway), and a declaration left
// anywhere else refuses the document. A DOCTYPE without a subset (RSS 0.91's
// Netscape DTD) is fine: nothing here ever fetches a DTD.

import { FeedParseError } from './errors.ts';

function reasonFor(declaration: string): string {
  if (/^<!ENTITY\s+%/i.test(declaration)) {
    return 'XML parameter entity declarations are not allowed (possible entity-expansion or external-entity attack)';
  }
  if (/\s(SYSTEM|PUBLIC)\s/i.test(declaration)) {
    return 'XML external entity declarations are not allowed (possible XXE attack reading local files or URLs)';
  }
  return 'XML entity declarations are not allowed (possible entity-expansion attack)';
}

export function assertSafeXml(text: string): void {
  // Case-insensitive although XML keywords are not: refusing "<!entity" too costs
  // nothing and leaves no spelling for a lenient parser to accept.
  const marker = /<!\[CDATA\[|<!--|<!ENTITY/gi;
  for (let match = marker.exec(text); match; match = marker.exec(text)) {
    const token = match[0];
    if (token.toUpperCase() === '<!ENTITY') {
      const head = text.slice(match.index, match.index + 512);
      throw new FeedParseError(reasonFor(head.slice(0, head.indexOf('>') + 1 || undefined)));
    }
    // Inside CDATA or a comment, "<!ENTITY" is just text (a post about XXE).
    const end = text.indexOf(token === '<!--' ? '-->' : ']]>', marker.lastIndex);
    if (end === -1) return; // unterminated: the parser reports the malformed document
    marker.lastIndex = end + 3;
  }
}

/**
 * Stricter than assertSafeXml, for the lenient pass (xml-tree.ts), which reads documents the strict
 * parser refuses: an "<!ENTITY" anywhere, even where assertSafeXml stopped looking (after an
 * unterminated comment or CDATA section), refuses the document. Neither parser expands a declared
 * entity; this keeps that from resting on how two tokenizers read a broken document.
 */
export function assertNoEntityDeclaration(text: string): void {
  const match = /<!ENTITY/i.exec(text);
  if (!match) return;
  const head = text.slice(match.index, match.index + 512);
  throw new FeedParseError(reasonFor(head.slice(0, head.indexOf('>') + 1 || undefined)));
}

/**
 * Index just past the construct at `i` that ends with `end` (a quoted string ends with its quote; a
 * comment with "-->"; a processing instruction with "?>"), or -1 when it is not closed.
 */
function pastConstruct(text: string, i: number, opening: number, end: string): number {
  const found = text.indexOf(end, i + opening);
  return found === -1 ? -1 : found + end.length;
}

/** Index of the DOCTYPE in the prolog (after the XML declaration, comments and processing instructions), or -1. */
function doctypeStart(text: string): number {
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  while (i !== -1) {
    while (i < text.length && /\s/.test(text[i]!)) i += 1;
    if (text.startsWith('<?', i)) i = pastConstruct(text, i, 2, '?>');
    else if (text.startsWith('<!--', i)) i = pastConstruct(text, i, 4, '-->');
    else return text.slice(i, i + 9).toUpperCase() === '<!DOCTYPE' ? i : -1;
  }
  return -1;
}

/**
 * The document with its DOCTYPE's internal subset taken out ("<!DOCTYPE rss [<!ENTITY …>]>" becomes
 * "<!DOCTYPE rss >") when that subset declares entities, and how many it declared; null when it declares
 * none, or the subset cannot be told apart (unterminated: assertSafeXml then refuses the document). What
 * the subset declared is never expanded: a reference to it stays as written, unless it is an HTML
 * entity's name, which the parser decodes as it does undeclared ones.
 */
export function withoutDeclaredEntities(text: string): { text: string; declarations: number } | null {
  const start = doctypeStart(text);
  if (start === -1) return null;
  // The DOCTYPE's name and external id, up to its subset's "[" (a quoted id may hold one).
  let i = start + 9;
  while (i !== -1 && i < text.length && text[i] !== '[' && text[i] !== '>')
    i = text[i] === '"' || text[i] === "'" ? pastConstruct(text, i, 1, text[i]!) : i + 1;
  if (i === -1 || text[i] !== '[') return null;
  const open = i;
  // The subset: declarations whose quoted values, comments and processing instructions may hold "]".
  i += 1;
  while (i !== -1 && i < text.length && text[i] !== ']') {
    if (text[i] === '"' || text[i] === "'") i = pastConstruct(text, i, 1, text[i]!);
    else if (text.startsWith('<!--', i)) i = pastConstruct(text, i, 4, '-->');
    else if (text.startsWith('<?', i)) i = pastConstruct(text, i, 2, '?>');
    else i += 1;
  }
  if (i === -1 || i >= text.length) return null;
  const declarations = text.slice(open + 1, i).match(/<!ENTITY/gi)?.length ?? 0;
  if (declarations === 0) return null;
  return { text: text.slice(0, open) + text.slice(i + 1), declarations };
}
