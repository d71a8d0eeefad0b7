import { describe, expect, it } from 'vitest';
import { escapeText } from 'entities';
import { parseJsonFeed } from './json-feed.ts';
import { parseFeed } from './parse-feed.ts';
import { ARTICLE_SLUGS, loadArticle } from './testdata/bbc/articles.ts';
import { readTestdata } from './testdata/read.ts';
import { reasonOf } from './testdata/read.ts';

const paragraphsOf = (html: string) =>
  [...html.matchAll(/<p>([\s\S]*?)<\/p>/g)].map((m) =>
    (m[1] ?? '').replace(/&(lt|gt|amp);/g, (_, name: string) =>
      name === 'lt' ? '<' : name === 'gt' ? '>' : '&',
    ),
  );

describe('JSON Feed 1.1 built from the BBC corpus (testdata/bbc.json)', () => {
  const feed = parseFeed(readTestdata('bbc.json'), 'application/feed+json');
  const [first, second, third] = ARTICLE_SLUGS.map(loadArticle);

  it('reads the feed', () => {
    expect(feed.format).toBe('json');
    expect(feed.title).toBe('BBC News sample');
    expect(feed.siteUrl).toBe('https://www.bbc.co.uk/news/');
    expect(feed.language).toBe('en-GB');
    expect(feed.items).toHaveLength(3);
  });

  it('content_html: every paragraph exact; summary is plain text, escaped; authors joined', () => {
    const item = feed.items[0];
    expect(item?.guid).toBe('bbc-business-001');
    expect(item?.url).toBe('https://www.bbc.co.uk/news/business-001');
    expect(item?.title).toBe('Ad sales boost Time Warner profit');
    expect(paragraphsOf(item?.contentHtml ?? '')).toEqual(first?.paragraphs);
    expect(item?.summaryHtml).toBe(escapeText(first?.summary ?? ''));
    expect(item?.author).toBe('Business reporter, Economics desk');
    expect(item?.publishedRaw).toBe('2005-02-14T09:30:00Z');
    expect(item?.published?.toISOString()).toBe('2005-02-14T09:30:00.000Z');
    expect(item?.categories).toEqual(['business']);
  });

  it('content_text only: the whole body escaped, used for content and summary; feed author inherited', () => {
    const item = feed.items[1];
    expect(item?.contentHtml).toBe(escapeText(second?.body ?? ''));
    expect(item?.contentHtml?.split('\n\n')).toHaveLength(second?.paragraphs.length ?? -1);
    expect(item?.summaryHtml).toBe(item?.contentHtml);
    expect(item?.url).toBe('https://www.bbc.co.uk/news/business-014'); // relative url, resolved
    expect(item?.author).toBe('BBC News');
  });

  it('content_html wins over content_text; external_url, image, audio attachment, language', () => {
    const item = feed.items[2];
    expect(paragraphsOf(item?.contentHtml ?? '')).toEqual(third?.paragraphs);
    expect(item?.summaryHtml).toBe(escapeText(third?.body ?? ''));
    expect(item?.url).toBe('https://www.bbc.co.uk/news/tech-005');
    expect(item?.publishedRaw).toBe('2005-02-16T18:45:10.250+01:00');
    expect(item?.published?.toISOString()).toBe('2005-02-16T17:45:10.250Z');
    expect(item?.categories).toEqual(['tech', 'arts']);
    expect(item?.language).toBe('en-GB');
    expect(item?.imageUrl).toBe('https://www.bbc.co.uk/images/tech-005.jpg');
    expect(item?.enclosureUrl).toBe('https://www.bbc.co.uk/audio/tech-005.mp3');
  });
});

describe('JSON Feed validation', () => {
  const v1 = (rest: object) =>
    JSON.stringify({ version: 'https://jsonfeed.org/version/1', title: 'T', ...rest });

  it('skips what is not an item and reports it; reads an item without an id with no guid', () => {
    const warnings: string[] = [];
    const feed = parseJsonFeed(
      v1({
        items: [
          { title: 'no id', url: 'https://example.com/a' },
          'not an object',
          { id: 42, title: 'numeric id' },
          { id: ' ', title: 'blank id' },
          { id: true, title: 'boolean id' },
          null,
        ],
      }),
      warnings,
    );
    expect(feed.items.map((item) => [item.guid, item.title, item.url])).toEqual([
      [null, 'no id', 'https://example.com/a'],
      ['42', 'numeric id', null],
      [null, 'blank id', null],
      [null, 'boolean id', null],
    ]);
    expect(warnings).toEqual(['2 JSON Feed item(s) skipped: not an object']);
  });

  it('reads JSON Feed 1.0 "author" objects', () => {
    const feed = parseJsonFeed(
      v1({
        author: { name: 'Feed Author' },
        items: [{ id: 'a', author: { name: 'Item Author' } }, { id: 'b' }],
      }),
    );
    expect(feed.items.map((item) => item.author)).toEqual(['Item Author', 'Feed Author']);
  });

  it('reads every 1.x version as written in the wild', () => {
    for (const version of [
      'https://jsonfeed.org/version/1',
      'https://jsonfeed.org/version/1.0',
      'https://jsonfeed.org/version/1.1/',
      'http://jsonfeed.org/version/1.2',
      'https://www.jsonfeed.org/version/1.1',
      'HTTPS://JSONFEED.ORG/VERSION/1',
    ])
      expect(parseJsonFeed(JSON.stringify({ version, items: [{ id: 'a' }] })).items.length, version).toBe(1);
  });

  it('refuses what is not a JSON Feed, with a reason', () => {
    expect(reasonOf(() => parseJsonFeed('{"version": "https://jsonfeed.org/version/2", "items": []}'))).toBe(
      'unsupported JSON Feed version: https://jsonfeed.org/version/2',
    );
    expect(reasonOf(() => parseJsonFeed('{"name": "package.json"}'))).toBe(
      'not a feed: JSON document without a JSON Feed "version"',
    );
    expect(reasonOf(() => parseJsonFeed(v1({ items: 'none' })))).toBe('JSON Feed has no "items" array');
    expect(reasonOf(() => parseJsonFeed('{"version": "https://jsonfeed.org/version/1", '))).toMatch(
      /^malformed JSON: /,
    );
  });
});
