// Tells the format from the content: Content-Type headers are too often wrong
// (text/html for RSS, application/octet-stream for everything). Also turns the
// commonest non-feeds (an HTML page, an empty or binary body) into a reason a
// person can act on.

import { FeedParseError } from './errors.ts';
import type { FeedFormat } from './types.ts';
import { SNIFF_CHARS } from './limits.ts';

function describeBinary(head: string): string | null {
  let controls = 0;
  for (const ch of head) {
    const code = ch.charCodeAt(0);
    if (code === 0) return 'not a feed: binary data (NUL bytes in the body)';
    if (code < 0x20 && ch !== '\t' && ch !== '\n' && ch !== '\r') controls += 1;
  }
  return controls > head.length * 0.05
    ? `not a feed: binary data (${controls} control characters in the first ${head.length})`
    : null;
}

/** Index just past the prolog construct starting at `i` ("<?...?>", "<!--...-->", "<!DOCTYPE ...>"). */
function skipPrologConstruct(text: string, i: number): number {
  if (text.startsWith('<?', i)) {
    const end = text.indexOf('?>', i + 2);
    return end === -1 ? text.length : end + 2;
  }
  if (text.startsWith('<!--', i)) {
    const end = text.indexOf('-->', i + 4);
    return end === -1 ? text.length : end + 3;
  }
  // DOCTYPE, possibly with an internal subset in brackets.
  const bracket = text.indexOf('[', i);
  const close = text.indexOf('>', i);
  if (close === -1) return text.length;
  if (bracket !== -1 && bracket < close) {
    const subsetEnd = text.indexOf(']', bracket);
    const end = subsetEnd === -1 ? -1 : text.indexOf('>', subsetEnd);
    return end === -1 ? text.length : end + 1;
  }
  return close + 1;
}

/** The reason a web page is refused: who gets it may look in the page for the feeds it names. */
export const htmlPageReason = 'not a feed: an HTML page';

function detectXml(text: string, start: number): FeedFormat {
  let i = start;
  // An HTML DOCTYPE says "HTML page" only when an HTML root follows: generators
  // copy an XHTML DOCTYPE in front of <rss> too, and the root is what counts.
  let htmlDoctype = false;
  for (;;) {
    while (i < text.length && /\s/.test(text.charAt(i))) i += 1;
    if (i >= text.length) {
      throw new FeedParseError(
        htmlDoctype ? htmlPageReason : 'not a feed: XML document without a root element',
      );
    }
    if (text.charAt(i) !== '<') {
      if (htmlDoctype) throw new FeedParseError(htmlPageReason);
      throw new FeedParseError(`not a feed: unexpected text before the root element at offset ${i}`);
    }
    if (/^<!doctype\s+html\b/i.test(text.slice(i, i + 20))) htmlDoctype = true;
    const next = text.charAt(i + 1);
    if (next !== '?' && next !== '!') break;
    i = skipPrologConstruct(text, i);
  }

  const name = /^<([A-Za-z_][\w.:-]*)/.exec(text.slice(i, i + 200))?.[1];
  if (name === undefined)
    throw new FeedParseError(htmlDoctype ? htmlPageReason : 'not a feed: no XML root element');
  const local = name.slice(name.indexOf(':') + 1);
  switch (local.toLowerCase()) {
    case 'rss':
      return 'rss';
    case 'rdf':
      return 'rdf';
    case 'feed':
      return 'atom';
    case 'html':
    case 'head':
    case 'body':
      throw new FeedParseError(htmlPageReason);
    default:
      throw new FeedParseError(
        htmlDoctype ? htmlPageReason : `not a feed: XML document with root element <${name}>`,
      );
  }
}

export function detectFormat(text: string): FeedFormat {
  const start = text.search(/\S/);
  if (start === -1) throw new FeedParseError('empty body');

  const binary = describeBinary(text.slice(start, start + SNIFF_CHARS));
  if (binary) throw new FeedParseError(binary);

  const first = text.charAt(start);
  // Whether it is really a JSON Feed (version, items) is for json-feed.ts to say.
  if (first === '{') return 'json';
  if (first === '<') return detectXml(text, start);
  if (first === '[') throw new FeedParseError('not a feed: a JSON array');
  throw new FeedParseError(`not a feed: the body starts with "${text.slice(start, start + 20).trim()}"`);
}
