import { describe, expect, it } from 'vitest';
import { parseSearch } from './search-expression.ts';
import { termLiteral } from '../../search/article-terms.ts';
import { positiveWords, searchPrefilter } from './search-index.ts';

const prefilter = (q: string, fields: ('title' | 'summary' | 'content')[] = ['title', 'summary']) =>
  searchPrefilter(parseSearch(q), fields);

describe('the search index prefilter', () => {
  it('reads the postings of a word in the fields searched', () => {
    // Title and summary are all the index holds: every posting of the word is in one of them.
    // By the word's key: its cityHash64, which is what ClickHouse answers to cityHash64('rates').
    expect(termLiteral('rates')).toBe('16893106533131095651');
    expect(prefilter('rates')).toBe(
      'SELECT published_at, article FROM article_postings WHERE term = 16893106533131095651',
    );
    expect(prefilter('rates', ['title'])).toBe(
      'SELECT published_at, article FROM article_postings WHERE term = 16893106533131095651 AND (title_tf > 0)',
    );
    // The content is not indexed: a search in it reads the text.
    expect(prefilter('rates', ['title', 'summary', 'content'])).toBeNull();
  });

  it('keeps the articles with every word of a phrase', () => {
    expect(prefilter('"interest rates"', ['summary'])).toContain(
      `WHERE term IN (${termLiteral('interest')}, ${termLiteral('rates')}) AND (summary_tf > 0)\nGROUP BY published_at, article HAVING uniqExact(term) = 2`,
    );
  });

  it('keeps the articles with every pair of characters of an unspaced run, and one character by itself', () => {
    expect(prefilter('首相が辞任')).toContain(
      `WHERE term IN (${['首相', '相が', 'が辞', '辞任'].map(termLiteral).join(', ')})\nGROUP BY published_at, article HAVING uniqExact(term) = 4`,
    );
    expect(prefilter('米')).toBe(
      `SELECT published_at, article FROM article_postings WHERE term = ${termLiteral('米')}`,
    );
    // A pair met twice is one term the articles need.
    expect(prefilter('ははは')).toBe(
      `SELECT published_at, article FROM article_postings WHERE term = ${termLiteral('はは')}`,
    );
    expect(positiveWords(parseSearch('G7サミット -中国'))).toEqual(['g7', 'サミ', 'ミッ', 'ット']);
  });

  it('intersects AND, unites OR, and leaves NOT to the text', () => {
    const and = prefilter('fed rates -china')!;
    expect(and).toContain(`term = ${termLiteral('fed')}`);
    expect(and).toContain(
      `(published_at, article) IN (SELECT published_at, article FROM article_postings WHERE term = ${termLiteral('rates')}`,
    );
    expect(and).not.toContain(termLiteral('china'));
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
