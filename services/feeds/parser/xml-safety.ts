// Runs on the raw text before any XML parser sees it. Entity declarations are
// the only way XML makes a parser do more work than the input's size (billion
// laughs) or read something other than the input (external entities, XXE), and
// no real feed needs them, so any declaration refuses the document. A DOCTYPE
// without one (RSS 0.91's Netscape DTD) is fine: nothing here ever fetches a DTD.

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
