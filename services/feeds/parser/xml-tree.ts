// XML text -> a small, namespace-resolved element tree that the RSS, RDF and
// Atom adapters read. fast-xml-parser does the tokenising; in order-preserving
// mode it keeps mixed content intact, which inline XHTML and unescaped HTML in
// <description> need. Call assertSafeXml (xml-safety.ts) first.
//
// A document that is not well-formed gets a second, lenient pass (htmlparser2's
// tokenizer, which never gives up): a truncated last end tag, a stray "<" or a
// mismatched inline tag would otherwise lose every item, and feedparser and
// browsers read such feeds too. The caller is told the tree was recovered.

import { decodeHTMLStrict, escapeText, escapeUTF8 } from 'entities';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { Parser as LenientParser } from 'htmlparser2';
import { FeedParseError } from './errors.ts';
import { MAX_XML_DEPTH } from './limits.ts';
import { assertNoEntityDeclaration } from './xml-safety.ts';
import { canonicalNamespace, NS, UNDECLARED_PREFIXES } from './namespaces.ts';

export interface XmlAttribute {
  /** Name as written, e.g. "rdf:about". */
  name: string;
  local: string;
  ns: string;
  value: string;
}

export interface XmlElement {
  /** Name as written, e.g. "dc:creator". */
  name: string;
  local: string;
  /** Canonical namespace URI (namespaces.ts); "" for none. */
  ns: string;
  attributes: XmlAttribute[];
  children: XmlNode[];
  /** Effective xml:base (absolute when an ancestor's was), or null. */
  base: string | null;
}

export type XmlNode = XmlElement | string;

// Character references are decoded in one pass, so that nothing is decoded twice, by the
// `entities` package's strict HTML decoder: the XML ones, numeric ones, and the HTML named ones
// that feeds in the wild use undeclared (a semicolon is required; an unknown name stays as
// written). Entities declared in a DOCTYPE are never expanded (addInputEntities is a no-op), and
// documents that declare any are refused before parsing (xml-safety.ts).
const entityDecoder = {
  setExternalEntities: () => undefined,
  addInputEntities: () => undefined,
  reset: () => undefined,
  setXmlVersion: () => undefined,
  decode: decodeHTMLStrict,
};

const parser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: '',
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: false,
  ignoreDeclaration: true,
  ignorePiTags: true,
  processEntities: true,
  entityDecoder,
  maxNestedTags: MAX_XML_DEPTH,
  jPath: false,
});

const STRAY_AMPERSAND_TAIL = /(?:[A-Za-z_][A-Za-z0-9_]{0,19}|#[0-9]{1,8}|#x[0-9A-Fa-f]{1,8});/y;

/**
 * Escapes "&" that does not start a reference ("Q&A", "?a=1&b=2"): invalid XML,
 * common in feeds, harmless to read as a literal ampersand. CDATA sections and
 * comments are left alone. Linear: every search starts where the last ended.
 */
export function escapeStrayAmpersands(xml: string): string {
  const marker = /<!\[CDATA\[|<!--|&/g;
  let out = '';
  let copiedUpTo = 0;
  for (let match = marker.exec(xml); match; match = marker.exec(xml)) {
    if (match[0] !== '&') {
      const end = xml.indexOf(match[0] === '<!--' ? '-->' : ']]>', marker.lastIndex);
      if (end === -1) break; // unterminated: the validator reports it
      marker.lastIndex = end + 3;
      continue;
    }
    STRAY_AMPERSAND_TAIL.lastIndex = marker.lastIndex;
    if (STRAY_AMPERSAND_TAIL.test(xml)) continue;
    out += xml.slice(copiedUpTo, match.index) + '&amp;';
    copiedUpTo = marker.lastIndex;
  }
  return copiedUpTo === 0 ? xml : out + xml.slice(copiedUpTo);
}

export interface ParsedXml {
  root: XmlElement;
  /**
   * Why the strict parse failed ("malformed XML at line 3: ..."), when the tree
   * comes from the lenient pass; null for a well-formed document.
   */
  recoveredFrom: string | null;
  /**
   * Items (RSS/RDF `item`, Atom `entry`) the text ended inside of, left out of the tree: a body cut off
   * in transfer. Their fields are whatever came before the cut (a link cut to "https://example.org/ar"),
   * and they would be kept as articles, for good. The whole item comes with the next poll.
   */
  unterminatedItems: number;
}

const depthError = () => new FeedParseError(`XML nesting deeper than ${MAX_XML_DEPTH} levels`);

/**
 * Why the validator refused a document, as a reader of the source's warnings can use it. Where the text
 * ends with several elements open (a body cut off), fast-xml-parser says "Invalid '[ "rss", "channel",
 * … ]' found." at line 1: that is said as what it is, at the document's last line.
 */
function validationMessage(xml: string, err: { code: string; msg: string; line: number }): string {
  const unclosed = /^Invalid '\[([\s\S]*)\]' found\.$/.exec(err.msg);
  if (err.code === 'InvalidXml' && unclosed) {
    const names = [...unclosed[1]!.matchAll(/"([^"]*)"/g)].map((m) => `<${m[1]!.slice(0, 60)}>`);
    const lastLine = xml.split('\n').length;
    return `malformed XML at line ${lastLine}: the document ends with ${names.join(', ')} still open (cut off?)`;
  }
  return `malformed XML at line ${err.line}: ${err.msg}`;
}

/** Parses a whole document and returns its root element, or throws FeedParseError. */
export function parseXml(text: string): XmlElement {
  const xml = escapeStrayAmpersands(text.trimStart());
  const validation = XMLValidator.validate(xml);
  if (validation !== true) throw new FeedParseError(validationMessage(xml, validation.err));
  let raw: unknown;
  try {
    raw = parser.parse(xml);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (/nested tags/i.test(message)) throw new FeedParseError(depthError().reason, { cause: error });
    throw new FeedParseError(`malformed XML: ${message}`, { cause: error });
  }
  const root = (Array.isArray(raw) ? raw : [])
    .map((node) => toNode(node, new Map(), null))
    .find((node): node is XmlElement => node !== null && typeof node !== 'string');
  if (!root) throw new FeedParseError('malformed XML: no root element');
  return root;
}

/**
 * parseXml, and when the document is not well-formed, the lenient pass. Errors
 * that are not about well-formedness (nesting depth) are never retried.
 */
export function parseXmlLeniently(text: string): ParsedXml {
  try {
    return { root: parseXml(text), recoveredFrom: null, unterminatedItems: 0 };
  } catch (error) {
    if (!(error instanceof FeedParseError) || !error.reason.startsWith('malformed XML')) throw error;
    const recovered = parseRecovering(text);
    if (!recovered) throw error;
    return { ...recovered, recoveredFrom: error.reason };
  }
}

// HTML void elements that no feed vocabulary uses as a name (unlike <link>, <base>, <source>, <meta>).
const UNCLOSED_HTML = new Set(['area', 'br', 'col', 'embed', 'hr', 'img', 'input', 'param', 'track', 'wbr']);

/** Elements that hold one feed item, whatever their namespace (RSS 0.9x/2.0, RDF, Atom). */
const ITEM_ELEMENTS = new Set(['item', 'entry']);

/**
 * The lenient pass: unclosed elements are closed at their parent's end tag or at
 * the end of the text, an item left unclosed at the start of the next item (items
 * never nest: every later item would otherwise be read as inside it, and lost),
 * end tags without a start tag are dropped, a "<" that
 * starts no tag is text, an unfinished tag at the end is dropped. An item the
 * text ends inside of is left out (ParsedXml.unterminatedItems). References are
 * decoded as in the strict pass, DOCTYPEs, comments and processing instructions
 * skipped. Null when no element was found.
 */
function parseRecovering(text: string): { root: XmlElement; unterminatedItems: number } | null {
  // assertSafeXml stops looking at an unterminated comment or CDATA section, trusting the strict parser
  // to refuse the document; this pass accepts such a document, so it looks again, everywhere.
  assertNoEntityDeclaration(text);
  const top: XmlElement[] = [];
  const open: { element: XmlElement; scope: Scope }[] = [];
  let inCdata = false;
  const parserInput = new LenientParser(
    {
      onopentag(name, attributes) {
        if (ITEM_ELEMENTS.has(splitName(name)[1].toLowerCase())) {
          // An item still open, with whatever is open inside it, ends where the next one starts.
          const openItem = open.findIndex(({ element }) => ITEM_ELEMENTS.has(element.local.toLowerCase()));
          if (openItem > 0) open.length = openItem;
        }
        if (open.length >= MAX_XML_DEPTH) throw depthError();
        const parent = open.at(-1);
        const { element, scope } = makeElement(
          name,
          Object.entries(attributes).map(([attrName, value]) => [attrName, decodeHTMLStrict(value)]),
          parent?.scope ?? new Map(),
          parent?.element.base ?? null,
        );
        if (parent) parent.element.children.push(element);
        else top.push(element);
        // HTML's <br> and <img> written unclosed inside unescaped markup: without this they would
        // swallow the rest of the description.
        if (!UNCLOSED_HTML.has(name.toLowerCase())) open.push({ element, scope });
      },
      onclosetag(name) {
        // htmlparser2 closes its own open elements in order, the HTML ones kept off this stack too.
        if (open.at(-1)?.element.name === name) open.pop();
      },
      ontext(value) {
        const parent = open.at(-1);
        if (!parent) return; // text outside the root: whitespace, or garbage after it
        const decoded = inCdata ? value : decodeHTMLStrict(value);
        const children = parent.element.children;
        const last = children.at(-1);
        // The strict pass gives one string per run of text; so does this one.
        if (typeof last === 'string') children[children.length - 1] = last + decoded;
        else children.push(decoded);
      },
      oncdatastart() {
        inCdata = true;
      },
      oncdataend() {
        inCdata = false;
      },
    },
    { xmlMode: true, decodeEntities: false },
  );
  parserInput.write(text);
  // Still open once all the text is read: the text ended inside them. (An end tag cut short, "</ite", is
  // held back by the tokenizer, so its item counts as cut off too; it was complete, and comes back whole.)
  let unterminatedItems = 0;
  for (let depth = 1; depth < open.length; depth++) {
    const { element } = open[depth]!;
    if (!ITEM_ELEMENTS.has(element.local.toLowerCase())) continue;
    const siblings = open[depth - 1]!.element.children;
    siblings.splice(siblings.indexOf(element), 1);
    unterminatedItems++;
    break; // what is inside it went with it
  }
  parserInput.end();
  const root = top[0];
  return root ? { root, unterminatedItems } : null;
}

type Scope = ReadonlyMap<string, string>;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function resolvePrefix(prefix: string, scope: Scope): string {
  const uri = scope.get(prefix) ?? (prefix === '' ? NS.none : UNDECLARED_PREFIXES.get(prefix));
  return canonicalNamespace(uri ?? `urn:x-undeclared-prefix:${prefix}`);
}

function splitName(name: string): [prefix: string, local: string] {
  const colon = name.indexOf(':');
  return colon === -1 ? ['', name] : [name.slice(0, colon), name.slice(colon + 1)];
}

function resolveBase(xmlBase: string | undefined, parentBase: string | null): string | null {
  if (xmlBase === undefined) return parentBase;
  if (parentBase === null) return xmlBase;
  try {
    return new URL(xmlBase, parentBase).href;
  } catch {
    return xmlBase;
  }
}

// fast-xml-parser's order-preserving output: [{ tag: [children], ":@": {attrs} } | { "#text": "..." }]
function toNode(raw: unknown, parentScope: Scope, parentBase: string | null): XmlNode | null {
  if (!isRecord(raw)) return null;
  const text = raw['#text'];
  // parseTagValue and parseAttributeValue are off: values are always strings.
  if (text !== undefined) return typeof text === 'string' ? text : null;

  const name = Object.keys(raw).find((key) => key !== ':@');
  if (name === undefined) return null;
  const rawAttributes = Object.entries(isRecord(raw[':@']) ? raw[':@'] : {}).map(
    ([attrName, value]): [string, string] => [attrName, typeof value === 'string' ? value : ''],
  );
  const { element, scope } = makeElement(name, rawAttributes, parentScope, parentBase);
  const rawChildren = raw[name];
  for (const child of Array.isArray(rawChildren) ? rawChildren : []) {
    const node = toNode(child, scope, element.base);
    if (node !== null) element.children.push(node);
  }
  return element;
}

/** An element without children yet, and the namespace scope its children see. */
function makeElement(
  name: string,
  rawAttributes: [string, string][],
  parentScope: Scope,
  parentBase: string | null,
): { element: XmlElement; scope: Scope } {
  const scope = new Map(parentScope);
  for (const [attrName, value] of rawAttributes) {
    if (attrName === 'xmlns') scope.set('', value);
    else if (attrName.startsWith('xmlns:')) scope.set(attrName.slice(6), value);
  }

  const attributes: XmlAttribute[] = rawAttributes.map(([attrName, value]) => {
    const [prefix, local] = splitName(attrName);
    // Unprefixed attributes are in no namespace, whatever the default namespace is.
    return { name: attrName, local, ns: prefix === '' ? NS.none : resolvePrefix(prefix, scope), value };
  });
  const xmlBase = attributes.find((a) => a.ns === NS.xml && a.local === 'base')?.value.trim();
  const base = resolveBase(xmlBase, parentBase);

  const [prefix, local] = splitName(name);
  return {
    element: { name, local, ns: resolvePrefix(prefix, scope), attributes, children: [], base },
    scope,
  };
}

// ---- Reading the tree ----

// Names match whatever their case: XML is case-sensitive, but feeds write <pubdate>, <Channel> and
// <Item>, and no vocabulary read here has two names that differ only in case (feedparser lowercases too).
export function childElements(element: XmlElement, ns: string, local: string): XmlElement[] {
  const wanted = local.toLowerCase();
  return element.children.filter(
    (child): child is XmlElement =>
      typeof child !== 'string' && child.ns === ns && child.local.toLowerCase() === wanted,
  );
}

export function childElement(element: XmlElement, ns: string, local: string): XmlElement | undefined {
  return childElements(element, ns, local)[0];
}

export function attribute(element: XmlElement, local: string, ns: string = NS.none): string | undefined {
  const wanted = local.toLowerCase();
  return element.attributes.find((a) => a.ns === ns && a.local.toLowerCase() === wanted)?.value;
}

/** All text inside the element, markup dropped. */
export function textContent(element: XmlElement): string {
  return element.children.map((child) => (typeof child === 'string' ? child : textContent(child))).join('');
}

export function hasElementChildren(element: XmlElement): boolean {
  return element.children.some((child) => typeof child !== 'string');
}

const VOID_ELEMENTS = new Set([
  'area',
  'base',
  'br',
  'col',
  'embed',
  'hr',
  'img',
  'input',
  'link',
  'meta',
  'param',
  'source',
  'track',
  'wbr',
]);

// Text is escaped as HTML serialises it (& < > and no-break space); attribute values get all five
// XML escapes, so a value reads the same whether the result is taken as HTML or XML.
function serialize(node: XmlNode): string {
  if (typeof node === 'string') return escapeText(node);
  // HTML has no namespaces: XHTML (or unqualified) elements are written by local
  // name, and namespace declarations are dropped.
  const name = node.ns === NS.xhtml || node.ns === NS.none ? node.local : node.name;
  const attributes = node.attributes
    .filter((a) => a.name !== 'xmlns' && !a.name.startsWith('xmlns:'))
    .map((a) => ` ${a.name}="${escapeUTF8(a.value)}"`)
    .join('');
  if (node.children.length === 0 && VOID_ELEMENTS.has(name)) return `<${name}${attributes} />`;
  return `<${name}${attributes}>${node.children.map(serialize).join('')}</${name}>`;
}

/** The element's content as markup: child elements serialised, text escaped. */
export function innerXml(element: XmlElement): string {
  return element.children.map(serialize).join('');
}

/**
 * The element's content as an HTML string: escaped HTML (the usual RSS way) is
 * already HTML once decoded; unescaped inline markup (reddit-atom.rss) is re-serialised.
 */
export function htmlContent(element: XmlElement): string {
  return hasElementChildren(element) ? innerXml(element) : textContent(element);
}
