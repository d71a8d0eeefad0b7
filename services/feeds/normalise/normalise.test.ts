import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseFeed } from '../parser/parse-feed.ts';
import { parseFeedDate } from '../parser/dates.ts';
import { canonicalUrl } from '../../runtime/canonical-url.ts';
import { articleId } from './article-id.ts';
import { detectLanguage, languageCode } from '../../runtime/language.ts';
import {
  maxContentLength,
  maxSummaryLength,
  leadOf,
  maxAuthorLength,
  maxDerivedTitleLength,
  maxTitleLength,
  normaliseFeed,
  sharedGuids,
  titleFromText,
} from './normalise-item.ts';
import type { ParsedFeed, ParsedItem } from '../parser/types.ts';
import { noHints } from '../parser/publisher-hints.ts';
import { sourceState } from '../../sources/source.ts';
import { dateWarnings, futureTolerance, publishedAt } from './published-at.ts';

/** A parsed item with every field empty but those given. */
const parsedItem = (fields: Partial<ParsedItem>): ParsedItem => ({
  guid: null,
  url: null,
  title: null,
  summaryHtml: null,
  contentHtml: null,
  author: null,
  publishedRaw: null,
  published: null,
  categories: [],
  language: null,
  imageUrl: null,
  enclosureUrl: null,
  publisher: null,
  ...fields,
});

describe('articleId', () => {
  it('depends on source and guid when there is a guid', () => {
    const a = articleId('src_1', 'guid-1', 'https://x.example/a');
    expect(a).toMatch(/^art_[0-9a-f]{32}$/);
    expect(articleId('src_1', 'guid-1', 'https://x.example/other')).toBe(a);
    expect(articleId('src_2', 'guid-1', 'https://x.example/a')).not.toBe(a);
  });

  it("falls back to the source and canonical URL without a guid: two outlets' items are two articles", () => {
    const a = articleId('src_1', null, 'https://x.example/a');
    expect(articleId('src_1', '  ', 'https://x.example/a')).toBe(a);
    expect(articleId('src_2', null, 'https://x.example/a')).not.toBe(a);
    expect(articleId('src_1', null, 'https://x.example/b')).not.toBe(a);
  });

  it('gives the ids articles already carry: SHA-256 of the identity, its first 32 hex digits', () => {
    // Another id for the same item would make it a second article.
    expect(articleId('src_1', ' g-1 ', 'https://x.example/a')).toBe('art_054b1c39c8c4986358b7ea5b5a173821');
    // Without a guid, ids made by the URL alone until 2026-12-06 (art_e65b7e22…) stay with their
    // articles through the poller's aliases (article-id.ts).
    expect(articleId('src_1', null, 'https://news.example/a')).toBe(
      `art_${createHash('sha256').update('url\nsrc_1\nhttps://news.example/a').digest('hex').slice(0, 32)}`,
    );
  });
});

describe('publishedAt', () => {
  const now = Date.UTC(2026, 10, 20, 12);

  it('keeps a past date and uses discovery time when there is none', () => {
    expect(publishedAt(new Date('2026-11-19T08:00:00Z'), now)).toEqual({
      at: Date.UTC(2026, 10, 19, 8),
      clamped: false,
      dated: true,
    });
    expect(publishedAt(null, now)).toEqual({ at: now, clamped: false, dated: false });
    expect(publishedAt(new Date(Number.NaN), now)).toEqual({ at: now, clamped: false, dated: false });
  });

  it('clamps and flags a far-future date, tolerating small clock skew', () => {
    expect(publishedAt(new Date(now + futureTolerance - 1000), now)).toMatchObject({
      clamped: false,
      dated: true,
    });
    // Local time written as GMT, an hour or two ahead: not the top of every list until then.
    expect(publishedAt(new Date(now + 2 * 3_600_000), now)).toEqual({ at: now, clamped: true, dated: false });
    expect(publishedAt(new Date(now + 10 * 60_000), now)).toMatchObject({ clamped: false, dated: true });
    expect(publishedAt(new Date('2099-01-01T00:00:00Z'), now)).toEqual({
      at: now,
      clamped: true,
      dated: false,
    });
  });

  it('says on the poll which dates it did not take as given, one line per kind with an example', () => {
    const item = (publishedRaw: string | null, published: Date | null) => ({ publishedRaw, published });
    expect(
      dateWarnings(
        [
          item('yesterday-ish', null),
          item('Thu, 01 Jan 1970 00:00:00 GMT', new Date(0)),
          item('1900-01-01', new Date('1900-01-01T00:00:00Z')),
          item('2099-01-01', new Date('2099-01-01T00:00:00Z')),
          item('2026-11-19', new Date('2026-11-19T00:00:00Z')),
          item(null, null),
          item('Thu, 19 Nov 2026 10:00:00 XYZ', parseFeedDate('Thu, 19 Nov 2026 10:00:00 XYZ')),
          item('Thu, 19 Nov 2026 10:00:00 XYZ (Nowhere Time)', new Date('2026-11-19T10:00:00Z')),
          item('Thu, 19 Nov 2026 10:00:00 ICT', parseFeedDate('Thu, 19 Nov 2026 10:00:00 ICT')),
          item('Thu, 19 Nov 2026 10:00:00 pm', new Date('2026-11-19T22:00:00Z')),
        ],
        now,
      ),
    ).toEqual([
      '1 item date(s) could not be read (such as "yesterday-ish"): dated when found',
      "2 item date(s) before 1991 (such as 1970-01-01T00:00:00Z, a CMS's empty date) taken as missing: dated when found",
      '2 item date(s) with a time zone not known here (such as "XYZ" in "Thu, 19 Nov 2026 10:00:00 XYZ") read as UTC: hours off at most; a numeric offset such as +0700 is read exactly',
      '1 item date(s) with a time and no time zone (such as "Thu, 19 Nov 2026 10:00:00 pm") read as UTC: hours ' +
        'off if the publisher meant its local time; a date with its offset (+01:00) or Z is read exactly',
      '1 item date(s) in the future (such as 2099-01-01T00:00:00Z) clamped to when they were found',
    ]);
    expect(dateWarnings([item('2026-11-19', new Date('2026-11-19T00:00:00Z'))], now)).toEqual([]);
    // A time without a zone, read as UTC, said once for all such items, apart from an unknown zone.
    const zoneless = ['2026-11-19T08:00:00', 'Thu, 19 Nov 2026 09:00:00'].map((raw) =>
      item(raw, parseFeedDate(raw)),
    );
    expect(
      dateWarnings([...zoneless, item('2026-11-19T10:00:00+01:00', new Date('2026-11-19T09:00:00Z'))], now),
    ).toEqual([
      '2 item date(s) with a time and no time zone (such as "2026-11-19T08:00:00") read as UTC: hours off if the ' +
        'publisher meant its local time; a date with its offset (+01:00) or Z is read exactly',
    ]);
  });

  it("takes a CMS's zero dates (epoch, 1900, year 1) as missing, not as the article's", () => {
    for (const zero of [
      '1970-01-01T00:00:00Z',
      '1900-01-01T00:00:00Z',
      '0001-01-01T00:00:00Z',
      '1990-12-31T23:59:59Z',
    ])
      expect(publishedAt(new Date(zero), now), zero).toEqual({ at: now, clamped: false, dated: false });
    expect(publishedAt(new Date('1991-01-01T00:00:00Z'), now)).toEqual({
      at: Date.UTC(1991, 0, 1),
      clamped: false,
      dated: true,
    });
  });
});

/** A parsed RSS feed declaring `language`, of these items. */
const feed = (language: string | null, items: ParsedItem[]): ParsedFeed => ({
  format: 'rss',
  title: null,
  siteUrl: null,
  language,
  items,
  warnings: [],
  hints: noHints,
});

describe('language', () => {
  it('normalises declared codes', () => {
    expect(languageCode('en-US')).toBe('en');
    expect(languageCode('pt_BR')).toBe('pt');
    expect(languageCode('DE')).toBe('de');
    expect(languageCode('english')).toBe('en'); // as feeds write it (runtime/language.test.ts has more)
    expect(languageCode('elvish')).toBeNull();
  });

  it('detects the language of enough text', () => {
    expect(
      detectLanguage(
        'Die Bundesregierung hat am Mittwoch neue Maßnahmen beschlossen, um die Wirtschaft zu stärken und die Inflation zu bekämpfen, teilte ein Sprecher mit.',
      ),
    ).toBe('de');
    expect(detectLanguage('Too short')).toBeNull();
  });

  it('prefers item, then feed, then the source, which only a clear detection overrules', () => {
    const portuguese =
      'O governo anunciou nesta quarta-feira um novo pacote de medidas para conter a inflação e estimular o crescimento econômico do país.';
    const item = (language: string | null, summary = portuguese): ParsedItem =>
      parsedItem({ url: 'https://x.example/a', title: 'Título', summaryHtml: summary, language });
    const source = sourceState(
      { name: 's', feed_url: 'https://x.example/f', category: 'general', language: 'de', country: 'de' },
      null,
      0,
    );
    const languages = (f: ParsedFeed) =>
      normaliseFeed(f, source, 0).map((n) => ('article' in n ? n.article.language : n.skipped));
    expect(languages(feed('en', [item('fr'), item(null)]))).toEqual(['fr', 'en']);
    expect(languages(feed(null, [item(null)]))).toEqual(['pt']);
    expect(languages(feed(null, [item(null, 'short')]))).toEqual(['de']);
    // Short English headlines in a feed that declares nothing: franc says French, with others close
    // behind; the source says English, and English it stays.
    const english = sourceState(
      { name: 'e', feed_url: 'https://x.example/e', category: 'general', language: 'en', country: 'us' },
      null,
      0,
    );
    const headlines = [
      'Kanye West',
      'Kim Kardashian',
      'Taylor Swift tour',
      'Man Utd vs Chelsea',
      'Bitcoin price today',
      'Elon Musk',
      'Premier League table',
      'NBA playoffs',
    ];
    const items = headlines.map((title, i) =>
      parsedItem({ url: `https://x.example/${i}`, title, summaryHtml: '', language: null }),
    );
    expect(
      normaliseFeed(feed(null, items), english, 0).map((n) =>
        'article' in n ? n.article.language : n.skipped,
      ),
    ).toEqual(headlines.map(() => 'en'));
    // A real German feed and a real Portuguese one that declare nothing, added as English: detection
    // puts English far down its list, and overrules the source.
    for (const [file, language] of [
      ['heise.atom', 'de'],
      ['uolNoticias.rss', 'pt'],
    ] as const) {
      const real = parseFeed(readFileSync(new URL(`../parser/testdata/real/${file}`, import.meta.url)), null);
      const found = new Set(
        normaliseFeed(real, english, 0).map((n) => ('article' in n ? n.article.language : n.skipped)),
      );
      expect([...found], file).toEqual([language]);
    }
  });

  it("gives way when the item's script denies the declared language, item's or feed's", () => {
    const source = sourceState(
      { name: 'r', feed_url: 'https://x.example/r', category: 'general', language: 'en', country: 'us' },
      null,
      0,
    );
    const item = (i: number, title: string, summary: string, language: string | null = null) =>
      parsedItem({ url: `https://x.example/${i}`, title, summaryHtml: summary, language });
    const languages = (f: ParsedFeed) =>
      normaliseFeed(f, source, 0).map((n) => ('article' in n ? n.article.language : n.skipped));
    const russian = item(
      1,
      'В Москве открылась новая станция метро',
      'Станция стала двести пятидесятой в городе, сообщили в мэрии.',
    );
    const english = item(2, 'Bank raises rates', 'The bank raised its main rate again on Monday.');
    // A CMS's default <language>en</language> on a feed whose items are Russian: Russian, item by item.
    expect(languages(feed('en', [russian, english]))).toEqual(['ru', 'en']);
    expect(languages(feed(null, [item(3, russian.title!, russian.summaryHtml!, 'en-US')]))).toEqual(['ru']);
    // Japanese under an English declaration, Greek under a German one.
    expect(languages(feed('en', [item(4, '日本銀行が利上げを決定した', '')]))).toEqual(['ja']);
    expect(languages(feed('de', [item(5, 'Η τράπεζα αύξησε τα επιτόκια.', '')]))).toEqual(['el']);
    // A Russian outlet's Latin-only headline says nothing against its declaration; nor does a
    // Russian name in an English sentence, or Serbian (written in both scripts).
    expect(languages(feed('ru', [item(6, 'iPhone 16', '')]))).toEqual(['ru']);
    expect(
      languages(
        feed('en', [item(7, 'Sberbank results', 'The bank, known as Сбербанк at home, raised rates.')]),
      ),
    ).toEqual(['en']);
    expect(languages(feed('sr', [item(8, 'Vlada je usvojila budžet', '')]))).toEqual(['sr']);
  });

  it("gives way item by item when the feed declares none: the source's or the detected language", () => {
    const source = sourceState(
      { name: 'm', feed_url: 'https://x.example/m', category: 'general', language: 'en', country: 'us' },
      null,
      0,
    );
    const item = (i: number, title: string, summary: string) =>
      parsedItem({ url: `https://x.example/${i}`, title, summaryHtml: summary, language: null });
    const english = [
      item(1, 'Bank raises rates', 'The bank raised its main rate again on Monday, citing inflation.'),
      item(2, 'Council approves budget', 'The city council approved next year’s budget after a long debate.'),
      item(3, 'Storm closes schools', 'Schools across the region were closed as the storm moved inland.'),
    ];
    const russian = item(
      4,
      'Правительство России объявило о новых мерах поддержки экономики',
      'Министр финансов сообщил, что новые меры вступят в силу в январе.',
    );
    const languages = normaliseFeed(feed(null, [...english, russian]), source, 0).map((n) =>
      'article' in n ? n.article.language : n.skipped,
    );
    expect(languages).toEqual(['en', 'en', 'en', 'ru']);
  });
});

describe('normaliseFeed and links', () => {
  it('keeps the link as resolved and its canonical form, the two from one parse', () => {
    const links = [
      'https://News.Example/a?utm_source=rss&id=7#top',
      '  https://news.example/b  ',
      '/relative/c?b=2&a=1',
      'd.html',
      '\u00a0https://news.example/e\u00a0',
      'http://user:pw@news.example:80/f',
      'https://news.example/ü?q=ä',
    ];
    const items = links.map((url) => parsedItem({ url, title: 'T' }));
    const source = sourceState(
      {
        name: 's',
        feed_url: 'https://site.example/feed.xml',
        category: 'general',
        language: 'en',
        country: 'gb',
      },
      null,
      0,
    );
    const feed: ParsedFeed = {
      format: 'rss',
      title: null,
      siteUrl: null,
      language: 'en',
      items,
      warnings: [],
      hints: noHints,
    };
    const base = source.feed_url;
    const normalised = normaliseFeed(feed, source, 0);
    normalised.forEach((n, i) => {
      if (!('article' in n)) throw new Error(n.skipped);
      expect(n.article.original_url).toBe(new URL(links[i]!, base).toString());
      expect(n.article.url).toBe(canonicalUrl(links[i]!, base));
    });
  });

  it('tells items apart by their links when the document gives several the same guid', () => {
    const item = (guid: string | null, url: string) => parsedItem({ guid, url, title: `T ${url}` });
    const source = sourceState(
      { name: 's', feed_url: 'https://cms.example/rss', category: 'general', language: 'en', country: 'gb' },
      null,
      0,
    );
    const ids = (items: ParsedItem[]) =>
      normaliseFeed(
        { format: 'rss', title: null, siteUrl: null, language: 'en', items, warnings: [], hints: noHints },
        source,
        0,
      ).map((n) => ('article' in n ? n.article.article_id : n.skipped));
    const sid = source.source_id;
    // Every item's guid "1": three articles, identified by their links.
    expect(
      ids([
        item('1', 'https://cms.example/a'),
        item(' 1 ', 'https://cms.example/b'),
        item('1', 'https://cms.example/c'),
      ]),
    ).toEqual([
      articleId(sid, null, 'https://cms.example/a'),
      articleId(sid, null, 'https://cms.example/b'),
      articleId(sid, null, 'https://cms.example/c'),
    ]);
    // Unique guids stay the identity; an item repeated whole is one article, by its guid.
    expect(
      ids([
        item('g1', 'https://cms.example/a'),
        item('g2', 'https://cms.example/b'),
        item('g1', 'https://cms.example/a'),
      ]),
    ).toEqual([
      articleId(sid, 'g1', 'https://cms.example/a'),
      articleId(sid, 'g2', 'https://cms.example/b'),
      articleId(sid, 'g1', 'https://cms.example/a'),
    ]);
    expect(
      sharedGuids([
        item('x', 'https://cms.example/a'),
        item('x', 'https://cms.example/b'),
        item(null, 'https://cms.example/c'),
      ]),
    ).toEqual(new Set(['x']));
  });
});

describe('items identified by their link', () => {
  const source = sourceState(
    { name: 's', feed_url: 'https://live.example/rss', category: 'general', language: 'en', country: 'gb' },
    null,
    0,
  );
  const item = (url: string, title: string, more: Partial<ParsedItem> = {}) =>
    parsedItem({ url, title, ...more });
  const normalise = (items: ParsedItem[], format: ParsedFeed['format'] = 'rss') =>
    normaliseFeed(
      { format, title: null, siteUrl: null, language: 'en', items, warnings: [], hints: noHints },
      source,
      0,
    );
  const ids = (items: ParsedItem[]) =>
    normalise(items).map((n) => ('article' in n ? n.article.article_id : n.skipped));

  it('tells apart items whose links are one canonical URL but which are different items', () => {
    const sid = source.source_id;
    // A live blog's posts, a fragment apart; two items a tracking parameter apart: four articles.
    expect(
      ids([
        item('https://live.example/blog#post-1', 'Post one'),
        item('https://live.example/blog#post-2', 'Post two'),
        item('https://live.example/y?cmpid=1', 'Why one'),
        item('https://live.example/y?cmpid=2', 'Why two'),
      ]),
    ).toEqual([
      articleId(sid, null, 'https://live.example/blog#post-1'),
      articleId(sid, null, 'https://live.example/blog#post-2'),
      articleId(sid, null, 'https://live.example/y?cmpid=1'),
      articleId(sid, null, 'https://live.example/y?cmpid=2'),
    ]);
    // The same item listed twice under two tracking links stays one article, by its canonical URL.
    expect(
      ids([
        item('https://live.example/z?utm_source=a', 'Zed'),
        item('https://live.example/z?utm_source=b', 'Zed'),
      ]),
    ).toEqual([
      articleId(sid, null, 'https://live.example/z'),
      articleId(sid, null, 'https://live.example/z'),
    ]);
  });

  it('never takes a broken absolute link for a path, nor a guid RSS said is no permalink', () => {
    const [broken] = normalise([item('ht!tp://bad link with spaces', 'Broken')]);
    expect(broken).toEqual({ skipped: 'item "Broken" has no usable link' });
    const notPermalink = normalise([
      item(null as unknown as string, 'Guid only', { url: null, guid: 'https://live.example/p/2' }),
    ]);
    expect(notPermalink).toEqual([{ skipped: 'item "Guid only" has no usable link' }]);
    // An Atom id that is a URL is the entry's address.
    const [atom] = normalise(
      [item(null as unknown as string, 'Atom', { url: null, guid: 'https://live.example/p/3' })],
      'atom',
    );
    expect(atom && 'article' in atom && atom.article.url).toBe('https://live.example/p/3');
  });

  it('identifies the items of a JSON Feed that gives them no id by their links', () => {
    const body = JSON.stringify({
      version: 'https://jsonfeed.org/version/1.1',
      title: 'No ids',
      items: [
        { url: 'https://live.example/a?utm_source=feed', title: 'A', content_text: 'Text a.' },
        { url: 'https://live.example/b', title: 'B', content_text: 'Text b.' },
        { title: 'Nowhere', content_text: 'No link either.' },
      ],
    });
    const parsed = parseFeed(Buffer.from(body), 'application/feed+json');
    const sid = source.source_id;
    expect(
      normaliseFeed(parsed, source, 0).map((n) => ('article' in n ? n.article.article_id : n.skipped)),
    ).toEqual([
      articleId(sid, null, 'https://live.example/a'),
      articleId(sid, null, 'https://live.example/b'),
      'item "Nowhere" has no usable link',
    ]);
  });

  it("keeps the whole text of an item whose description is all it has, past the summary's cap", () => {
    const words = Array.from({ length: 6_000 }, (_, i) => `w${i}`).join(' ') + ' ENDMARKER';
    const [long] = normalise([item('https://live.example/long', 'Long', { summaryHtml: words })]);
    if (!long || !('article' in long)) throw new Error('expected an article');
    expect(long.article.content).toBe(words);
    expect(long.article.summary.length).toBeLessThanOrEqual(maxSummaryLength);
    // A short description stays the summary only, as before.
    const [short] = normalise([item('https://live.example/short', 'Short', { summaryHtml: 'Brief.' })]);
    expect(short && 'article' in short && [short.article.summary, short.article.content]).toEqual([
      'Brief.',
      '',
    ]);
  });
});

describe('a summary from the content', () => {
  it("gives an item with only content its content's first paragraphs", () => {
    const source = sourceState(
      {
        name: 's',
        feed_url: 'https://j.example/feed.json',
        category: 'general',
        language: 'en',
        country: 'us',
      },
      null,
      0,
    );
    const paragraph = (n: number) => `Paragraph ${n} ${'word '.repeat(30).trim()}.`;
    const contentHtml = [1, 2, 3, 4].map((n) => `<p>${paragraph(n)}</p>`).join('');
    const [normalised] = normaliseFeed(
      {
        format: 'json',
        title: null,
        siteUrl: null,
        language: 'en',
        warnings: [],
        hints: noHints,
        items: [
          {
            guid: '1',
            url: 'https://j.example/1',
            title: 'Only content',
            summaryHtml: null,
            contentHtml,
            author: null,
            publishedRaw: null,
            published: null,
            categories: [],
            language: null,
            imageUrl: null,
            enclosureUrl: null,
            publisher: null,
          },
        ],
      },
      source,
      0,
    );
    if (!normalised || !('article' in normalised)) throw new Error('expected an article');
    // Paragraphs until 200 characters: two of these 164-character ones.
    expect(normalised.article.summary).toBe(`${paragraph(1)}\n\n${paragraph(2)}`);
    expect(normalised.article.content).toContain(paragraph(4));
  });

  it('cuts one long paragraph at a word, and leaves no content as no summary', () => {
    const long = 'word '.repeat(400).trim();
    const lead = leadOf(long);
    expect(lead.length).toBeLessThanOrEqual(600);
    expect(lead.endsWith('…')).toBe(true);
    expect(leadOf('')).toBe('');
    expect(leadOf('Short.')).toBe('Short.');
  });
});

describe('the normalised fields', () => {
  it('keeps an article event within what a Kafka record may carry', () => {
    const big = `<p>${'Lorem ipsum dolor sit amet. '.repeat(40_000)}</p>`;
    const item: ParsedItem = {
      guid: 'g',
      url: 'https://news.example/a',
      title: 'T',
      summaryHtml: big,
      contentHtml: big,
      // Four bytes each in UTF-8: a byline of 400,000 characters would be 1.6 MB on its own.
      author: '😀'.repeat(200_000),
      publishedRaw: null,
      published: null,
      categories: [],
      language: 'en',
      imageUrl: null,
      enclosureUrl: null,
      publisher: null,
    };
    const source = sourceState(
      {
        name: 's',
        feed_url: 'https://site.example/feed.xml',
        category: 'general',
        language: 'en',
        country: 'gb',
      },
      null,
      0,
    );
    const [n] = normaliseFeed(
      {
        format: 'rss',
        title: null,
        siteUrl: null,
        language: 'en',
        items: [item],
        warnings: [],
        hints: noHints,
      },
      source,
      0,
    );
    if (!n || !('article' in n)) throw new Error('skipped');
    // Cut between two emoji, and said so.
    expect(n.article.author).toBe(`${'😀'.repeat(249)}…`);
    expect(n.article.summary.length).toBeLessThanOrEqual(maxSummaryLength);
    expect(n.article.content.length).toBeLessThanOrEqual(maxContentLength);
    expect(Buffer.byteLength(JSON.stringify(n.article))).toBeLessThan(512 * 1024);
  });
});

/** A source of the feed at `feedUrl`, in English. */
const sourceAt = (feedUrl: string) =>
  sourceState({ name: 's', feed_url: feedUrl, category: 'general', language: 'en', country: 'us' }, null, 0);

/** An English feed of `items`, as the parser gives it. */
const feedOf = (items: ParsedItem[]): ParsedFeed => ({
  format: 'rss',
  title: null,
  siteUrl: null,
  language: 'en',
  warnings: [],
  hints: noHints,
  items,
});

describe("an item's title and author", () => {
  const source = () => sourceAt('https://news.example/feed.xml');
  const articleOf = (fields: Partial<ParsedItem>) => {
    const [n] = normaliseFeed(
      feedOf([parsedItem({ guid: 'g', url: 'https://news.example/a', ...fields })]),
      source(),
      0,
    );
    if (!n || !('article' in n)) throw new Error('expected an article');
    return n.article;
  };

  it('keeps the angle brackets of a title escaped once, and drops its markup', () => {
    expect(articleOf({ title: 'std::vector<int> explained' }).title).toBe('std::vector<int> explained');
    expect(articleOf({ title: 'The <dialog> element' }).title).toBe('The <dialog> element');
    expect(articleOf({ title: '<b>Breaking</b>: rates rise' }).title).toBe('Breaking: rates rise');
    expect(articleOf({ title: 'Rates <em>rise</em>' }).title).toBe('Rates rise');
  });

  it('tells apart items on one link whose titles differ only in angle brackets', () => {
    const items = ['vector<int>', 'vector<long>'].map((title, i) =>
      parsedItem({ title, url: `https://news.example/live#post-${i}` }),
    );
    const normalised = normaliseFeed(feedOf(items), source(), 0);
    const ids = normalised.map((n) => ('article' in n ? n.article.article_id : n.skipped));
    expect(new Set(ids).size).toBe(2);
  });

  it('removes invisible characters from title, summary and content, and keeps emoji whole', () => {
    const article = articleOf({
      title: 'Infla\u00adtion hits 5\u200b% 👩\u200d💻',
      summaryHtml: '<p>Infla&shy;tion&#x200B; rose.</p>',
      contentHtml: '<p>Zero\u2060width\ufeff text.</p>',
    });
    expect(article.title).toBe('Inflation hits 5% 👩\u200d💻');
    expect(article.summary).toBe('Inflation rose.');
    expect(article.content).toBe('Zerowidth text.');
  });

  it('cuts a long title at a word, says so with "…", and keeps it within the limit', () => {
    const words = Array.from({ length: 200 }, (_, i) => `word${i}`).join(' ');
    const title = articleOf({ title: words }).title;
    expect(title.length).toBeLessThanOrEqual(maxTitleLength);
    expect(title.length).toBeGreaterThan(maxTitleLength * 0.9);
    expect(title.endsWith('…')).toBe(true);
    expect(words.startsWith(title.slice(0, -1))).toBe(true);
    expect(words[title.length - 1]).toBe(' ');
    // A title within the limit is left whole.
    const whole = 'x'.repeat(maxTitleLength);
    expect(articleOf({ title: whole }).title).toBe(whole);
  });

  it('cuts a long unspaced title between graphemes, never inside joined emoji', () => {
    const family = '👨\u200d👩\u200d👧\u200d👦';
    const text = `${'新'.repeat(maxTitleLength - 5)}${family}${'闻'.repeat(20)}`;
    const title = articleOf({ title: text }).title;
    expect(title).toBe(`${'新'.repeat(maxTitleLength - 5)}…`);
    // Nor between the halves of a surrogate pair.
    const emoji = articleOf({ title: `a${'😀'.repeat(300)}` }).title;
    expect(emoji).toBe(`a${'😀'.repeat(249)}…`);
  });

  it('cuts a long byline at a word too, marked with "…"', () => {
    const names = Array.from({ length: 100 }, (_, i) => `Author Number${i}`).join(', ');
    const author = articleOf({ title: 'T', author: names }).author!;
    expect(author.length).toBeLessThanOrEqual(maxAuthorLength);
    expect(author.endsWith('…')).toBe(true);
    expect(names.startsWith(author.slice(0, -1))).toBe(true);
    expect(articleOf({ title: 'T', author: 'Ann, Bob' }).author).toBe('Ann, Bob');
  });

  it('keeps a byline without the "By" it is printed with, and names that start with "By" whole', () => {
    const bylineOf = (author: string) => articleOf({ title: 'T', author }).author;
    expect(bylineOf('By Jane Smith')).toBe('Jane Smith');
    expect(bylineOf('BY JANE SMITH')).toBe('JANE SMITH');
    expect(bylineOf('by Jane Smith and John Doe')).toBe('Jane Smith and John Doe');
    expect(bylineOf('By: <b>Jane</b>  Smith')).toBe('Jane Smith');
    // Several authors, each printed with its "By" (the parser joins them with ", ").
    expect(bylineOf('By Jane Smith, By John Doe')).toBe('Jane Smith, John Doe');
    expect(bylineOf('Byron Black')).toBe('Byron Black');
    expect(bylineOf('Byung-hun Lee, Byron Black')).toBe('Byung-hun Lee, Byron Black');
    expect(bylineOf('Jane Smith, Standby Desk')).toBe('Jane Smith, Standby Desk');
    expect(bylineOf('By')).toBe('By');
    // What is left is a byline as any other: a placeholder is none.
    expect(bylineOf('By Unknown')).toBeNull();
  });

  it('reads markup escaped once too often as the markup it is, and leaves text that quotes "<" alone', () => {
    const summariesOf = (descriptions: string[]) =>
      normaliseFeed(
        parseFeed(
          new TextEncoder().encode(
            `<rss version="2.0"><channel><title>R</title>${descriptions
              .map(
                (d, i) =>
                  `<item><guid>g${i}</guid><title>T${i}</title><link>https://news.example/${i}</link><description>${d}</description></item>`,
              )
              .join('')}</channel></rss>`,
          ),
          'application/rss+xml',
        ),
        source(),
        0,
      ).map((n) => ('article' in n ? n.article.summary : n.skipped));
    expect(
      summariesOf([
        // As a converter wrote reddit's self-text: the HTML escaped twice.
        '&amp;lt;!-- SC_OFF --&amp;gt;&amp;lt;div class=&amp;quot;md&amp;quot;&amp;gt;&amp;lt;p&amp;gt;I was laying in bed &amp;lt;a href=&amp;quot;/r/x&amp;quot;&amp;gt;here&amp;lt;/a&amp;gt;.&amp;lt;/p&amp;gt;&amp;lt;/div&amp;gt;',
        '&lt;p&gt;If a &amp;lt; b and b &amp;lt; c, then a &amp;lt; c.&lt;/p&gt;',
        '&lt;p&gt;Use the &amp;lt;div&amp;gt; element&lt;/p&gt;',
      ]),
    ).toEqual(['I was laying in bed here.', 'If a < b and b < c, then a < c.', 'Use the <div> element']);
    // And as it came: a reddit feed passed through a converter (testdata/real).
    const reddit = normaliseFeed(
      parseFeed(readFileSync(new URL('../parser/testdata/real/reddit-atom.rss', import.meta.url)), null),
      source(),
      0,
    ).flatMap((n) => ('article' in n ? [`${n.article.summary}\n${n.article.content ?? ''}`] : []));
    expect(reddit.length).toBeGreaterThan(0);
    for (const text of reddit) expect(text).not.toMatch(/&lt;|&quot;|<\/?(?:div|p|a)\b|SC_OFF/);
  });

  it('keeps the tags a plain-text field quotes (Atom type="text", JSON Feed summary and content_text) as text', () => {
    const atom = `<feed xmlns="http://www.w3.org/2005/Atom"><title>A</title><entry><id>e1</id><title>T</title>
      <link href="https://blog.example/1"/><updated>2026-11-20T08:00:00Z</updated>
      <summary type="text">Use &lt;b&gt;bold&lt;/b&gt; sparingly; write &amp;amp; for an ampersand.</summary>
      <content type="text">In HTML, &lt;p&gt;text&lt;/p&gt; makes a paragraph and &lt;script&gt; runs code. This sentence stays.</content>
      </entry></feed>`;
    const json = JSON.stringify({
      version: 'https://jsonfeed.org/version/1.1',
      title: 'J',
      items: [
        {
          id: 'j1',
          url: 'https://blog.example/2',
          summary: 'Never write <b>bold</b> by hand',
          content_text: 'The <p>x</p> tag.',
        },
      ],
    });
    const read = (body: string, type: string) =>
      normaliseFeed(parseFeed(new TextEncoder().encode(body), type), source(), 0).map((n) =>
        'article' in n ? [n.article.summary, n.article.content] : n.skipped,
      );
    expect(read(atom, 'application/atom+xml')).toEqual([
      [
        'Use <b>bold</b> sparingly; write &amp; for an ampersand.',
        'In HTML, <p>text</p> makes a paragraph and <script> runs code. This sentence stays.',
      ],
    ]);
    expect(read(json, 'application/feed+json')).toEqual([
      ['Never write <b>bold</b> by hand', 'The <p>x</p> tag.'],
    ]);
  });

  it("gives no author for a feed's placeholder byline, as Blogger writes it in RSS and in Atom", () => {
    const authorsOf = (xml: string, contentType: string) =>
      normaliseFeed(parseFeed(new TextEncoder().encode(xml), contentType), source(), 0).map((n) =>
        'article' in n ? n.article.author : n.skipped,
      );
    const rssItem = (author: string, i: number) =>
      `<item><guid>g${i}</guid><title>T${i}</title><link>https://news.example/${i}</link><author>${author}</author></item>`;
    expect(
      authorsOf(
        `<rss version="2.0"><channel><title>B</title>${[
          'noreply@blogger.com (Unknown)',
          'N/A',
          'jo@news.example (Jo Bloggs)',
          'Unknown Pleasures Reviewed', // a name that only starts like one
        ]
          .map(rssItem)
          .join('')}</channel></rss>`,
        'application/rss+xml',
      ),
    ).toEqual([null, null, 'Jo Bloggs', 'Unknown Pleasures Reviewed']);
    expect(
      authorsOf(
        '<feed xmlns="http://www.w3.org/2005/Atom"><title>B</title><entry><id>tag:b,1</id><title>T</title>' +
          '<link href="https://news.example/1"/><author><name>Unknown</name><email>noreply@blogger.com</email></author>' +
          '</entry></feed>',
        'application/atom+xml',
      ),
    ).toEqual([null]);
  });
});

describe('titleFromText', () => {
  it("takes the text's first sentence, without its full stop, when it makes a headline", () => {
    expect(
      titleFromText('Just shipped a new release of our parser. It handles JSON Feed items without titles.'),
    ).toBe('Just shipped a new release of our parser');
    expect(titleFromText('Is the budget too small? Critics say it is.')).toBe('Is the budget too small?');
    // A short first "sentence" and an abbreviation before a lowercase word end nothing.
    expect(
      titleFromText('Update. The U.S. agency said on Monday that rates stay where they are. More later.'),
    ).toBe('Update. The U.S. agency said on Monday that rates stay where they are');
    expect(titleFromText('东京电力公司周一宣布了新的计划。更多内容稍后公布。')).toBe(
      '东京电力公司周一宣布了新的计划。',
    );
    expect(titleFromText('A short note without a full stop')).toBe('A short note without a full stop');
  });

  it('cuts a text with no short first sentence at a word, marked with …', () => {
    const text =
      'Just shipped a new release of our parser, which handles JSON Feed items without titles, which microblogs ' +
      'publish all the time, and much else';
    const title = titleFromText(text);
    expect(title).toBe(
      'Just shipped a new release of our parser, which handles JSON Feed items without titles, which microblogs publish all…',
    );
    expect(title.length).toBeLessThanOrEqual(maxDerivedTitleLength);
  });

  it('titles an item with no title of its own from its text', () => {
    const [normalised] = normaliseFeed(
      feedOf([
        parsedItem({
          guid: 'm1',
          url: 'https://m.example/1',
          contentHtml: '<p>The <b>council</b> voted 7–2 to approve the budget. Work starts in May.</p>',
        }),
      ]),
      sourceAt('https://m.example/feed.json'),
      0,
    );
    if (!normalised || !('article' in normalised)) throw new Error('expected an article');
    expect(normalised.article.title).toBe('The council voted 7–2 to approve the budget');
  });

  it('reads the text it titles an item from once: angle brackets and references in it are text', () => {
    const [normalised] = normaliseFeed(
      feedOf([
        parsedItem({
          guid: 'm2',
          url: 'https://m.example/2',
          contentHtml: '<p>Use std::vector&lt;int&gt; and write &amp;lt;b&amp;gt; to escape. More.</p>',
        }),
      ]),
      sourceAt('https://m.example/feed.json'),
      0,
    );
    if (!normalised || !('article' in normalised)) throw new Error('expected an article');
    expect(normalised.article.title).toBe('Use std::vector<int> and write &lt;b&gt; to escape');
  });
});

describe('an item whose only address is its enclosure', () => {
  const source = sourceAt('https://pod.example/feed.xml');

  it("is that file (a podcast's episode), and an item with a link keeps its link", () => {
    const [episode, page] = normaliseFeed(
      feedOf([
        parsedItem({ guid: 'ep1', title: 'Episode 1', enclosureUrl: 'https://cdn.pod.example/ep1.mp3' }),
        parsedItem({
          guid: 'ep2',
          title: 'Episode 2',
          url: 'https://pod.example/2',
          enclosureUrl: 'https://cdn.pod.example/ep2.mp3',
        }),
      ]),
      source,
      0,
    );
    expect(episode && 'article' in episode && episode.article.url).toBe('https://cdn.pod.example/ep1.mp3');
    expect(page && 'article' in page && page.article.url).toBe('https://pod.example/2');
  });

  it('is still skipped with neither link nor enclosure', () => {
    const [item] = normaliseFeed(feedOf([parsedItem({ guid: 'x', title: 'Nothing' })]), source, 0);
    expect(item).toEqual({ skipped: 'item "Nothing" has no usable link' });
  });
});

describe("an aggregator item's publisher", () => {
  const source = sourceAt('https://news.google.com/rss/search?q=rates');
  const itemFrom = (publisher: ParsedItem['publisher']) =>
    parsedItem({
      guid: 'g',
      title: 'Rates held - Reuters',
      url: 'https://news.google.com/rss/articles/1',
      publisher,
    });
  const publisherOf = (publisher: ParsedItem['publisher']) => {
    const [normalised] = normaliseFeed(feedOf([itemFrom(publisher)]), source, 0);
    if (!normalised || !('article' in normalised)) throw new Error('expected an article');
    const { publisher_name, publisher_url, title } = normalised.article;
    return { publisher_name, publisher_url, title };
  };

  it('is the named outlet as plain text and its canonical http(s) address', () => {
    expect(
      publisherOf({ name: ' Reuters ', url: 'https://www.Reuters.com?utm_source=google' }),
    ).toMatchObject({
      publisher_name: 'Reuters',
      publisher_url: 'https://www.reuters.com/',
    });
    expect(publisherOf({ name: 'Le <b>Monde</b> &amp; Co', url: null })).toMatchObject({
      publisher_name: 'Le Monde & Co',
      publisher_url: null,
    });
  });

  it("leaves the outlet's name off the end of the title, and any other ending on", () => {
    expect(publisherOf({ name: ' Reuters ', url: 'https://www.reuters.com' }).title).toBe('Rates held');
    expect(publisherOf({ name: 'REUTERS', url: null }).title).toBe('Rates held');
    expect(publisherOf({ name: 'Le Monde', url: null }).title).toBe('Rates held - Reuters');
    expect(publisherOf(null).title).toBe('Rates held - Reuters');
  });

  it('is never the feed itself: its own address in <source url> is no publisher', () => {
    // A Google News feed that names itself in <source> (the feed being polled, or its site).
    expect(publisherOf({ name: 'Reuters', url: 'https://news.google.com/rss/search?q=rates' })).toEqual({
      publisher_name: 'Reuters',
      publisher_url: null,
      title: 'Rates held',
    });
  });

  it('is null when the item names none, and drops an address that is not http(s) or a name that is blank', () => {
    expect(publisherOf(null)).toMatchObject({ publisher_name: null, publisher_url: null });
    expect(publisherOf({ name: '  ', url: 'javascript:alert(1)' })).toMatchObject({
      publisher_name: null,
      publisher_url: null,
    });
  });

  it('reads an RSS <source> so: the outlet off the title, the feed naming itself no publisher', () => {
    const articles = normaliseFeed(
      parseFeed(
        new TextEncoder().encode(`<rss version="2.0"><channel><title>Local Daily</title>
          <link>https://local.example/</link>
          <item><guid>1</guid><title>Rates held - Reuters</title><link>https://news.example/1</link>
          <source url="https://www.reuters.com">Reuters</source></item>
          <item><guid>2</guid><title>Fair opens - Local Daily</title><link>https://local.example/2</link>
          <source url="https://local.example/feed.xml">Local Daily</source></item></channel></rss>`),
        'application/rss+xml',
      ),
      sourceAt('https://local.example/feed.xml'),
      0,
    ).map((n) => {
      if (!('article' in n)) throw new Error(n.skipped);
      const { title, publisher_name, publisher_url } = n.article;
      return { title, publisher_name, publisher_url };
    });
    expect(articles).toEqual([
      { title: 'Rates held', publisher_name: 'Reuters', publisher_url: 'https://www.reuters.com/' },
      { title: 'Fair opens - Local Daily', publisher_name: null, publisher_url: null },
    ]);
  });

  it('keeps a name of at most 200 characters', () => {
    expect(publisherOf({ name: 'N'.repeat(500), url: null }).publisher_name).toHaveLength(200);
  });
});

describe('normaliseFeed and pictures', () => {
  it("takes the feed's picture, else the first of the item's HTML, resolved against the site", () => {
    const source = sourceState(
      {
        name: 'p',
        feed_url: 'https://blog.example/feed',
        category: 'general',
        language: 'en',
        country: 'us',
      },
      null,
      0,
    );
    const feed: ParsedFeed = {
      format: 'rss',
      title: null,
      siteUrl: 'https://blog.example/',
      language: 'en',
      items: [
        parsedItem({
          url: '/a',
          title: 'A',
          imageUrl: 'https://cdn.example/feed.jpg',
          summaryHtml: '<img src="/b.jpg">',
        }),
        parsedItem({
          url: '/b',
          title: 'B',
          summaryHtml: '<p>Text</p><img src="/uploads/b.jpg" width="800">',
        }),
        parsedItem({
          url: '/c',
          title: 'C',
          contentHtml: '<img src="https://cdn.example/c.png">',
          summaryHtml: 'x',
        }),
        parsedItem({
          url: '/d',
          title: 'D',
          summaryHtml: '<img src="https://t.example/p.gif" width="1" height="1">',
        }),
      ],
      warnings: [],
      hints: noHints,
    };
    expect(
      normaliseFeed(feed, source, 0).map((n) => ('article' in n ? n.article.image_url : n.skipped)),
    ).toEqual([
      'https://cdn.example/feed.jpg',
      'https://blog.example/uploads/b.jpg',
      'https://cdn.example/c.png',
      null,
    ]);
  });
});
