import { describe, expect, it } from 'vitest';
import { termLiteral } from '../../search/article-terms.ts';
import { inverseDocumentFrequency, relevanceQuery } from './relevance.ts';

describe('relevance', () => {
  it('weighs rare words above common ones, and keeps a word in most articles positive', () => {
    const rare = inverseDocumentFrequency(1000, 3);
    const common = inverseDocumentFrequency(1000, 900);
    expect(rare).toBeGreaterThan(common);
    expect(common).toBeGreaterThan(0);
    // Counts ahead of a stale collection size never go negative.
    expect(inverseDocumentFrequency(10, 50)).toBeGreaterThan(0);
  });

  it('scores only the indexed fields searched, normalised by their mean length, within the candidates', () => {
    const query = relevanceQuery({
      words: ['fed', 'rates'],
      idf: [2.5, 1.25],
      fields: ['title', 'content'],
      statistics: { documents: 100, meanLength: { title: 0, summary: 30 } },
      candidates: 'SELECT published_at, article_id FROM articles',
      where: [],
    });
    // Words by their keys in the index.
    expect(query).toContain(
      `transform(term, [${termLiteral('fed')}, ${termLiteral('rates')}], [2.5, 1.25], 0.)`,
    );
    expect(query).toContain(`term IN (${termLiteral('fed')}, ${termLiteral('rates')})`);
    // An empty field everywhere has no mean: it counts as 1, not a division by zero.
    expect(query).toContain('2 * count_title / (0.25 + 0.75 * length_title / 1)');
    expect(query).not.toContain('summary_tf');
    expect(query).not.toContain('content_tf');
    // Every candidate is in the answer, with its lengths from its list row, scored or not (found in its
    // content only: 0), its postings found by the hash of its id.
    expect(query).toContain(
      "FROM article_list\n      WHERE facet = '' AND (published_at, article_id) IN (SELECT DISTINCT published_at, article_id FROM (SELECT published_at, article_id FROM articles))",
    );
    expect(query).toContain('ALL LEFT JOIN');
    expect(query).toContain(
      '(published_at, article) IN (SELECT published_at, cityHash64(article_id) FROM (SELECT DISTINCT published_at, article_id',
    );
    expect(query).toMatch(/GROUP BY published_at, article_id$/);
  });

  it('scores a search in the content alone 0 for every candidate, which leaves them newest first', () => {
    const query = relevanceQuery({
      words: ['fed'],
      idf: [2.5],
      fields: ['content'],
      statistics: { documents: 100, meanLength: { title: 8, summary: 30 } },
      candidates: 'SELECT published_at, article_id FROM articles',
      where: [],
    });
    expect(query).toBe(
      'SELECT published_at, article_id, 0 AS relevance FROM (SELECT DISTINCT published_at, article_id FROM (SELECT published_at, article_id FROM articles))',
    );
  });
});
