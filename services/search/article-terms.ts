// The search index: the postings of each article (projections/migrations/0014_article_postings.sql). One
// posting per distinct term of the article's title and summary (its words, and the characters and pairs of
// characters of text written without spaces: indexedTerms, search-words.ts), with how often it occurs in each, keyed
// by numbers: the word's cityHash64 (termHash) and the article id's (articleKey). The fields' lengths in
// words, which BM25 needs beside the counts (relevance.ts), go on the article's list row (article-list.ts),
// from which the collection's size and mean lengths are read too. The projector writes the postings of a
// batch in key order (services/projector/posting-rows.ts).
//
// The content is not indexed. Measured with bench:api on 50,000 articles, its postings (about 90 of an
// article's 120) cut the projector from several thousand articles/s to 937, and their merges slowed
// every query on the two cores; a search in the content reads it instead (article-query.ts).
import type { ArticleDiscovered } from '../runtime/events/types.generated.ts';
import { cityHash64, hashText, type Hash64 } from './city-hash.ts';
import { indexedTerms, isIndexed } from './search-words.ts';

/** The fields of an article `q` can search (search_in). */
export const searchFields = ['title', 'summary', 'content'] as const;
export type SearchField = (typeof searchFields)[number];

/** The fields the index holds. */
export const indexedFields = ['title', 'summary'] as const;
export type IndexedField = (typeof indexedFields)[number];
export const isIndexedField = (f: SearchField): f is IndexedField =>
  (indexedFields as readonly string[]).includes(f);

/** An article's postings, the i-th of each array being the i-th term's. */
export type Postings = {
  terms: string[];
  title_tfs: number[];
  summary_tfs: number[];
  title_length: number;
  summary_length: number;
};

const maxCount = 65_535; // UInt16

/**
 * The postings of one revision of an article. A posting's key in `article_postings` is the term, then the
 * article's key in `articles`, so a later revision replaces the postings of the words it still has.
 * Words a revision dropped keep their old posting; the query reads the text of what the index found, so
 * they match nothing.
 */
export function articlePostings(article: Pick<ArticleDiscovered, 'title' | 'summary'>): Postings {
  const terms: string[] = [];
  const titleTfs: number[] = [];
  const summaryTfs: number[] = [];
  // Each word's place in the arrays: one map lookup per word, no object per posting (the projector
  // computes this for every article it writes).
  const place = new Map<string, number>();
  const count = (words: readonly string[], tfs: number[]) => {
    for (const word of words) {
      if (!isIndexed(word)) continue;
      let i = place.get(word);
      if (i === undefined) {
        i = terms.length;
        place.set(word, i);
        terms.push(word);
        titleTfs.push(0);
        summaryTfs.push(0);
      }
      if (tfs[i]! < maxCount) tfs[i]!++;
    }
  };
  const title = indexedTerms(article.title ?? '');
  const summary = indexedTerms(article.summary ?? '');
  count(title, titleTfs);
  count(summary, summaryTfs);
  return {
    terms,
    title_tfs: titleTfs,
    summary_tfs: summaryTfs,
    title_length: title.length,
    summary_length: summary.length,
  };
}

/** A word's key in `article_postings`: ClickHouse's cityHash64 of its UTF-8 bytes. */
export const termHash = (word: string): Hash64 => cityHash64(word);

/** A word's key as a UInt64 literal, for a query. */
export const termLiteral = (word: string): string => hashText(termHash(word));

/**
 * An article's key in `article_postings` beside its publication time: cityHash64 of its id, which a
 * query computes from the list's article_id with the same function.
 */
export const articleKey = (articleId: string): Hash64 => cityHash64(articleId);

/** The SQL that computes articleKey from a row's article_id. */
export const articleKeySql = 'cityHash64(article_id)';
