import { describe, expect, it } from 'vitest';
import {
  articleListQuery,
  articlesByKeyQuery,
  decodeCursor,
  encodeCursor,
  filterConditions,
  keyFacets,
  relevantKeysQuery,
} from './article-query.ts';
import { parseSearch } from './search-expression.ts';

describe('article list SQL', () => {
  it('sorts newest first with the id as tie-breaker and asks for one row more than the page', () => {
    const text = articleListQuery({}, { limit: 20, offset: 40 });
    // The rows the offset skips come too: each is checked against its latest revision (`matches`).
    expect(text).toContain(
      'ORDER BY published_at DESC, article_id DESC\n    LIMIT 1 BY article_id\n    LIMIT 61',
    );
    expect(articleListQuery({}, { limit: 20, offset: 40 }, true)).toMatch(
      /WHERE matches\)\nORDER BY published_at DESC, article_id DESC\nLIMIT 40, 21$/,
    );
    expect(text).toMatch(/ORDER BY published_at DESC, article_id DESC$/);
    // No filters: the keys come from the rows of every article, and so do the items.
    expect(text).toContain("FROM article_list WHERE facet IN ('')\n");
    expect(text).toContain("FROM article_list WHERE (facet = '') AND ((published_at, article_id) IN (");
    expect(text).not.toMatch(/FROM articles\b/);
  });

  it('reads the keys of a filtered list from the narrowest facet it names', () => {
    expect(keyFacets({})).toEqual(['']);
    expect(keyFacets({ languages: ['en'], categories: ['science', 'sport'] })).toEqual([
      'category:science',
      'category:sport',
    ]);
    expect(keyFacets({ languages: ['en'], sources: ['bbc', 'The Guardian'] })).toEqual([
      'source:bbc',
      'source:The Guardian',
      'source:the guardian',
      'source_name:bbc',
      'source_name:the guardian',
    ]);
    // An id in capitals names the id (ids are made in lowercase), as the docs say source is in any case.
    expect(keyFacets({ sources: ['SRC_1A2B'] })).toContain('source:src_1a2b');
    expect(articleListQuery({ sources: ['SRC_1A2B'] }, { limit: 20, offset: 0 })).toContain(
      "source_id IN ('SRC_1A2B', 'src_1a2b')",
    );
    // A search is checked against the text, which only the rows of every article carry.
    expect(keyFacets({ sources: ['bbc'], search: parseSearch('rates') })).toEqual(['']);
    const text = articleListQuery({ categories: ['science'], languages: ['en'] }, { limit: 20, offset: 0 });
    expect(text).toContain(
      "FROM article_list WHERE facet IN ('category:science') AND category IN ('science') AND language IN ('en')",
    );
  });

  it('reads a search in the content from articles, the only table that holds the content', () => {
    const text = articleListQuery(
      { search: parseSearch('rates'), searchIn: ['content'] },
      { limit: 20, offset: 0 },
    );
    expect(text).not.toContain('article_list');
    expect(text).toContain('FROM articles WHERE');
  });

  it('escapes every value: hostile input stays inside string literals', () => {
    const hostile = "x' OR 1=1 --\\'";
    const where = filterConditions({
      categories: [hostile],
      languages: [hostile],
      sources: [hostile],
      search: { kind: 'term', words: [hostile] },
    }).join(' AND ');
    // Each quote is escaped, so no literal ends early: removing the literals leaves only our SQL.
    const outside = where.replace(/'(?:[^'\\]|\\.)*'/g, "''");
    expect(outside).not.toMatch(/OR 1=1|--/);
    expect(where).toContain("'x\\' OR 1=1 --\\\\\\''");
  });

  it('bounds the publication window, ignoring bounds beyond what DateTime can hold', () => {
    const where = filterConditions({
      dateRange: { from: new Date('2026-01-01T00:00:00Z'), to: new Date('2026-02-01T00:00:00Z') },
    });
    expect(where).toEqual([
      "published_at >= toDateTime(1767225600, 'UTC')",
      "published_at < toDateTime(1769904000, 'UTC')",
    ]);
    expect(
      filterConditions({ dateRange: { from: new Date('1900-01-01'), to: new Date('2999-01-01') } }),
    ).toEqual([]);
    expect(filterConditions({ dateRange: { from: null, to: new Date('1950-01-01') } })).toEqual(['0']);
  });

  it('keeps an inclusive start and an exclusive end within a second: publication times are whole seconds', () => {
    // From 00:00:00.5 on, an article of 00:00:00 is before it; until 00:00:01.5, one of 00:00:01 is within.
    const where = filterConditions({
      dateRange: { from: new Date('2026-01-01T00:00:00.500Z'), to: new Date('2026-01-01T00:00:01.500Z') },
    });
    expect(where).toEqual([
      "published_at >= toDateTime(1767225601, 'UTC')",
      "published_at < toDateTime(1767225602, 'UTC')",
    ]);
  });

  it('continues after a cursor: older, or as old with a smaller id', () => {
    const text = articleListQuery(
      {},
      { limit: 5, offset: 0, after: { publishedAt: 1767225600, id: 'art_b' } },
    );
    expect(text).toContain(
      "(published_at < toDateTime(1767225600, 'UTC') OR (published_at = toDateTime(1767225600, 'UTC') AND article_id < 'art_b'))",
    );
  });

  it('round-trips cursors and refuses anything else', () => {
    const cursor = { publishedAt: 1767225600, id: 'art_ü' };
    expect(decodeCursor(encodeCursor(cursor))).toEqual(cursor);
    // A collapsed walk's, with the time it began.
    const collapsed = { ...cursor, asOf: 1767229200 };
    expect(decodeCursor(encodeCursor(collapsed))).toEqual(collapsed);
    for (const bad of [
      Buffer.from('[1767225600,"art_1",-5]').toString('base64url'),
      Buffer.from('[1767225600,"art_1","x"]').toString('base64url'),
      Buffer.from('[1767225600,"art_1",1767229200,1]').toString('base64url'),
      // a story cursor: [asOf, lastMatch, id]
      Buffer.from('[1767229200,1767225600,"sty_1"]').toString('base64url'),
      '',
      'abc',
      Buffer.from('[1,2]').toString('base64url'),
      Buffer.from('{"a":1}').toString('base64url'),
      // Times no DateTime holds (toDateTime would wrap them round), and an empty id.
      Buffer.from('[-1,"art_1"]').toString('base64url'),
      Buffer.from('[4294967296,"art_1"]').toString('base64url'),
      Buffer.from('[1e20,"art_1"]').toString('base64url'),
      Buffer.from('[1767225600,""]').toString('base64url'),
    ]) {
      expect(decodeCursor(bad), bad).toBeNull();
    }
  });

  it('finds q through the search index, checks the text of what it found, and not again by key', () => {
    const query = articleListQuery({ search: parseSearch('"interest rates"') }, { limit: 20, offset: 0 });
    // The index narrows the keys once; the text is matched there and again on the latest revision.
    expect(query.split('FROM article_postings').length - 1).toBe(1);
    // Postings are keyed by the hash of the article's id, which the list computes from its own.
    expect(query).toContain(
      '(published_at, cityHash64(article_id)) IN (SELECT published_at, article FROM article_postings',
    );
    expect(query.split('match(lowerUTF8(title)').length - 1).toBe(2);
    expect(query).toContain("match(lowerUTF8(title), '(?:^|(?:[^\\\\p{L}\\\\p{M}\\\\p{N}]|[\\\\p{Han}");
    expect(query).toContain('interest[^\\\\p{L}\\\\p{M}\\\\p{N}]+rates(?:$|');
    const scan = articleListQuery(
      { search: parseSearch('rates'), searchBy: 'scan' },
      { limit: 20, offset: 0 },
    );
    expect(scan).not.toContain('article_postings');
  });

  it('ranks by relevance, newest first among equals, and reads the page by key', () => {
    const keys = relevantKeysQuery(
      { search: parseSearch('rates'), categories: ['business'] },
      { limit: 10, offset: 30, sort: 'relevance' },
      {
        words: ['rates'],
        idf: [1.5],
        statistics: { documents: 10, meanLength: { title: 5, summary: 20 } },
      },
    );
    expect(keys).toMatch(/ORDER BY relevance DESC, published_at DESC, article_id DESC\nLIMIT 30, 11$/);
    expect(keys).toContain("category IN ('business')");
    const collapsed = relevantKeysQuery(
      { search: parseSearch('rates') },
      { limit: 10, offset: 0, sort: 'relevance', collapse: 'story' },
      {
        words: ['rates'],
        idf: [1.5],
        statistics: { documents: 10, meanLength: { title: 5, summary: 20 } },
      },
    );
    expect(collapsed).toContain('ANY LEFT JOIN (SELECT article_id');
    expect(collapsed).toContain("LIMIT 1 BY if(story_id = '', article_id, story_id)");
    const rows = articlesByKeyQuery([{ published_at: 1700000000, article_id: "it's" }], {
      search: parseSearch('rates'),
    });
    expect(rows).toContain("(published_at, article_id) IN ((toDateTime(1700000000, 'UTC'), 'it\\'s'))");
  });
});
