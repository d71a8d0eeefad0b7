// Plain text from the HTML that feeds carry: tags dropped, entities decoded,
// script/style content skipped, paragraphs kept as blank-line-separated
// blocks, whitespace collapsed, invisible characters (soft hyphens, zero-width
// spaces) removed. Built on htmlparser2's streaming tokenizer
// because it runs for every field of every item: a full HTML-to-text renderer
// cost ~1 ms a call, this costs microseconds.
import { Parser } from 'htmlparser2';
import { joinedSurrogateReferences, withoutControlCharacters } from './text-repair.ts';

/** Longest text we keep for one field: beyond it a feed is stuffing, not writing. */
export const maxTextLength = 200_000;

const blockElements = new Set([
  'p',
  'div',
  'br',
  'li',
  'ul',
  'ol',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'blockquote',
  'pre',
  'table',
  'tr',
  'section',
  'article',
  'header',
  'footer',
  'aside',
  'figure',
  'figcaption',
  'hr',
  'dl',
  'dt',
  'dd',
  'address',
]);
const skippedElements = new Set([
  'script',
  'style',
  'noscript',
  'template',
  'iframe',
  'object',
  'svg',
  'head',
  'title',
]);

/**
 * A page's parts that are no article, skipped too when the text is a page someone posted (postedText):
 * its menus, footer and sidebars, forms and buttons. "Home | About | Contact" had opened a summary, and a
 * footer's "© 2026 Example News" made an entity. A feed item's HTML is the article, so there they stay:
 * an item's <aside> is its fact box.
 */
const pageChromeElements = new Set(['nav', 'footer', 'aside', 'form', 'button', 'select', 'menu', 'dialog']);

/**
 * Table cells sit side by side on a page, never run together: "<td>Arsenal</td><td>42</td>" reads
 * "Arsenal 42", not "Arsenal42" (a name the entity extractor and search would then see). A cell is no
 * block: a row of cells stays one line.
 */
const cellElements = new Set(['td', 'th']);

const collapse = (block: string) => block.replace(/\s+/g, ' ').trim();

/**
 * Characters that a line of text never shows and that no script needs: the soft hyphen (U+00AD), the
 * zero-width space (U+200B), the word joiner (U+2060), and the explicit embeddings, overrides and
 * isolates of bidirectional text (U+202A–U+202E, U+2066–U+2069); U+FEFF goes with the control characters
 * (text-repair.ts).
 * Left in, "Infla\u00ADtion" is not found as "Inflation", and a right-to-left override in a title or a
 * source's name (shown to every tenant) makes the text after it display reversed: a spoofing tool, which
 * Arabic and Hebrew text does not need (the bidirectional algorithm orders it; the marks U+200E and
 * U+200F, which override nothing, stay). The zero-width (non-)joiners U+200C and U+200D stay: Persian,
 * the Indic scripts and emoji sequences (👩‍💻) need them.
 */
const invisible = /[\u00ad\u200b\u2060\u202a-\u202e\u2066-\u2069]/g;

/** Anything that makes a text not simple (isSimpleText): a character outside the set, or a space astray. */
const notSimple = /[^\x20-\x7e\xa1-\xac\xae-\u02ff\u2010-\u2027\u2030-\u205e\u20ac]| {2}|^ | $/;

/**
 * Text that no cleaning here changes: printable characters and single spaces between them, nothing
 * else. Besides ASCII, Latin-1 and the Latin letters and modifiers up to U+02FF (none of them is
 * whitespace, a control character or a combining mark, so NFC leaves them too), general punctuation
 * without its spaces and invisible characters (dashes, quotes, bullets, ellipsis) and the euro sign:
 * what most titles and summaries are made of. One pass over the characters, where the cleaning itself
 * is several regular expressions and a new string each; `plainText` and the poller's fingerprints
 * (article-fingerprint.ts) return such text as it is. The pass is a regular expression looking for what
 * is not allowed: V8 runs it as native code, at two to three times the speed of a loop over charCodeAt
 * (it runs twice on every title and summary of every poll).
 */
export function isSimpleText(text: string): boolean {
  return text !== '' && !notSimple.test(text);
}

export function plainText(html: string | null | undefined, options: { page?: boolean } = {}): string {
  if (!html) return '';
  const input = html.length > 4 * maxTextLength ? html.slice(0, 4 * maxTextLength) : html;
  // Most titles and many summaries carry no markup at all, and many of those nothing to clean either.
  if (!input.includes('<') && !input.includes('&')) {
    if (input.length <= maxTextLength && isSimpleText(input)) return input;
    return joinBlocks(input.split(/\n\s*\n/));
  }

  const blocks: string[] = [];
  let current = '';
  let skipping = 0;
  const skipped = (name: string) =>
    skippedElements.has(name) || (options.page === true && pageChromeElements.has(name));
  const breakBlock = () => {
    if (current.trim()) blocks.push(current);
    current = '';
  };
  const parser = new Parser(
    {
      onopentag(name) {
        if (skipped(name)) skipping++;
        else if (blockElements.has(name)) breakBlock();
        else if (cellElements.has(name)) current += ' ';
      },
      onclosetag(name) {
        if (skipped(name)) skipping = Math.max(0, skipping - 1);
        else if (blockElements.has(name)) breakBlock();
        else if (cellElements.has(name)) current += ' ';
      },
      ontext(text) {
        if (skipping === 0) current += text;
      },
    },
    { decodeEntities: true, lowerCaseTags: true },
  );
  parser.write(joinedSurrogateReferences(input));
  parser.end();
  breakBlock();
  return joinBlocks(blocks);
}

// Decoding references can make control characters ("&#1;") that the feed's text
// repair (text-repair.ts) never saw; and a cut must not leave half a surrogate pair.
// Invisible characters go before whitespace is collapsed: "a \u200b b" is "a b".
function joinBlocks(blocks: readonly string[]): string {
  const text = blocks
    .map((block) => collapse(withoutControlCharacters(block).replace(invisible, '')))
    .filter(Boolean)
    .join('\n\n');
  if (text.length <= maxTextLength) return text;
  const end = /[\ud800-\udbff]/.test(text[maxTextLength - 1] ?? '') ? maxTextLength - 1 : maxTextLength;
  return text.slice(0, end);
}

/**
 * A name as a person typed it (a source's name), not HTML: one line, without control or invisible
 * characters, whitespace collapsed, composed (NFC). "Bad\u0000Name\nline2\u202eRTL" is "BadName
 * line2RTL"; "Cafe\u0301" (macOS and some input methods decompose) is "Café", so it is one name with
 * the composed spelling, which two sources may not share.
 */
export function textLine(text: string): string {
  return collapse(withoutControlCharacters(text.normalize('NFC')).replace(invisible, ''));
}

/** A start or end tag of HTML: `<p>`, `<a href="…">`, `<br/>`, `</div>`; not "a < b" or "x<y". */
const htmlTag = /<[a-z][a-z0-9-]*(?:\s[^<>]*)?\/?>|<\/[a-z][a-z0-9-]*\s*>/i;

/**
 * A text someone posted to be analysed, which is often HTML copied from a page: read as HTML when it
 * holds a tag (a script's code and a tag's attributes are no text: "alert" and "onerror" made a neutral
 * report of a meeting −0.93 negative; nor are its menus, footer and sidebars), otherwise as text, paragraphs kept; either way without control,
 * invisible or bidirectional override characters, which the answer would echo back.
 */
export function postedText(text: string): string {
  if (!htmlTag.test(text)) return joinBlocks(text.split(/\n\s*\n/));
  // A snippet that is all form or sidebar is still what was posted to be read.
  return plainText(text, { page: true }) || plainText(text);
}

/** One line of plain text (titles, authors): all whitespace collapsed. */
export function plainLine(html: string | null | undefined): string {
  // plainText's own first check: such a text is its own line, and need not be looked at twice.
  if (
    html &&
    html.length <= maxTextLength &&
    !html.includes('<') &&
    !html.includes('&') &&
    isSimpleText(html)
  )
    return html;
  const text = plainText(html);
  return isSimpleText(text) ? text : collapse(text);
}
