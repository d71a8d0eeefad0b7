// The change hash: what counts as a change of an article a reader would see, and what is feed noise.
// Items go through the real parser and normaliser, as in a poll.
import { describe, expect, it } from 'vitest';
import { normaliseFeed } from '../feeds/normalise/normalise-item.ts';
import { parseFeed } from '../feeds/parser/parse-feed.ts';
import { sourceState } from '../sources/source.ts';
import { canonicalUrl } from '../runtime/canonical-url.ts';
import { changedFields, comparableText, fingerprintOf, unknownHash } from './article-fingerprint.ts';

const source = sourceState(
  { name: 'S', feed_url: 'https://feeds.example/rss', category: 'general', language: 'en', country: 'gb' },
  null,
  0,
);
const now = Date.UTC(2026, 10, 20, 12);

/** The fingerprint of one RSS item as a poll at `at` would see it. */
function fingerprint(item: string, at = now) {
  const feed = parseFeed(
    new TextEncoder().encode(`<rss version="2.0"><channel><title>T</title>${item}</channel></rss>`),
    'application/rss+xml',
  );
  const [normalised] = normaliseFeed(feed, source, at);
  if (!normalised || 'skipped' in normalised) throw new Error('item skipped');
  return fingerprintOf(normalised.article, normalised.dated);
}

const item = (parts: {
  title?: string;
  link?: string;
  description?: string;
  author?: string;
  date?: string;
}) =>
  `<item><guid>g1</guid><title>${parts.title ?? 'Storm hits coast'}</title>` +
  `<link>${parts.link ?? 'https://news.example/storm'}</link>` +
  `<description>${parts.description ?? '&lt;p&gt;Winds reached 120 km/h.&lt;/p&gt;&lt;p&gt;More at https://news.example/live?id=3&lt;/p&gt;'}</description>` +
  (parts.author ? `<author>${parts.author}</author>` : '') +
  (parts.date === '' ? '' : `<pubDate>${parts.date ?? 'Fri, 20 Nov 2026 08:00:00 GMT'}</pubDate>`) +
  '</item>';

describe('the change hash of an article', () => {
  const base = fingerprint(item({}));

  it('does not change for whitespace, markup, invisible characters or tracking parameters', () => {
    const noisy = [
      item({ title: '  Storm \n\t hits   coast  ' }),
      item({ title: 'Storm&#160;hits coast' }),
      item({ title: 'Storm hits\u200B coast' }),
      item({ link: 'https://news.example/storm?utm_source=rss&amp;utm_medium=feed&amp;fbclid=x' }),
      item({
        description:
          '&lt;div&gt;&lt;p&gt;Winds   reached 120&#160;km/h.&lt;/p&gt;&lt;/div&gt;\n\n&lt;p&gt;More at ' +
          'https://news.example/live?utm_campaign=storm&amp;amp;id=3&lt;/p&gt;',
      }),
      item({
        description: 'Winds reached 120 km/h. More at https://news.example/live?id=3&amp;utm_source=x',
      }),
    ];
    for (const variant of noisy) expect(changedFields(base, fingerprint(variant)), variant).toEqual([]);
  });

  it('does not count the discovery time of an undated item as a date', () => {
    expect(
      changedFields(fingerprint(item({ date: '' }), now), fingerprint(item({ date: '' }), now + 60_000)),
    ).toEqual([]);
  });

  it('names each field a reader sees change, in order', () => {
    expect(changedFields(base, fingerprint(item({ title: 'Storm hits the coast' })))).toEqual(['title']);
    expect(changedFields(base, fingerprint(item({ title: 'storm hits coast' })))).toEqual(['title']);
    expect(changedFields(base, fingerprint(item({ description: 'Winds reached 130 km/h.' })))).toEqual([
      'summary',
    ]);
    expect(changedFields(base, fingerprint(item({ author: 'Jo Bloggs' })))).toEqual(['author']);
    expect(changedFields(base, fingerprint(item({ date: 'Fri, 20 Nov 2026 09:30:00 GMT' })))).toEqual([
      'published_at',
    ]);
    expect(changedFields(base, fingerprint(item({ date: '' })))).toEqual(['published_at']);
    expect(
      changedFields(
        base,
        fingerprint(item({ title: 'Storm update', date: 'Fri, 20 Nov 2026 10:00:00 GMT' })),
      ),
    ).toEqual(['title', 'published_at']);
  });

  it('takes content that repeats the summary as no change: without content, the summary is shown as it', () => {
    const withContent = (content?: string, description = 'Winds reached 120 km/h.') =>
      `<item><guid>g1</guid><title>Storm hits coast</title><link>https://news.example/storm</link>` +
      `<description>${description}</description>` +
      (content === undefined ? '' : `<content:encoded><![CDATA[${content}]]></content:encoded>`) +
      '<pubDate>Fri, 20 Nov 2026 08:00:00 GMT</pubDate></item>';
    const bare = fingerprint(withContent());
    const repeated = fingerprint(withContent('<p>Winds reached 120 km/h.</p>'));
    expect(changedFields(bare, repeated)).toEqual([]);
    expect(changedFields(repeated, bare)).toEqual([]);
    expect(changedFields(bare, fingerprint(withContent('<p>Winds reached 130 km/h.</p>')))).toEqual([
      'content',
    ]);
    expect(changedFields(bare, fingerprint(withContent(undefined, 'Winds eased.')))).toEqual(['summary']);
  });

  it('compares text as a reader sees it', () => {
    expect(comparableText(' a\n\nb\u00AD c ')).toBe('a b c');
    expect(comparableText('see https://x.example/a?utm_source=y&b=1.')).toBe('see https://x.example/a?b=1.');
    expect(comparableText(null)).toBe('');
  });

  it('compares simple text as it is, and any other text as every step makes it (a property over random texts)', () => {
    const slow = (text: string) =>
      text
        .normalize('NFC')
        .replace(/[\u00AD\u200B-\u200D\u2060\uFEFF]/g, '')
        .replace(/\bhttps?:\/\/[^\s<>"']+/gi, (link) => canonicalUrl(link) ?? link)
        .replace(/\s+/g, ' ')
        .trim();
    const pieces = [
      ...'ab Z9 .,é’“”–…€',
      '\n',
      '\u00a0',
      '\u00ad',
      '\u200b',
      'e\u0301',
      '  ',
      ' http://x.example/?utm_source=a&b=1 ',
      'HTTPS://Y.example/P#f',
    ];
    let s = 5;
    const random = () => ((s = Math.imul(s ^ (s >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0) / 2 ** 32;
    for (let n = 0; n < 20_000; n++) {
      let text = '';
      const simple = random() < 0.5;
      for (let i = Math.floor(random() * 25); i > 0; i--)
        text += pieces[Math.floor(random() * (simple ? 15 : pieces.length))];
      expect(comparableText(text), JSON.stringify(text)).toBe(slow(text));
    }
  });

  it('hashes as the fingerprints remembered in Redis were hashed: the first 12 hex digits of SHA-256', () => {
    // A different hash would make every remembered article look changed on its next poll.
    // Computed with createHash('sha256') over the comparable texts ('' for no content and no author).
    expect(fingerprint(item({}))).toEqual({
      title: 'd6ec1985d550', // "Storm hits coast"
      summary: '11ec03abc667', // "Winds reached 120 km/h. More at https://news.example/live?id=3"
      content: 'e3b0c44298fc',
      author: 'e3b0c44298fc',
      published_at: 'bf57c5688d21', // "2026-11-20T08:00:00.000Z"
      url: '3b9bcfccc7f9', // "news.example/storm"
    });
  });

  it('counts a corrected link, not a change of scheme, of "www." or of a cache-buster', () => {
    expect(changedFields(base, fingerprint(item({ link: 'https://news.example/storm-hits-coast' })))).toEqual(
      ['url'],
    );
    expect(changedFields(base, fingerprint(item({ link: 'https://news.example/storm?id=2' })))).toEqual([
      'url',
    ]);
    for (const link of [
      'http://news.example/storm',
      'https://www.news.example/storm',
      'https://news.example/storm?_=1764000000123',
    ])
      expect(changedFields(base, fingerprint(item({ link }))), link).toEqual([]);
  });

  it('takes a field the remembered fingerprint does not know as unchanged', () => {
    const remembered = { ...base, url: unknownHash };
    expect(changedFields(remembered, fingerprint(item({ link: 'https://news.example/other' })))).toEqual([]);
    expect(changedFields(remembered, fingerprint(item({ title: 'Storm update' })))).toEqual(['title']);
  });
});
