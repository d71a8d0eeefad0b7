// An item's title as one line of plain text. Titles arrive as HTML (ParsedItem.title), but much of
// what looks like markup in them is not: RSS <title> is plain text by the spec, and publishers escape
// "std::vector<int> explained" or "The <dialog> element" once, so after the XML is decoded the
// angle brackets read as tags, and plainLine dropped them ("std::vector explained", "The element").
// Here only what is plausibly real markup is read as markup; any other "<" is text.
import { plainLine } from '../../runtime/plain-text.ts';

/**
 * The tags that titles carry when they carry any (a CMS's bold "Breaking", an emphasis, a line break,
 * a link): markup when closed, when closing, or when their kind or attributes say so (isMarkup).
 */
const titleTags = new Set([
  'a',
  'abbr',
  'b',
  'br',
  'cite',
  'code',
  'div',
  'em',
  'font',
  'hr',
  'i',
  'img',
  'mark',
  'p',
  'q',
  's',
  'small',
  'span',
  'strike',
  'strong',
  'sub',
  'sup',
  'u',
  'wbr',
]);

/**
 * A comment, a tag (its name, then attributes as HTML writes them, then an optional "/"), or any
 * other "<". A comment ends before the next "<", and only a quoted value holds one, so no attempt
 * reads past the next "<" outside quotes: one pass, however many brackets a title holds.
 */
const bracket =
  /<!--[^<]*?-->|<(\/?)([A-Za-z][^\s/<>]*)(?:\s+[^\s"'<>/=]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'<>`=]+))?)*\s*\/?>|</g;

/**
 * Names of elements the title both opens and closes ("<dfn>term</dfn>"): markup, whatever the name.
 * An XHTML title, and a title written as unescaped inline markup, reach us serialised that way
 * (xml-tree.ts), and their elements are real elements.
 */
function pairedNames(html: string): Set<string> {
  const opened = new Set<string>();
  const closed = new Set<string>();
  for (const [, slash, name] of html.matchAll(bracket)) {
    if (name !== undefined) (slash ? closed : opened).add(name.toLowerCase());
  }
  return new Set([...opened].filter((name) => closed.has(name)));
}

/**
 * The titles' tags read as markup even opened alone with nothing in them: a CMS's unclosed emphasis and
 * its line breaks. The others opened alone are text unless they carry what markup carries (a link, a
 * source, a class or a style): a web developer's headline names them ("The <p> element", "Drop the
 * <div>", "Lazy-loading with <img loading="lazy">").
 */
const aloneTags = new Set(['b', 'i', 'em', 'strong', 'br', 'wbr']);
const markupAttribute = /\s(?:href|src|class|style)\s*=/i;

/**
 * Whether a tag named `name` (`tag` whole, `closing` for "</…>") is markup: an element opened and
 * closed, a closing tag or an emphasis of the titles' tags, or one of them carrying markup's attributes.
 * A lone single capital ("Option<B>", "List<A>") is a type parameter, not HTML written in capitals.
 */
function isMarkup(name: string, tag: string, closing: boolean, paired: ReadonlySet<string>): boolean {
  const lower = name.toLowerCase();
  if (paired.has(lower)) return true;
  if (!titleTags.has(lower) || /^[A-Z]$/.test(name)) return false;
  return closing || aloneTags.has(lower) || markupAttribute.test(tag);
}

/** `html` with every "<" that starts no markup escaped, so that the HTML reading keeps it as text. */
export function escapeNonMarkup(html: string): string {
  if (!html.includes('<')) return html;
  const paired = html.includes('</') ? pairedNames(html) : new Set<string>();
  return html.replace(bracket, (match: string, slash: string | undefined, name: string | undefined) => {
    if (match.startsWith('<!--') || (name !== undefined && isMarkup(name, match, slash === '/', paired)))
      return match;
    // A "<" inside a rejected tag's quoted value must stay text too.
    return match.replaceAll('<', '&lt;');
  });
}

/** A title as one line of plain text: its markup dropped, its other angle brackets kept. */
export function titleText(html: string | null | undefined): string {
  return plainLine(html ? escapeNonMarkup(html) : html);
}
