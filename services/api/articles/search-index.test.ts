import { describe, expect, it } from 'vitest';
import { parseSearch } from './search-expression.ts';
import { positiveWords, searchPrefilter } from './search-index.ts';

const prefilter = (q: string, fields: ('title' | 'summary' | 'content')[] = ['title', 'summary']) =>
  searchPrefilter(parseSearch(q), fields);

describe('the search index prefilter', () => {
  it('reads the postings of a word in the fields searched', () => {
    // Title and summary are all the index holds: every posting of the word is in one of them.
    expect(prefilter('rates')).toBe(
      "SELECT published_at, article_id FROM article_terms WHERE term = 'rates'",
    );
    expect(prefilter('rates', ['title'])).toBe(
      "SELECT published_at, article_id FROM article_terms WHERE term = 'rates' AND (title_tf > 0)",
    );
    // The content is not indexed: a search in it reads the text.
    expect(prefilter('rates', ['title', 'summary', 'content'])).toBeNull();
  });

  it('keeps the articles with every word of a phrase', () => {
    expect(prefilter('"interest rates"', ['summary'])).toContain(
      "WHERE term IN ('interest', 'rates') AND (summary_tf > 0)\nGROUP BY published_at, article_id HAVING uniqExact(term) = 2",
    );
  });

  it('intersects AND, unites OR, and leaves NOT to the text', () => {
    const and = prefilter('fed rates -china')!;
    expect(and).toContain("term = 'fed'");
    expect(and).toContain(
      "(published_at, article_id) IN (SELECT published_at, article_id FROM article_terms WHERE term = 'rates'",
    );
    expect(and).not.toContain('china');
    const or = prefilter('fed OR ecb')!;
    expect(or).toContain('UNION ALL');
    // A branch the index cannot narrow makes the whole OR unnarrowable.
    expect(prefilter('fed OR (rates -china)')).not.toBeNull();
    expect(
      searchPrefilter(
        { kind: 'or', items: [parseSearch('fed'), { kind: 'not', item: parseSearch('ecb') }] },
        ['title'],
      ),
    ).toBeNull();
  });

  it('finds the words that make an article relevant: those not negated', () => {
    expect(positiveWords(parseSearch('"interest rates" (fed OR ecb) -china NOT (japan -yen)'))).toEqual([
      'interest',
      'rates',
      'fed',
      'ecb',
      'yen',
    ]);
  });
});
