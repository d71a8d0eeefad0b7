// sort_by=relevance: BM25F over the indexed fields `q` searches (Robertson & Zaragoza, "The Probabilistic
// Relevance Framework: BM25 and Beyond", 2009). Each word's counts in the title and summary are
// normalised by the field's length against the collection's mean and weighted (the title counts
// double), summed, saturated with k1, and weighted by the word's idf over the whole collection; an
// article's relevance is the sum over the query's words that are not negated. The content is not
// indexed (services/search/article-terms.ts) and adds nothing: an article found only in its content
// ranks after those found in the title or summary. Ties (and equal scores up to 1e-6) go to the newer
// article. Pure, so it is unit tested; article-store.ts runs it.
import { raw, sql } from '../../runtime/clickhouse/literal.ts';
import {
  articleKeySql,
  isIndexedField,
  termLiteral,
  type IndexedField,
  type SearchField,
} from '../../search/article-terms.ts';
import { termsCondition } from './search-index.ts';

export const bm25 = { k1: 1.2, b: 0.75 } as const;
export const fieldWeights: Record<IndexedField, number> = { title: 2, summary: 1 };

/** The collection as relevance sees it: its size and each indexed field's mean length in words. */
export interface CollectionStatistics {
  documents: number;
  meanLength: Record<IndexedField, number>;
}

/** Read from the list's row of every article (facet ''), which carries the fields' lengths. */
export const collectionStatisticsQuery = `SELECT count() AS documents,
  avg(title_length) AS title, avg(summary_length) AS summary
FROM article_list WHERE facet = ''`;

/**
 * How many articles hold each word, by the word's key (termLiteral) as text; replayed postings not yet merged
 * count twice: idf barely moves.
 */
export const documentCountsQuery = (words: readonly string[]) =>
  `SELECT toString(term) AS key, count() AS documents FROM article_postings WHERE ${termsCondition(words)} GROUP BY term`;

/** BM25's idf, which stays positive for a word in more than half the articles. */
export function inverseDocumentFrequency(documents: number, holding: number): number {
  const n = Math.max(documents, holding);
  return Math.log(1 + (n - holding + 0.5) / (holding + 0.5));
}

/**
 * The relevance of each article in `candidates` (a query of the keys that match every filter) for the
 * words: rows of (published_at, article_id, relevance), each article once. `idf` is each word's weight.
 * Postings of one article and word written twice (a replay not yet merged, a revision) count once, the
 * newest, as do the lengths on its list rows. An article the index has no posting of the words for
 * (found in its content) scores 0.
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
  const candidates = `SELECT DISTINCT published_at, article_id FROM (${options.candidates})`;
  const fields = options.fields.filter(isIndexedField);
  if (fields.length === 0 || options.words.length === 0)
    return `SELECT published_at, article_id, 0 AS relevance FROM (${candidates})`;
  // The weighted, length-normalised count of the word over the indexed fields searched.
  const weighted = fields
    .map((f) => {
      const mean = Math.max(options.statistics.meanLength[f], 1);
      return `${fieldWeights[f]} * count_${f} / (${1 - b} + ${b} * length_${f} / ${mean})`;
    })
    .join(' + ');
  const counts = fields.map((f) => `argMax(${f}_tf, version) AS count_${f}`).join(', ');
  const lengths = fields.map((f) => `argMax(${f}_length, version) AS length_${f}`).join(', ');
  const where = [termsCondition(options.words), ...options.where].join(' AND ');
  const terms = `[${options.words.map(termLiteral).join(', ')}]`;
  // Each candidate with its fields' lengths (from its newest list row) and, through its key in the index,
  // its postings of the words; a candidate without any (found in its content) keeps one row of zeros.
  return sql`SELECT published_at, article_id, round(sum(weight), 6) AS relevance FROM (
  SELECT published_at, article_id, transform(term, ${raw(terms)}, ${options.idf.map(Number)}, 0.) * tf * ${k1 + 1} / (tf + ${k1}) AS weight
  FROM (
    SELECT published_at, article_id, term, ${raw(weighted)} AS tf FROM (
      SELECT published_at, article_id, ${raw(articleKeySql)} AS article, ${raw(lengths)}
      FROM article_list
      WHERE facet = '' AND (published_at, article_id) IN (${raw(candidates)})
      GROUP BY published_at, article_id
    )
    ALL LEFT JOIN (
      SELECT published_at, article, term, ${raw(counts)}
      FROM article_postings
      WHERE ${raw(where)} AND (published_at, article) IN (SELECT published_at, ${raw(articleKeySql)} FROM (${raw(candidates)}))
      GROUP BY published_at, article, term
    ) USING (published_at, article)
  )
)
GROUP BY published_at, article_id`;
}
