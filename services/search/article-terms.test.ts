import { describe, expect, it } from 'vitest';
import { articlePostings, termLiteral } from './article-terms.ts';
import { searchWords } from './search-words.ts';

describe('search words', () => {
  it('are runs of letters and digits, lowercased, in any script', () => {
    expect(searchWords('U.S. anti-spyware, 2004: Über-Straße — «Привет» 東京')).toEqual([
      'u',
      's',
      'anti',
      'spyware',
      '2004',
      'über',
      'straße',
      'привет',
      '東京',
    ]);
  });
});

describe('article postings', () => {
  const article = {
    article_id: 'a1',
    title: 'Rates rise, rates fall',
    summary: `Interest rates moved ${'x'.repeat(65)}`,
    content: 'The bank moved rates.',
  };
  const postings = articlePostings(article);
  const posting = (term: string) => {
    const i = postings.terms.indexOf(term);
    return i < 0 ? undefined : { title_tf: postings.title_tfs[i], summary_tf: postings.summary_tfs[i] };
  };

  it('count each word in the title and summary, with both lengths beside them', () => {
    expect(posting('rates')).toEqual({ title_tf: 2, summary_tf: 1 });
    expect(posting('interest')).toEqual({ title_tf: 0, summary_tf: 1 });
    expect(posting('fall')).toEqual({ title_tf: 1, summary_tf: 0 });
    expect(postings).toMatchObject({ title_length: 4, summary_length: 4 });
  });

  it('leave the content out', () => {
    expect(posting('bank')).toBeUndefined();
  });

  it('file each word once, in order of appearance', () => {
    expect(postings.terms).toEqual(['rates', 'rise', 'fall', 'interest', 'moved']);
    expect(postings.title_tfs).toHaveLength(postings.terms.length);
    expect(postings.summary_tfs).toHaveLength(postings.terms.length);
  });

  it('leave out words longer than 64 characters, though they count in the length', () => {
    expect(postings.terms.some((t) => t.length > 64)).toBe(false);
    expect(postings.summary_length).toBe(4);
  });

  it('file text written without spaces by its characters and pairs of characters', () => {
    const japanese = articlePostings({ title: '首相が辞任', summary: 'G7で首相' });
    expect(japanese.terms).toEqual([
      '首',
      '首相',
      '相',
      '相が',
      'が',
      'が辞',
      '辞',
      '辞任',
      '任',
      'g7',
      'で',
      'で首',
    ]);
    expect(japanese.title_tfs[japanese.terms.indexOf('首相')]).toBe(1);
    expect(japanese.summary_tfs[japanese.terms.indexOf('首相')]).toBe(1);
    expect(japanese).toMatchObject({ title_length: 9, summary_length: 6 });
  });

  it('stop counting at what a UInt16 holds', () => {
    const long = articlePostings({ title: 'go '.repeat(70_000), summary: '' });
    expect(long.title_tfs[long.terms.indexOf('go')]).toBe(65_535);
    expect(long.title_length).toBe(70_000);
  });
});

describe('term keys', () => {
  it("are the word's cityHash64, as ClickHouse computes it from the word", () => {
    // SELECT cityHash64('world'), cityHash64('über') on ClickHouse 18.16.
    expect(termLiteral('world')).toBe('3839149080076100810');
    expect(termLiteral('über')).toBe('11553103551263864949');
  });
});
