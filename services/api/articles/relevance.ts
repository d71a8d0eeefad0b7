// sort_by=relevance: BM25F over the fields `q` searches (Robertson & Zaragoza, "The Probabilistic
// Relevance Framework: BM25 and Beyond", 2009). Each word's counts in the title, summary and content are
// normalised by the field's length against the collection's mean and weighted (the title counts
// double), summed, saturated with k1, and weighted by the word's idf over the whole collection; an
// article's relevance is the sum over the query's words that are not negated. Ties (and equal scores
// up to 1e-6) go to the newer article. Pure, so it is unit tested; article-store.ts runs it.
import { inList, raw, sql } from '../../runtime/clickhouse/literal.ts';
import type { SearchField } from '../../search/article-terms.ts';

export const bm25 = { k1: 1.2, b: 0.75 } as const;
export const fieldWeights: Record<SearchField, number> = { title: 2, summary: 1, content: 1 };

/** The collection as relevance sees it: its size and each field's mean length in words. */
export interface CollectionStatistics {
  documents: number;
  meanLength: Record<SearchField, number>;
}

/** Read from the empty term's postings, one per article (article-terms.ts). */
export const collectionStatisticsQuery = `SELECT count() AS documents,
  avg(title_length) AS title, avg(summary_length) AS summary, avg(content_length) AS content
FROM article_terms WHERE term = ''`;

/** How many articles hold each word (replayed postings not yet merged count twice: idf barely moves). */
export const documentCountsQuery = (words: readonly string[]) =>
  sql`SELECT term, count() AS documents FROM article_terms WHERE term IN ${inList(words)} GROUP BY term`;

/** BM25's idf, which stays positive for a word in more than half the articles. */
export function inverseDocumentFrequency(documents: number, holding: number): number {
  const n = Math.max(documents, holding);
  return Math.log(1 + (n - holding + 0.5) / (holding + 0.5));
}

/**
 * The relevance of each article in `candidates` (a query of the keys that match every filter) for the
 * words, highest first, then newest: rows of (published_at, article_id, relevance). `idf` is each
 * word's weight. Postings of one article and word written twice (a replay not yet merged, a
 * revision) count once, the newest.
 */
export function relevanceQuery(options: {
  words: readonly string[];
  idf: readonly number[];
  fields: readonly SearchField[];
  statistics: CollectionStatistics;
  candidates: string;
  where: readonly string[];
}): string {
  const { k1, b } = bm25;
  // The weighted, length-normalised count of the word over the fields searched.
  const weighted = options.fields
    .map((f) => {
      const mean = Math.max(options.statistics.meanLength[f], 1);
      return `${fieldWeights[f]} * count_${f} / (${1 - b} + ${b} * length_${f} / ${mean})`;
    })
    .join(' + ');
  const columns = options.fields
    .flatMap((f) => [`argMax(${f}_tf, version) AS count_${f}`, `argMax(${f}_length, version) AS length_${f}`])
    .join(', ');
  const where = [sql`term IN ${inList(options.words)}`, ...options.where].join(' AND ');
  return sql`SELECT published_at, article_id, round(sum(weight), 6) AS relevance FROM (
  SELECT published_at, article_id, transform(term, ${options.words}, ${options.idf.map(Number)}, 0.) * tf * ${k1 + 1} / (tf + ${k1}) AS weight
  FROM (
    SELECT published_at, article_id, term, ${raw(weighted)} AS tf FROM (
      SELECT published_at, article_id, term, ${raw(columns)}
      FROM article_terms
      WHERE ${raw(where)} AND (published_at, article_id) IN (${raw(options.candidates)})
      GROUP BY published_at, article_id, term
    )
  )
)
GROUP BY published_at, article_id`;
}
