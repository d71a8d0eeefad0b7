import { describe, expect, it } from 'vitest';
import { articleTermRows } from './article-terms.ts';
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
  const rows = articleTermRows(article, 1_700_000_000, 42);
  const row = (term: string) => rows.find((r) => r.term === term);

  it('count each word in the title and summary, with both lengths beside it', () => {
    expect(row('rates')).toEqual({
      term: 'rates',
      published_at: 1_700_000_000,
      article_id: 'a1',
      title_tf: 2,
      summary_tf: 1,
      title_length: 4,
      summary_length: 4,
      version: 42,
    });
  });

  it('leave the content out', () => {
    expect(row('bank')).toBeUndefined();
  });

  it('file every article under the empty term, and each word once', () => {
    expect(row('')).toMatchObject({ title_tf: 0, summary_tf: 0, title_length: 4, summary_length: 4 });
    expect(new Set(rows.map((r) => r.term)).size).toBe(rows.length);
  });

  it('leave out words longer than 64 characters, though they count in the length', () => {
    expect(rows.some((r) => r.term.length > 64)).toBe(false);
    expect(row('')!.summary_length).toBe(4);
  });
});
