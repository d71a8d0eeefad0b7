import { describe, expect, it } from 'vitest';
import { gzipSync } from 'node:zlib';
import { FeedParseError, parseFeed, parseFeedWithWarnings } from './parse-feed.ts';
import { MAX_FEED_BYTES, MAX_ITEMS } from './limits.ts';
import { readRealFeed, readTestdata, utf8 } from './testdata/read.ts';

function reasonOf(body: Uint8Array, contentType: string | null = null): string {
  try {
    parseFeed(body, contentType);
  } catch (error) {
    if (error instanceof FeedParseError) return error.reason;
    throw error;
  }
  throw new Error('expected a FeedParseError');
}

describe('parseFeed', () => {
  it('goes by the content, not by a wrong Content-Type', () => {
    expect(parseFeed(readRealFeed('heise.atom'), 'text/html; charset=utf-8').format).toBe('atom');
    expect(parseFeed(readTestdata('bbc.json'), 'application/xml').format).toBe('json');
    expect(parseFeed(readRealFeed('rdf-rss-1.rss'), 'application/octet-stream').format).toBe('rdf');
  });

  it('refuses non-feeds with a reason a person can act on', () => {
    expect(reasonOf(new Uint8Array())).toBe('empty body');
    expect(reasonOf(utf8('<!doctype html><html><body>Moved</body></html>'), 'application/rss+xml')).toBe(
      'not a feed: an HTML page',
    );
    expect(reasonOf(Uint8Array.from([0x1f, 0x8b, 0x08, 0x00]))).toMatch(
      /^not a feed: gzip-compressed data that could not be decompressed \(/,
    );
    expect(reasonOf(Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]))).toBe(
      'not a feed: binary data (NUL bytes in the body)',
    );
  });

  it('reads a feed served as a gzip file (no Content-Encoding), once, within the size limit', () => {
    const rss =
      '<rss version="2.0"><channel><title>Zipped</title><item><title>A</title><link>https://z.example/a</link></item></channel></rss>';
    const feed = parseFeed(gzipSync(rss), 'application/x-gzip');
    expect([feed.title, feed.items.length]).toEqual(['Zipped', 1]);
    expect(feed.warnings).toContain(
      'the body was gzip-compressed with no Content-Encoding saying so; decompressed',
    );
    expect(reasonOf(gzipSync(gzipSync(rss)))).toBe('not a feed: gzip-compressed data, compressed twice');
    // A small body that would decompress past the limit (a zip bomb) is refused, not inflated whole.
    expect(reasonOf(gzipSync(Buffer.alloc(MAX_FEED_BYTES + 10, 0x20)))).toBe(
      `not a feed: gzip-compressed data that decompresses to more than the ${MAX_FEED_BYTES}-byte limit`,
    );
    expect(reasonOf(gzipSync('<!doctype html><html><body>x</body></html>'))).toBe('not a feed: an HTML page');
  });

  it('returns the warnings collected on the way', () => {
    const { feed, warnings } = parseFeedWithWarnings(
      utf8('<rss version="2.0"><channel><title>ok</title></channel></rss>'),
      'application/rss+xml; charset=klingon',
    );
    expect(feed.title).toBe('ok');
    expect(warnings).toEqual(['unknown charset "klingon" in Content-Type header, ignored']);
  });

  it('reads a feed that is not well-formed leniently, and says so on the feed', () => {
    const feed = parseFeed(
      utf8(
        '<rss version="2.0"><channel><item><title>a < b</title><link>https://x.example/a</link></item></channel></rss',
      ),
      null,
    );
    expect(feed.items.map((item) => [item.title, item.url])).toEqual([['a < b', 'https://x.example/a']]);
    expect(feed.warnings).toEqual([
      expect.stringMatching(
        /^XML not well-formed, read leniently \(1 item\(s\) recovered\): malformed XML at line 1: /,
      ),
    ]);
  });

  it('leaves out the item a cut-off body ends inside of, which would be kept with a cut link', () => {
    const whole = readTestdata('real/guardian.rss');
    const text = new TextDecoder().decode(whole);
    const lastLink = text.lastIndexOf('<link>');
    const full = parseFeed(whole, null);
    // Cut in the last item's link.
    const feed = parseFeed(utf8(text.slice(0, lastLink + '<link>'.length + 24)), null);
    expect(feed.items).toEqual(full.items.slice(0, -1));
    expect(feed.warnings).toEqual([
      expect.stringMatching(/^XML not well-formed, read leniently/),
      'the document ends inside its last item (cut off?); that item was left out',
    ]);
    // Cut inside the only item: nothing to read, and the strict reason says why.
    expect(reasonOf(utf8('<rss><channel><item><title>Half a ti'))).toMatch(/^malformed XML at line 1: /);
  });

  it('keeps the strict reason when the lenient reading finds no item either', () => {
    expect(reasonOf(utf8('<rss><channel><title>cut'))).toMatch(/^malformed XML at line 1: /);
    expect(reasonOf(utf8('<rss version="2.0"><channel></channel></rss>\n<p>trailing page</p>'))).toMatch(
      /^malformed XML at line 2: /,
    );
  });

  it('reads an <rss> without <channel>, and an empty one', () => {
    const feed = parseFeed(
      utf8('<rss version="2.0"><title>T</title><item><title>A</title></item></rss>'),
      null,
    );
    expect([feed.title, feed.items.map((item) => item.title)]).toEqual(['T', ['A']]);
    expect(parseFeed(utf8('<rss></rss>'), null).items).toEqual([]);
  });

  it('resolves what xml:base and the home page leave relative against the URL the feed came from', () => {
    const body = utf8(
      '<rss version="2.0"><channel><link>/</link><item><link>/a</link><description>&lt;img src="i.png"&gt;</description></item></channel></rss>',
    );
    const feed = parseFeed(body, null, { baseUrl: 'https://news.example/feeds/all.rss' });
    expect(feed.siteUrl).toBe('https://news.example/');
    expect(feed.items[0]?.url).toBe('https://news.example/a');
    expect(feed.items[0]?.summaryHtml).toBe('<img src="https://news.example/i.png">');
    // Without it they stay as written, as before.
    expect(parseFeed(body, null).items[0]?.url).toBe('/a');
  });

  it(`refuses bodies over ${MAX_FEED_BYTES} bytes without decoding them`, () => {
    expect(reasonOf(new Uint8Array(MAX_FEED_BYTES + 1))).toBe(
      `feed is ${MAX_FEED_BYTES + 1} bytes, more than the ${MAX_FEED_BYTES}-byte limit`,
    );
  });

  it(`refuses more than ${MAX_ITEMS} items`, () => {
    const rss = utf8(`<rss version="2.0"><channel>${'<item/>'.repeat(MAX_ITEMS + 1)}</channel></rss>`);
    expect(reasonOf(rss)).toBe(`feed has ${MAX_ITEMS + 1} items, more than the limit of ${MAX_ITEMS}`);
    const json = utf8(
      JSON.stringify({
        version: 'https://jsonfeed.org/version/1.1',
        items: Array.from({ length: MAX_ITEMS + 1 }, (_, i) => ({ id: String(i) })),
      }),
    );
    expect(reasonOf(json)).toBe(`feed has ${MAX_ITEMS + 1} items, more than the limit of ${MAX_ITEMS}`);
  }, 20_000);

  // Inputs shaped to make a naive parser quadratic, recursive or exponential.
  // Each must end, quickly, in a result or a FeedParseError.
  it.each([
    ['deep nesting', '<rss>' + '<a>'.repeat(200_000)],
    ['unterminated CDATA openers', '<rss><channel>' + '<![CDATA['.repeat(200_000)],
    ['unterminated comment openers', '<rss><channel>' + '<!--'.repeat(300_000)],
    [
      'ampersands without references',
      '<rss><channel><title>' + '&a'.repeat(500_000) + '</title></channel></rss>',
    ],
    ['unclosed tags', '<rss>' + '<a b="'.repeat(200_000)],
    [
      'many attributes',
      `<rss><channel ${Array.from({ length: 50_000 }, (_, i) => `a${i}="x"`).join(' ')}/></rss>`,
    ],
    ['a long prolog', '<?xml version="1.0"?>' + '<!-- x -->'.repeat(200_000) + '<rss/>'],
    ['deep JSON', '{"version":"https://jsonfeed.org/version/1","items":' + '['.repeat(500_000)],
  ])(
    'survives %s',
    (_name, text) => {
      // CPU time, not wall time: what would show a parse going quadratic (minutes of CPU on these inputs)
      // without failing when the machine is busy with other work and this process waits for a core.
      const started = process.cpuUsage();
      try {
        parseFeed(utf8(text), null);
      } catch (error) {
        expect(error).toBeInstanceOf(FeedParseError);
      }
      const used = process.cpuUsage(started);
      expect((used.user + used.system) / 1000).toBeLessThan(3_000);
    },
    60_000,
  );
});
