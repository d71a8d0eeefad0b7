// The search index: the postings the projector writes to `article_terms` for each article
// (projections/migrations/0011_article_terms.sql). One row per distinct word of the article's title and
// summary, with how often it occurs in each and each one's length in words, which is what BM25 needs
// (relevance.ts); plus one row under the empty term, which every article has, carrying the lengths
// alone, from which the collection's size and mean lengths are read.
//
// The content is not indexed. Measured with bench:api on 50,000 articles, its postings (about 90 of an
// article's 120) cut the projector from several thousand articles/s to 937, and their merges slowed
// every query on the two cores; a search in the content reads it instead (article-query.ts).
import type { ArticleDiscovered } from '../runtime/events/types.generated.ts';
import { isIndexed, searchWords } from './search-words.ts';

/** The fields of an article `q` can search (search_in). */
export const searchFields = ['title', 'summary', 'content'] as const;
export type SearchField = (typeof searchFields)[number];

/** The fields the index holds. */
export const indexedFields = ['title', 'summary'] as const;
export type IndexedField = (typeof indexedFields)[number];
export const isIndexedField = (f: SearchField): f is IndexedField =>
  (indexedFields as readonly string[]).includes(f);

export type TermRow = {
  term: string;
  published_at: number;
  article_id: string;
  title_tf: number;
  summary_tf: number;
  title_length: number;
  summary_length: number;
  version: number;
};

const maxCount = 65_535; // UInt16

/**
 * The postings of one revision of an article. `publishedAt` is the article's place in `articles`
 * (revision 1's publication time, in unix seconds): a posting's key is the article's key after its
 * term, so a later revision replaces the postings of the words it still has. Words a revision dropped
 * keep their old posting; the query reads the text of what the index found, so they match nothing.
 */
export function articleTermRows(
  article: Pick<ArticleDiscovered, 'article_id' | 'title' | 'summary'>,
  publishedAt: number,
  version: number,
): TermRow[] {
  const counts = new Map<string, [number, number]>();
  const lengths = indexedFields.map((field, i) => {
    const words = searchWords(article[field] ?? '');
    for (const word of words) {
      if (!isIndexed(word)) continue;
      let tf = counts.get(word);
      if (!tf) counts.set(word, (tf = [0, 0]));
      tf[i] = Math.min(tf[i]! + 1, maxCount);
    }
    return words.length;
  });
  const row = (term: string, [title, summary]: [number, number]): TermRow => ({
    term,
    published_at: publishedAt,
    article_id: article.article_id,
    title_tf: title,
    summary_tf: summary,
    title_length: lengths[0]!,
    summary_length: lengths[1]!,
    version,
  });
  return [row('', [0, 0]), ...[...counts].map(([term, tf]) => row(term, tf))];
}
