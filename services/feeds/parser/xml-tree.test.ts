import { describe, expect, it } from 'vitest';
import { MAX_XML_DEPTH } from './limits.ts';
import { NS } from './namespaces.ts';
import {
  attribute,
  childElement,
  childElements,
  escapeStrayAmpersands,
  htmlContent,
  innerXml,
  parseXml,
  parseXmlLeniently,
  textContent,
} from './xml-tree.ts';
import { reasonOf } from './testdata/read.ts';

describe('escapeStrayAmpersands', () => {
  it('escapes only ampersands that start no reference, outside CDATA and comments', () => {
    expect(escapeStrayAmpersands('<t>Q&A &amp; R&D &#38; &#x26; &eacute; & x</t>')).toBe(
      '<t>Q&amp;A &amp; R&amp;D &#38; &#x26; &eacute; &amp; x</t>',
    );
    expect(escapeStrayAmpersands('<t><![CDATA[a & b]]><!-- c & d --> e & f</t>')).toBe(
      '<t><![CDATA[a & b]]><!-- c & d --> e &amp; f</t>',
    );
    expect(escapeStrayAmpersands('<a href="?x=1&y=2"/>')).toBe('<a href="?x=1&amp;y=2"/>');
    expect(escapeStrayAmpersands('<t>&</t><![CDATA[ & unterminated')).toBe(
      '<t>&amp;</t><![CDATA[ & unterminated',
    );
  });
});

describe('parseXml', () => {
  it('reports malformed XML with its line', () => {
    expect(reasonOf(() => parseXml('<rss>\n<channel>\n<title>a</titl></channel></rss>'))).toBe(
      "malformed XML at line 3: Expected closing tag 'title' (opened in line 3, col 1) instead of closing tag 'titl'.",
    );
    expect(reasonOf(() => parseXml('<rss><channel><title>truncated'))).toMatch(/^malformed XML at line 1: /);
  });

  it('says which elements a cut-off document leaves open, at its last line', () => {
    expect(reasonOf(() => parseXml('<rss>\n<channel>\n<item>\n<description>Bod'))).toBe(
      'malformed XML at line 4: the document ends with <rss>, <channel>, <item>, <description> still open (cut off?)',
    );
  });

  it(`refuses nesting deeper than ${MAX_XML_DEPTH} levels`, () => {
    const depth = MAX_XML_DEPTH + 5;
    expect(reasonOf(() => parseXml('<a>'.repeat(depth) + '</a>'.repeat(depth)))).toBe(
      `XML nesting deeper than ${MAX_XML_DEPTH} levels`,
    );
  });

  it('resolves namespaces by URI, including undeclared well-known prefixes', () => {
    const root = parseXml(
      '<rss xmlns:x="http://purl.org/dc/elements/1.1/"><x:creator>A</x:creator><dc:date>D</dc:date></rss>',
    );
    expect(childElement(root, NS.dc, 'creator')?.name).toBe('x:creator');
    expect(childElement(root, NS.dc, 'date')?.local).toBe('date');
  });

  it('accumulates xml:base down the tree', () => {
    const root = parseXml(
      '<feed xml:base="https://a.example/x/"><entry xml:base="../y/"><link/></entry></feed>',
    );
    const entry = childElement(root, NS.none, 'entry');
    expect(entry?.base).toBe('https://a.example/y/');
    expect(entry && childElement(entry, NS.none, 'link')?.base).toBe('https://a.example/y/');
  });

  it('decodes text and attributes once, and CDATA not at all', () => {
    const root = parseXml('<t a="&amp;lt;">&amp;amp; <![CDATA[&amp;]]> &#x1F600; &#0;</t>');
    expect(attribute(root, 'a')).toBe('&lt;');
    expect(textContent(root)).toBe('&amp; &amp; \u{1F600} \uFFFD');
  });

  it('decodes the HTML named references feeds use undeclared, and numeric ones as browsers do', () => {
    // Named references need their semicolon; unknown ones stay as written. &#150; is the en dash that
    // Windows-1252 generators meant, as in a browser, not the C1 control U+0096.
    const root = parseXml('<t>&eacute;&hellip;&rsquo;&nbsp;&apos; &#150; &unknown; &copy x</t>');
    expect(textContent(root)).toBe("é…’\u00a0' – &unknown; &copy x");
  });

  it('re-serialises inline markup as HTML: escaped text and attributes, void elements, no namespaces', () => {
    const root = parseXml(
      '<d><div xmlns="http://www.w3.org/1999/xhtml" xmlns:o="urn:o"><p title="a &quot;b&quot; &lt;c&gt;">1 &lt; 2</p><br/><span/></div></d>',
    );
    expect(innerXml(root)).toBe(
      '<div><p title="a &quot;b&quot; &lt;c&gt;">1 &lt; 2</p><br /><span></span></div>',
    );
    expect(htmlContent(parseXml('<d>&lt;b&gt;escaped&lt;/b&gt;</d>'))).toBe('<b>escaped</b>');
  });

  it('matches element and attribute names whatever their case', () => {
    const root = parseXml('<RSS><Channel><PubDate IsPermaLink="x">d</PubDate></Channel></RSS>');
    const channel = childElement(root, NS.none, 'channel');
    const date = channel && childElement(channel, NS.none, 'pubDate');
    expect(date && textContent(date)).toBe('d');
    expect(date && attribute(date, 'isPermaLink')).toBe('x');
  });
});

describe('parseXmlLeniently', () => {
  it('gives a well-formed document the strict tree and no recovery', () => {
    const { root, recoveredFrom } = parseXmlLeniently('<r a="1"><b>x</b></r>');
    expect(recoveredFrom).toBeNull();
    expect(innerXml(root)).toBe('<b>x</b>');
  });

  it('reads what the strict parser refuses, and says why it had to', () => {
    const { root, recoveredFrom } = parseXmlLeniently(
      '<r xml:base="https://a.example/"><i>1 < 2 &amp; Q&A<br>end</i><i><![CDATA[<kept> &amp;]]></i><j>cut</r',
    );
    expect(recoveredFrom).toMatch(/^malformed XML at line 1: /);
    expect(root.children.map((child) => (typeof child === 'string' ? child : innerXml(child)))).toEqual([
      '1 &lt; 2 &amp; Q&amp;A<br />end',
      '&lt;kept&gt; &amp;amp;',
      'cut',
    ]);
    const first = childElement(root, NS.none, 'i');
    expect(first && textContent(first)).toBe('1 < 2 & Q&Aend');
    expect(first?.base).toBe('https://a.example/');
  });

  it('closes what a mismatched end tag leaves open, and drops an end tag without a start', () => {
    const { root } = parseXmlLeniently('<r><d>a <b>bold</i> b</d></x><e>e</e></r>');
    expect(innerXml(root)).toBe('<d>a <b>bold b</b></d><e>e</e>');
  });

  it('ends an item left unclosed where the next one starts, so the items after it are read', () => {
    const rss = parseXmlLeniently(
      '<rss><channel><item><title>1</title></item><item><title>2</title><description>no end' +
        '<item><title>3</title></item><item><title>4</title></item></channel></rss>',
    );
    expect(innerXml(rss.root)).toBe(
      '<channel><item><title>1</title></item><item><title>2</title><description>no end</description></item>' +
        '<item><title>3</title></item><item><title>4</title></item></channel>',
    );
    expect(rss.unterminatedItems).toBe(0);
    // Atom, prefixed, the last entry unclosed too: closed at the feed's end, as before.
    const atom = parseXmlLeniently(
      '<a:feed xmlns:a="http://www.w3.org/2005/Atom"><a:entry><a:id>1</a:id><a:entry><a:id>2</a:id>' +
        '<a:entry><a:id>3</a:id></a:feed>',
    );
    expect(childElements(atom.root, NS.atom, 'entry').map((entry) => textContent(entry))).toEqual([
      '1',
      '2',
      '3',
    ]);
  });

  it('leaves out an item the text ends inside of, and only that one', () => {
    const cut = parseXmlLeniently(
      '<rss><channel><item><link>https://a.example/1</link></item><item><link>https://a.example/ar',
    );
    expect(cut.unterminatedItems).toBe(1);
    expect(innerXml(cut.root)).toBe('<channel><item><link>https://a.example/1</link></item></channel>');
    // Atom, in its namespace, cut inside a child of the entry.
    const atom = parseXmlLeniently(
      '<feed xmlns="http://www.w3.org/2005/Atom"><entry><id>1</id></entry><entry><id>2</id><title>Ha',
    );
    expect(atom.unterminatedItems).toBe(1);
    expect(childElements(atom.root, NS.atom, 'entry')).toHaveLength(1);
    // Every item closed, only the channel's end cut: nothing is left out.
    const whole = parseXmlLeniently('<rss><channel><item><title>t</title></item></chan');
    expect(whole.unterminatedItems).toBe(0);
    expect(innerXml(whole.root)).toBe('<channel><item><title>t</title></item></channel>');
    // A well-formed document never loses one.
    expect(parseXmlLeniently('<rss><channel><item/></channel></rss>').unterminatedItems).toBe(0);
  });

  it(`keeps the ${MAX_XML_DEPTH}-level nesting limit, and never retries it`, () => {
    expect(reasonOf(() => parseXmlLeniently('<a>'.repeat(MAX_XML_DEPTH + 5)))).toBe(
      `XML nesting deeper than ${MAX_XML_DEPTH} levels`,
    );
  });
});
