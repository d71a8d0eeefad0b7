// The text repair (runtime/text-repair.ts) reaches every field of every format, and
// what the parser returns never holds a control character or half a surrogate pair.
import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { plainLine, plainText } from '../../runtime/plain-text.ts';
import { parseFeed } from './parse-feed.ts';
import { utf8 } from './testdata/read.ts';

const latin1 = (text: string) => Uint8Array.from(text, (ch) => ch.charCodeAt(0));

const rss = (title: string, description = title, author = title) =>
  `<?xml version="1.0"?><rss version="2.0"><channel><title>${title}</title><link>https://news.example/</link>` +
  `<item><title>${title}</title><link>https://news.example/1</link><description>${description}</description>` +
  `<author>a@news.example (${author})</author><category>${title}</category></item></channel></rss>`;

const atom = (title: string) =>
  `<?xml version="1.0"?><feed xmlns="http://www.w3.org/2005/Atom"><title>${title}</title>` +
  `<entry><id>urn:1</id><title>${title}</title><link href="https://news.example/1"/>` +
  `<summary>${title}</summary><author><name>${title}</name></author></entry></feed>`;

const rdf = (title: string) =>
  `<?xml version="1.0"?><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="http://purl.org/rss/1.0/">` +
  `<channel rdf:about="https://news.example/"><title>${title}</title><link>https://news.example/</link></channel>` +
  `<item rdf:about="https://news.example/1"><title>${title}</title><link>https://news.example/1</link>` +
  `<description>${title}</description></item></rdf:RDF>`;

// JSON escapes are written into the document as they are (`title` is JSON string content).
const jsonFeed = (title: string) =>
  `{"version":"https://jsonfeed.org/version/1.1","title":"${title}","items":[{"id":"1",` +
  `"url":"https://news.example/1","title":"${title}","content_text":"${title}","authors":[{"name":"${title}"}],"tags":["${title}"]}]}`;

/** Every string in a parsed feed. */
function strings(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(strings);
  if (value !== null && typeof value === 'object' && !(value instanceof Date))
    return Object.values(value).flatMap(strings);
  return [];
}

// eslint-disable-next-line no-control-regex -- finding control characters is the point
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

describe('C1 characters and references in feeds', () => {
  it.each([
    ['a numeric reference', 'it&#146;s &#147;news&#148; &#150; &#128;5&#133;'],
    ['a hexadecimal reference', 'it&#x92;s &#x93;news&#x94; &#x96; &#x80;5&#x85;'],
    ['a raw C1 character', 'it\u0092s \u0093news\u0094 \u0096 \u00805\u0085'],
  ])('reads %s as windows-1252 punctuation, in RSS, Atom and RDF', (_kind, written) => {
    const expected = 'it’s “news” – €5…';
    for (const xml of [rss(written), atom(written), rdf(written)]) {
      const feed = parseFeed(utf8(xml), 'application/xml');
      expect(feed.title).toBe(expected);
      expect(feed.items[0]?.title).toBe(expected);
      expect(plainText(feed.items[0]?.summaryHtml)).toBe(expected);
    }
  });

  it('reads \\u0092 in a JSON Feed the same way, in every field', () => {
    const feed = parseFeed(utf8(jsonFeed('it\\u0092s \\u0093news\\u0094')), 'application/feed+json');
    const item = feed.items[0];
    expect([feed.title, item?.title, item?.contentHtml, item?.author, item?.categories[0]]).toEqual(
      Array(5).fill(expect.stringContaining('it’s “news”')),
    );
  });

  it('reads windows-1252 bytes in a feed that declares ISO-8859-1', () => {
    const body = latin1('<?xml version="1.0" encoding="ISO-8859-1"?>' + rss('it\x92s \x93caf\xe9\x94 \x80'));
    expect(parseFeed(body, null).items[0]?.title).toBe('it’s “café” €');
  });
});

describe('double-encoded UTF-8 in feeds', () => {
  it('is read back in every field of every format', () => {
    const mojibake = 'CafÃ© â€œcrÃ¨me brÃ»lÃ©eâ€\u009d'; // “ and ” (0x9D: latin1-decoded)
    const expected = 'Café “crème brûlée”';
    const rssFeed = parseFeed(utf8(rss(mojibake)), null);
    const item = rssFeed.items[0];
    expect([rssFeed.title, item?.title, item?.summaryHtml, item?.author, item?.categories[0]]).toEqual(
      Array(5).fill(expected),
    );
    expect(parseFeed(utf8(atom(mojibake)), null).items[0]?.author).toBe(expected);
    expect(parseFeed(utf8(jsonFeed(mojibake)), null).items[0]?.title).toBe(expected);
  });

  it('is read back when a UTF-8 body is declared as windows-1252', () => {
    const body = utf8(rss('Ação – São Paulo'));
    expect(parseFeed(body, 'application/rss+xml; charset=windows-1252').items[0]?.title).toBe(
      'Ação – São Paulo',
    );
  });

  it('leaves real text with "Ã" alone', () => {
    const real = 'SÃO PAULO: IRMÃ, MAÇÃ e AMANHÃ… «IRMÃ» – Ãgua? Não: CAFÉ»';
    expect(parseFeed(utf8(rss(real)), null).items[0]?.title).toBe(real);
    const windows1252 = iconv.encode(
      '<?xml version="1.0" encoding="iso-8859-1"?>' + rss(real),
      'windows1252',
    );
    expect(parseFeed(windows1252, null).title).toBe(real);
  });
});

describe('what the parser returns', () => {
  const nasty = 'a&#1;b&#x1F;c\u0007d\u0085e&#xD800;f';
  const nastyJson = 'a\\u0001b\\u001fc\\u0007d\\u0085e\\ud800f\\udc00g\\u0000';

  it.each([
    ['RSS', utf8(rss(nasty))],
    ['RSS with escaped HTML', utf8(rss(nasty, `&lt;p&gt;${nasty.replaceAll('&', '&amp;')}&lt;/p&gt;`))],
    ['Atom', utf8(atom(nasty))],
    ['RDF', utf8(rdf(nasty))],
    ['JSON Feed', utf8(jsonFeed(nastyJson))],
  ])('%s: no control characters or unpaired surrogates in any field', (_format, body) => {
    const feed = parseFeed(body, null);
    for (const text of strings(feed)) {
      expect(text).not.toMatch(CONTROL);
      expect(text).not.toMatch(LONE_SURROGATE);
    }
    // Nor in the plain text made from the HTML fields, whose references decode only then.
    for (const item of feed.items) {
      for (const text of [plainText(item.summaryHtml), plainText(item.contentHtml), plainLine(item.title)]) {
        expect(text).not.toMatch(CONTROL);
        expect(text).not.toMatch(LONE_SURROGATE);
      }
    }
  });
});
