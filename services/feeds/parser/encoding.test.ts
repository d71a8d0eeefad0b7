import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { charsetFromContentType, decodeBody } from './encoding.ts';
import { parseFeed } from './parse-feed.ts';
import { readRealFeed, utf8 } from './testdata/read.ts';

const latin1 = (text: string) => Uint8Array.from(text, (ch) => ch.charCodeAt(0));

function utf16(text: string, byteOrder: 'le' | 'be'): Uint8Array {
  const le = Buffer.from(`\uFEFF${text}`, 'utf16le');
  if (byteOrder === 'be') le.swap16();
  return new Uint8Array(le);
}

describe('decodeBody', () => {
  it('decodes encoding.rss (ISO-8859-1 in the prolog) with its accents', () => {
    const decoded = decodeBody(readRealFeed('encoding.rss'), 'application/rss+xml');
    expect(decoded.source).toBe('prolog');
    expect(decoded.encoding).toBe('windows-1252'); // WHATWG: iso-8859-1 is windows-1252
    expect(decoded.text).toContain('<title>Jornal de Notícias - Últimas Notícias</title>');
    expect(decoded.text).toContain('JN. Rede de Informação.');
  });

  it.each(['le', 'be'] as const)('follows a UTF-16%s byte order mark over header and prolog', (order) => {
    const xml =
      '<?xml version="1.0" encoding="UTF-16"?><rss version="2.0"><channel><title>Zürich – 東京</title></channel></rss>';
    const body = utf16(xml, order);
    const decoded = decodeBody(body, 'text/xml; charset=iso-8859-1');
    expect(decoded.source).toBe('bom');
    expect(decoded.encoding).toBe(`utf-16${order}`);
    expect(decoded.text).toBe(xml);
    expect(parseFeed(body, 'text/xml; charset=iso-8859-1').title).toBe('Zürich – 東京');
  });

  it('lets the Content-Type charset win over a conflicting prolog', () => {
    const prologSaysUtf8 = latin1(
      '<?xml version="1.0" encoding="utf-8"?><rss><channel><title>Café</title></channel></rss>',
    );
    expect(parseFeed(prologSaysUtf8, 'application/xml; charset=ISO-8859-1').title).toBe('Café');

    const prologSaysLatin1 = utf8(
      '<?xml version="1.0" encoding="iso-8859-1"?><rss><channel><title>Café</title></channel></rss>',
    );
    expect(parseFeed(prologSaysLatin1, 'text/xml; charset="UTF-8"').title).toBe('Café');
    // Without the header, the (wrong) prolog is believed, as a browser would; the
    // double encoding that makes is then undone by the text repair (feed-text.ts).
    expect(decodeBody(prologSaysLatin1, 'text/xml').text).toContain('<title>CafÃ©</title>');
    expect(parseFeed(prologSaysLatin1, 'text/xml').title).toBe('Café');
  });

  it('passes over a header that says UTF-8 over a body that is not (a server default over a legacy feed)', () => {
    const legacy = latin1(
      '<?xml version="1.0" encoding="ISO-8859-1"?><rss><channel><title>Café olé, São Paulo</title></channel></rss>',
    );
    const decoded = decodeBody(legacy, 'application/rss+xml; charset=utf-8');
    expect(decoded.source).toBe('prolog');
    expect(decoded.text).toContain('Café olé, São Paulo');
    expect(decoded.warnings).toEqual(['Content-Type says "utf-8" but the body is not valid UTF-8, ignored']);
    expect(parseFeed(legacy, 'application/rss+xml; charset=utf-8').title).toBe('Café olé, São Paulo');
    // Nothing else declared: detection, not U+FFFD.
    const bare = latin1(
      '<rss><channel><title>Noticia sobre eleição em São Paulo, ação</title></channel></rss>',
    );
    expect(parseFeed(bare, 'text/xml; charset=UTF-8').title).toBe('Noticia sobre eleição em São Paulo, ação');
  });

  it('passes over a prolog that says UTF-8 over a body that is not: detection, and a warning', () => {
    const legacy = latin1(
      '<?xml version="1.0" encoding="UTF-8"?><rss><channel><title>Café crème à Paris: élections</title>' +
        '<item><title>Les électeurs sont allés voter à Noël. Ça coûte cher.</title></item></channel></rss>',
    );
    const decoded = decodeBody(legacy, 'application/xml');
    expect(decoded.source).toBe('detected');
    expect(decoded.encoding).toBe('windows-1252');
    expect(decoded.text).toContain('Les électeurs sont allés voter à Noël. Ça coûte cher.');
    expect(decoded.warnings).toEqual([
      'XML declaration says "UTF-8" but the body is not valid UTF-8; detected windows-1252',
    ]);
    expect(parseFeed(legacy, 'application/xml').title).toBe('Café crème à Paris: élections');
    // UTF-8 with one stray byte stays UTF-8: its other letters are right as they are.
    const stray = new Uint8Array([
      ...utf8('<?xml version="1.0" encoding="utf-8"?><rss><channel><title>Zürich, São Paulo, 東京, Москва '),
      0xe9,
      ...utf8('</title></channel></rss>'),
    ]);
    const kept = decodeBody(stray, null);
    expect(kept.text).toContain('Zürich, São Paulo, 東京, Москва \uFFFD');
    expect(kept.warnings).toEqual([
      'XML declaration says "utf-8" but the body is not valid UTF-8; its invalid bytes were replaced',
    ]);
    // A valid UTF-8 body that writes U+FFFD itself is no cause for a warning.
    expect(decodeBody(utf8('<?xml version="1.0" encoding="UTF-8"?><t>\uFFFD</t>'), null).warnings).toEqual(
      [],
    );
  });

  it('reads a charset in single quotes, or spelt with underscores, as the label it is', () => {
    // Found by feedparser's corpus (tests/encoding/http_*_charset.xml): the quoted label reached
    // iconv-lite, whose loose names took "'us-ascii'" as strict ASCII and "'utf-8'" as UTF-8 without
    // its check, so a legacy body's accents became U+FFFD.
    const legacy = new Uint8Array(
      iconv.encode('<rss><channel><title>Café – “x”</title></channel></rss>', 'windows-1252'),
    );
    expect(parseFeed(legacy, "application/rss+xml; charset='us-ascii'").title).toBe('Café – “x”');
    expect(parseFeed(legacy, 'application/rss+xml; charset=us_ascii').title).toBe('Café – “x”');
    const saysUtf8 = decodeBody(legacy, "text/xml; charset='utf-8'");
    expect(saysUtf8.text).toContain('Café – “x”');
    expect(saysUtf8.warnings).toContain('Content-Type says "utf-8" but the body is not valid UTF-8, ignored');
    const underscored = decodeBody(legacy, 'text/xml; charset=utf_8');
    expect(underscored.text).toContain('Café – “x”');
    expect(underscored.warnings).toContain(
      'Content-Type says "utf_8" but the body is not valid UTF-8, ignored',
    );
    expect(decodeBody(legacy, "text/xml; charset='windows-1252'")).toMatchObject({
      encoding: 'windows-1252',
      source: 'header',
    });
  });

  it('decodes legacy single- and multi-byte charsets (iconv-lite)', () => {
    const koi8r = Uint8Array.from([0xf0, 0xd2, 0xc9, 0xd7, 0xc5, 0xd4]);
    expect(decodeBody(koi8r, 'text/xml; charset=koi8-r').text).toBe('Привет');
    const shiftJis = Uint8Array.from([0x93, 0x8c, 0x8b, 0x9e]);
    expect(decodeBody(shiftJis, 'text/xml; charset=Shift_JIS').text).toBe('東京');
  });

  it('falls back to UTF-8 for an unknown label, and says so', () => {
    const decoded = decodeBody(utf8('<rss>é</rss>'), 'text/xml; charset=x-no-such-charset');
    expect(decoded.encoding).toBe('utf-8');
    expect(decoded.text).toBe('<rss>é</rss>');
    expect(decoded.warnings).toEqual(['unknown charset "x-no-such-charset" in Content-Type header, ignored']);
  });

  it('refuses labels that WHATWG maps to the "replacement" decoder', () => {
    const decoded = decodeBody(utf8('<rss>ok</rss>'), 'text/xml; charset=iso-2022-kr');
    expect(decoded.text).toBe('<rss>ok</rss>');
    expect(decoded.warnings).toHaveLength(1);
  });

  it('ignores a UTF-16 claim in a prolog that was readable as ASCII', () => {
    const decoded = decodeBody(utf8('<?xml version="1.0" encoding="utf-16"?><rss>ü</rss>'), null);
    expect(decoded.text).toBe('<?xml version="1.0" encoding="utf-16"?><rss>ü</rss>');
    expect(decoded.warnings).toEqual(['XML declaration says "utf-16" but the body is 8-bit, ignored']);
  });

  it('decodes undeclared, invalid UTF-8 as windows-1252 (uolNoticias.rss)', () => {
    const decoded = decodeBody(readRealFeed('uolNoticias.rss'), null);
    expect(decoded.encoding).toBe('windows-1252');
    expect(decoded.text).toContain('<description>Últimas Notícias</description>');
    expect(decoded.warnings).toHaveLength(1);
  });

  it('detects the charset when the declared one is unknown and the body is not UTF-8', () => {
    const text = '<rss>Правительство утвердило новый порядок выплаты пособий семьям с детьми.</rss>';
    const decoded = decodeBody(iconv.encode(text, 'koi8-r'), 'text/xml; charset=x-no-such-charset');
    expect(decoded).toMatchObject({ text, encoding: 'koi8-r', source: 'detected' });
    expect(decoded.warnings[0]).toBe('unknown charset "x-no-such-charset" in Content-Type header, ignored');
  });

  it('follows a UTF-32 byte order mark, which starts like the UTF-16LE one', () => {
    const xml = '<rss><channel><title>Zürich 😀</title></channel></rss>';
    const le = Buffer.concat([Buffer.from([0xff, 0xfe, 0, 0]), iconv.encode(xml, 'utf32le')]);
    expect(decodeBody(le, 'text/xml; charset=utf-8')).toMatchObject({
      text: xml,
      encoding: 'utf-32le',
      source: 'bom',
    });
  });

  it('ignores a UTF-32 claim in a prolog that was readable as ASCII', () => {
    const decoded = decodeBody(utf8('<?xml version="1.0" encoding="utf-32"?><rss>ü</rss>'), null);
    expect(decoded.text).toBe('<?xml version="1.0" encoding="utf-32"?><rss>ü</rss>');
    expect(decoded.warnings).toEqual(['XML declaration says "utf-32" but the body is 8-bit, ignored']);
  });

  it('defaults to UTF-8 when nothing is declared', () => {
    const decoded = decodeBody(utf8('<rss>naïve</rss>'), null);
    expect(decoded).toEqual({ text: '<rss>naïve</rss>', encoding: 'utf-8', source: 'default', warnings: [] });
  });
});

describe('charsetFromContentType', () => {
  it('reads quoted, unquoted and absent charset parameters', () => {
    expect(charsetFromContentType('application/rss+xml; charset=UTF-8')).toBe('UTF-8');
    expect(charsetFromContentType('text/xml;charset="windows-1251"; foo=bar')).toBe('windows-1251');
    expect(charsetFromContentType("application/atom+xml;charset='us-ascii'")).toBe('us-ascii');
    expect(charsetFromContentType('text/xml')).toBeNull();
    expect(charsetFromContentType(null)).toBeNull();
  });
});
