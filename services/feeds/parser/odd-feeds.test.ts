// The odd corpus (testdata/odd/): one feed per structure, field or breakage that
// aggregators meet in the wild, each checked field by field against the
// expectation beside it.

import { describe, expect, it } from 'vitest';
import { parseFeed } from './parse-feed.ts';
import {
  articleViews,
  oddFeedNames,
  readOddExpectation,
  readOddFeed,
  requiredFields,
  type ArticleView,
} from './testdata/odd-feeds.ts';

describe('the odd corpus', () => {
  it('has a feed for every class of oddity, each with its expectation', () => {
    expect(oddFeedNames().length).toBeGreaterThanOrEqual(19);
    for (const name of oddFeedNames()) expect(readOddExpectation(name).about).not.toBe('');
  });

  describe.each(oddFeedNames())('%s', (name) => {
    const expected = readOddExpectation(name);
    const feed = parseFeed(readOddFeed(name), null, { baseUrl: expected.baseUrl ?? null });
    const views = articleViews(feed);

    it(`${expected.about} (feed fields and warnings)`, () => {
      expect({ title: feed.title, siteUrl: feed.siteUrl, language: feed.language }).toEqual(expected.feed);
      expect(feed.warnings).toHaveLength(expected.warnings.length);
      expected.warnings.forEach((start, i) => expect(feed.warnings[i]?.startsWith(start)).toBe(true));
      expect(views).toHaveLength(expected.articles.length);
    });

    const rows = expected.articles.flatMap((article, index) =>
      (Object.keys(article) as (keyof ArticleView)[]).map((field) => ({
        index,
        field,
        value: article[field],
      })),
    );
    it.each(rows)('article $index: $field', ({ index, field, value }) => {
      expect(views[index]?.[field]).toEqual(value);
    });

    it('states every required field of every article', () => {
      for (const article of expected.articles)
        expect(Object.keys(article)).toEqual(expect.arrayContaining([...requiredFields]));
    });
  });
});
