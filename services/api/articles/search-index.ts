// How `q` reads the search index (`article_postings`, services/search/article-terms.ts) instead of the
// text of every article: the index narrows the articles to those holding the query's words, and the
// text of only those is then checked against the whole expression (article-query.ts searchCondition),
// so the answer is the scan's answer, word for word. That check is also why the index may be keyed by
// hashes: two words with one cityHash64, or two articles of the same second with one, only add
// candidates, which their text then rules out. Pure, so it is unit tested.
import { raw, sql } from '../../runtime/clickhouse/literal.ts';
import { isIndexed, lookupTerms } from '../../search/search-words.ts';
import {
  articleKeySql,
  indexedFields,
  isIndexedField,
  termLiteral,
  type SearchField,
} from '../../search/article-terms.ts';
import type { SearchExpression } from './search-expression.ts';

/**
 * The postings of the fields searched (a word counts only where `search_in` looks); null when one of
 * them is not indexed (the content), which only reading the text can search.
 */
function inFields(fields: readonly SearchField[]): string[] | null {
  if (!fields.every(isIndexedField)) return null;
  if (indexedFields.every((f) => fields.includes(f))) return [];
  return [`(${fields.map((f) => `${f}_tf > 0`).join(' OR ')})`];
}

/** The condition on a row of the list that its article is among the postings' keys `index`. */
export const amongPostings = (index: string) => `(published_at, ${articleKeySql}) IN (${index})`;

/** The condition on postings that their term is one of these words'. */
export const termsCondition = (words: readonly string[]) =>
  words.length === 1 ? `term = ${termLiteral(words[0]!)}` : `term IN (${words.map(termLiteral).join(', ')})`;

/**
 * The keys (published_at, article) of a superset of the articles matching `e`, from the index; null
 * when the index cannot narrow them (a search in the content, which is not indexed; an expression that
 * only leaves out), and the text has to be read. `where` adds conditions on the postings' published_at (the date range).
 *
 * - a word: its postings; a phrase: the articles with every word of it (the text decides the order); a
 *   run of unspaced text: the articles with every pair of characters of it (lookupTerms);
 * - AND: the intersection of what its parts narrow to (a NOT part narrows nothing);
 * - OR: the union, when every branch narrows;
 * - NOT: nothing (the complement of a superset is not one).
 */
export function searchPrefilter(
  e: SearchExpression,
  fields: readonly SearchField[],
  where: readonly string[] = [],
): string | null {
  switch (e.kind) {
    case 'term': {
      const words = [...new Set(lookupTerms(e.words))].filter(isIndexed);
      const postings = inFields(fields);
      if (words.length === 0 || postings === null) return null;
      const conditions = [termsCondition(words), ...postings, ...where].join(' AND ');
      return words.length === 1
        ? `SELECT published_at, article FROM article_postings WHERE ${conditions}`
        : sql`SELECT published_at, article FROM article_postings WHERE ${raw(conditions)}
GROUP BY published_at, article HAVING uniqExact(term) = ${words.length}`;
    }
    case 'not':
      return null;
    case 'and': {
      const parts = e.items.map((i) => searchPrefilter(i, fields, where)).filter((p) => p !== null);
      if (parts.length === 0) return null;
      const [first, ...rest] = parts;
      if (rest.length === 0) return first!;
      const within = rest.map((p) => `(published_at, article) IN (${p})`).join(' AND ');
      return `SELECT published_at, article FROM (${first}) WHERE ${within}`;
    }
    case 'or': {
      const parts = e.items.map((i) => searchPrefilter(i, fields, where));
      if (parts.some((p) => p === null)) return null;
      return `SELECT published_at, article FROM (${parts.join(' UNION ALL ')})`;
    }
  }
}

/**
 * The index terms whose presence makes an article relevant: those of every term not negated (an odd
 * number of NOTs above it), once each, as the index files them (lookupTerms).
 */
export function positiveWords(e: SearchExpression, negated = false): string[] {
  const words = new Set<string>();
  const walk = (x: SearchExpression, not: boolean) => {
    if (x.kind === 'term') {
      if (!not) for (const w of lookupTerms(x.words)) if (isIndexed(w)) words.add(w);
    } else if (x.kind === 'not') walk(x.item, !not);
    else for (const item of x.items) walk(item, not);
  };
  walk(e, negated);
  return [...words];
}
