// The SQL behind GET /v1/articles: filters, the sort (newest first, then id, so
// equal timestamps still have one order) and the page. Pure, so it is unit
// tested; every value goes through sql`` (literal escaping).
import { latestRows, latestVersions } from '../../runtime/clickhouse/latest-versions.ts';
import { inList, isDateTimeSeconds, raw, sql } from '../../runtime/clickhouse/literal.ts';
import type { DateRange } from '../http/date-range.ts';
import { membersOf, storyMembership } from '../stories/story-membership.ts';
import { facet } from '../../search/article-list.ts';
import type { SearchField } from '../../search/article-terms.ts';
import { wordsPattern } from '../../search/search-words.ts';
import type { SearchExpression } from './search-expression.ts';
import { amongPostings, searchPrefilter } from './search-index.ts';
import { relevanceQuery, type CollectionStatistics } from './relevance.ts';

export { searchFields, type SearchField } from '../../search/article-terms.ts';

export interface ArticleFilter {
  categories?: readonly string[];
  languages?: readonly string[];
  /** Source ids or names (names compared case-insensitively). */
  sources?: readonly string[];
  dateRange?: DateRange;
  /** The parsed `q` (search-expression.ts). */
  search?: SearchExpression;
  /** Where `search` looks; default title and summary. */
  searchIn?: readonly SearchField[];
  /**
   * How `search` finds its articles: through the search index (search-index.ts), or by reading the text
   * of every article in the other filters' range, as before the index (kept to check the index against).
   */
  searchBy?: 'index' | 'scan';
  /** Only the articles of this story. */
  storyId?: string;
  /** Articles whose latest successful enrichment names any of these entities (case-insensitive). */
  entities?: readonly string[];
  /** Articles whose latest successful enrichment has any of these sentiment labels. */
  sentiments?: readonly string[];
}

/** Where a keyset walk stopped: the last item of the previous page. */
export interface Cursor {
  publishedAt: number;
  id: string;
  /**
   * A walk with `collapse=story`: the first page's time (Unix seconds). Articles above the cursor found
   * after it are left out of the later pages, so a story is represented as it was when the walk began.
   */
  asOf?: number;
}

export interface Page {
  limit: number;
  offset: number;
  after?: Cursor;
  /** One article per story (its newest that matches), and each article without a story. */
  collapse?: 'story';
  /** Newest first (the default), or most relevant to `search` first (relevance.ts). */
  sort?: 'published_at' | 'relevance';
}

/** An article's key in `articles`: where it sits in the table, and so how it is read by key. */
export interface ArticleKey {
  published_at: number | string;
  article_id: string;
}

// DateTime's range on every ClickHouse release: a bound outside it is no bound.
const minTime = Date.UTC(1970, 0, 2);
const maxTime = Date.UTC(2105, 11, 31);

export function filterConditions(filter: ArticleFilter): string[] {
  return [...contentConditions(filter), ...dateConditions(filter)];
}

export const defaultSearchFields: readonly SearchField[] = ['title', 'summary'];

/**
 * The conditions on what a revision may change (everything but the publication window, which is on
 * the sort key every revision of an article shares). `narrowed`: the keys are already the page's, so
 * the search index need not narrow them again.
 */
export function contentConditions(filter: ArticleFilter, narrowed = false): string[] {
  const where: string[] = [];
  if (filter.categories?.length) where.push(sql`category IN ${inList(filter.categories)}`);
  if (filter.languages?.length) where.push(sql`language IN ${inList(filter.languages)}`);
  const enrichment: string[] = [];
  if (filter.entities?.length) {
    const names = filter.entities.map((e) => e.toLowerCase());
    enrichment.push(sql`arrayExists(n -> has(${names}, lowerUTF8(n)), entity_names)`);
  }
  if (filter.sentiments?.length) enrichment.push(sql`sentiment_label IN ${inList(filter.sentiments)}`);
  if (enrichment.length) {
    const enriched = latestVersions({
      table: 'article_enrichments',
      key: 'article_id',
      columns: ['entity_names', 'sentiment_label'],
      where: [sql`status = 'succeeded'`],
    });
    where.push(
      sql`article_id IN (SELECT article_id FROM ${enriched} WHERE ${raw(enrichment.join(' AND '))})`,
    );
  }
  if (filter.storyId !== undefined)
    where.push(sql`article_id IN (SELECT article_id FROM ${membersOf([filter.storyId])})`);
  if (filter.sources?.length) {
    const names = filter.sources.map((s) => s.toLowerCase());
    where.push(
      sql`(source_id IN ${inList(sourceIdForms(filter.sources))} OR lowerUTF8(source_name) IN ${inList(names)})`,
    );
  }
  if (filter.search) {
    const fields = filter.searchIn ?? defaultSearchFields;
    const index =
      filter.searchBy === 'scan' || narrowed
        ? null
        : searchPrefilter(filter.search, fields, dateConditions(filter));
    // Through the primary key: only the articles the index found are read, and only their text is matched.
    if (index) where.push(amongPostings(index));
    where.push(searchCondition(filter.search, fields));
  }
  return where;
}

/**
 * The text of each field a search looks in, as an article shows it: an article whose feed carried only a
 * description shows that as its `content` (article-store.ts), so `search_in=content` finds its words there.
 */
const fieldText: Record<SearchField, string> = {
  title: 'title',
  summary: 'summary',
  content: 'if(empty(content), summary, content)',
};

/**
 * The condition for a search expression: a term matches when one of the fields holds its words next to
 * each other, in any case (wordsPattern, search-words.ts: whole words, or anywhere for unspaced text). The
 * text is lowercased rather than the pattern made case-insensitive, because 18.16 misses "Ü" for "(?i)...ü" once the pattern has a group
 * before it. The cheap substring test narrows the rows the regular expression has to look at.
 */
export function searchCondition(e: SearchExpression, fields: readonly SearchField[]): string {
  switch (e.kind) {
    case 'term': {
      const pattern = wordsPattern(e.words, 're2');
      const longest = e.words.reduce((a, b) => (b.length > a.length ? b : a));
      const inField = fields.map(
        (f) =>
          sql`(positionCaseInsensitiveUTF8(${raw(fieldText[f])}, ${longest}) > 0 AND match(lowerUTF8(${raw(fieldText[f])}), ${pattern}))`,
      );
      return `(${inField.join(' OR ')})`;
    }
    case 'not':
      return `NOT ${searchCondition(e.item, fields)}`;
    case 'and':
      return `(${e.items.map((i) => searchCondition(i, fields)).join(' AND ')})`;
    case 'or':
      return `(${e.items.map((i) => searchCondition(i, fields)).join(' OR ')})`;
  }
}

/** The publication window, on published_at: revision 1's publication time, shared by every revision. */
export function dateConditions(filter: ArticleFilter): string[] {
  const where: string[] = [];
  const from = filter.dateRange?.from?.getTime();
  const to = filter.dateRange?.to?.getTime();
  if (from !== undefined && from > minTime) {
    // Publication times are whole seconds: from 10:00:00.5 on, the first that counts is 10:00:01.
    where.push(sql`published_at >= toDateTime(${Math.ceil(from / 1000)}, 'UTC')`);
  }
  if (to !== undefined) {
    // An end before DateTime's range matches nothing; one after it bounds nothing.
    if (to <= minTime) where.push('0');
    else if (to < maxTime) where.push(sql`published_at < toDateTime(${Math.ceil(to / 1000)}, 'UTC')`);
  }
  return where;
}

export const listColumns =
  'article_id, title, summary, source_id, source_name, url, toUnixTimestamp(published_at) AS published_at, language, category, revision, toUnixTimestamp(updated_at) AS updated_at, publisher_name, publisher_url';

/**
 * Where a list reads from. Pages come from `article_list` (services/search/article-list.ts): its keys from
 * the narrowest facet the filter names, its items from the rows of every article, by key, in granules
 * small enough that reading a page costs about a page. A search in the content needs the content,
 * which only `articles` holds: then the page comes from there, as before the list existed.
 */
export interface ListSource {
  table: 'article_list' | 'articles';
  /** The rows a page's keys come from (on `article_list`, the facets). */
  keys: string[];
  /** The rows a page's items come from. */
  items: string[];
}

export function listSource(filter: ArticleFilter): ListSource {
  if ((filter.searchIn ?? defaultSearchFields).includes('content'))
    return { table: 'articles', keys: [], items: [] };
  return {
    table: 'article_list',
    keys: [sql`facet IN ${inList(keyFacets(filter))}`],
    items: [sql`facet = ${facet.all}`],
  };
}

/** The ids a `source` value may name: as given, and in lowercase, as ids are made (SRC_1A2B is src_1a2b). */
function sourceIdForms(values: readonly string[]): string[] {
  return [...new Set(values.flatMap((s) => [s, s.toLowerCase()]))];
}

/**
 * The facets whose rows hold every article the filter can match, the narrowest first: a source is one
 * of hundreds, a category one of about ten, a language one of a few. A search reads the rows of every
 * article, which alone carry the text it is checked against (the search index has narrowed them).
 */
export function keyFacets(filter: ArticleFilter): string[] {
  if (filter.search) return [facet.all];
  if (filter.sources?.length)
    return [
      ...new Set([
        ...sourceIdForms(filter.sources).map(facet.source),
        ...filter.sources.map(facet.sourceName),
      ]),
    ];
  if (filter.categories?.length) return filter.categories.map(facet.category);
  if (filter.languages?.length) return filter.languages.map(facet.language);
  return [facet.all];
}

/**
 * One page of matching articles; asks for one more than `limit` so the caller knows whether more follow.
 * Each row says whether its latest revision still `matches` the filter (see below), and the rows the
 * offset skips come too (the caller drops them): a row that does not match, skipped or not, would have
 * taken a place it must not have, and then the caller asks again with `exact`, which answers the page
 * itself.
 */
export function articleListQuery(filter: ArticleFilter, page: Page, exact = false): string {
  const from = listSource(filter);
  const where = [...from.keys, ...filterConditions(filter)];
  const after = page.after
    ? sql`(published_at < toDateTime(${page.after.publishedAt}, 'UTC') OR (published_at = toDateTime(${page.after.publishedAt}, 'UTC') AND article_id < ${page.after.id}))`
    : null;
  if (after && page.collapse !== 'story') where.push(after);
  const whereClause = where.length ? `WHERE ${where.join(' AND ')}` : '';
  const order = 'ORDER BY published_at DESC, article_id DESC';
  const limit = sql`LIMIT ${page.offset}, ${page.limit + 1}`;
  const upTo = sql`LIMIT ${page.offset + page.limit + 1}`;
  // Collapsed, each story is represented by its newest matching article, chosen before the cursor
  // applies: a story shown on one page never comes back with an older article on the next. Chosen as
  // the walk began (asOf): a story that took a newer article during the walk was represented by that
  // one, above the cursor, and never shown at all. So the articles above the cursor that were found after
  // the first page are left out (an article below it is on a page still to come, where it belongs).
  const asOf = page.collapse === 'story' && page.after ? page.after.asOf : undefined;
  const sinceWalkBegan =
    asOf === undefined || !page.after
      ? ''
      : sql`
    WHERE article_id NOT IN (SELECT article_id FROM articles WHERE published_at >= toDateTime(${page.after.publishedAt}, 'UTC') AND discovered_at > toDateTime(${asOf}, 'UTC'))`;
  const collapsed = (rows: string, columns: string, answer: string, cut = limit) => `SELECT ${answer} FROM (
    SELECT ${columns}, story_id FROM (${rows})
    ANY LEFT JOIN ${storyMembership().text} USING article_id${sinceWalkBegan}
    ${order}
    LIMIT 1 BY if(story_id = '', article_id, story_id)
  )${after ? ` WHERE ${after}` : ''}
  ${order}
  ${cut}`;
  if (exact) {
    // Every candidate's latest revision, checked before the page is cut: what the window costs, but
    // exact however the rows of earlier revisions differ.
    const candidates = `SELECT published_at, article_id FROM ${from.table} ${whereClause}`;
    const rows = `SELECT * FROM ${pageRows(filter, `(published_at, article_id) IN (${candidates})`)} WHERE matches`;
    return page.collapse === 'story'
      ? collapsed(rows, ['published_at', 'article_id', ...pageColumns].join(', '), listColumns)
      : `SELECT ${listColumns} FROM (${rows})\n${order}\n${limit}`;
  }
  // Two steps, because reading the latest version of every column of every matching row before the sort
  // costs what the matches hold: first the page's keys, from the key columns and those the filter reads
  // (LIMIT 1 BY drops the copies a replay or a later revision leaves; every revision of an article has
  // the same key, revision 1's publication time); then only those rows, by key. Until a merge, the first
  // step also sees the rows of an earlier revision, so each row of the page is checked again on its
  // latest revision (`matches`): an article whose old title matched `q` and whose new one does not, or
  // which a revision moved out of the category asked for, would take a place on the page it must not have.
  const ordered = `SELECT published_at, article_id FROM ${from.table} ${whereClause}
    ${order}
    LIMIT 1 BY article_id`;
  const keys =
    page.collapse === 'story'
      ? collapsed(ordered, 'published_at, article_id', 'published_at, article_id', upTo)
      : `${ordered}\n    ${upTo}`;
  return `SELECT ${listColumns}, matches FROM ${pageRows(filter, `(published_at, article_id) IN (${keys})`)}
${order}`;
}

/**
 * The latest version of these rows, by key, and whether it still `matches` what a revision can change:
 * only the columns the list and its conditions need, as the newest version has them (latest-versions.ts).
 * FINAL did the same but merged every column of every granule the keys touch, the content included: at
 * 100,000 articles it took 0.18 s of the query's 0.2 s; argMax over each column 0.04 s; keeping each
 * key's newest row (latestRows) half of that again.
 */
function pageRows(filter: ArticleFilter, keys: string): string {
  const from = listSource(filter);
  const fields = filter.search ? (filter.searchIn ?? defaultSearchFields) : [];
  const rows = latestRows({
    table: from.table,
    key: ['published_at', 'article_id'],
    columns: [...pageColumns, ...(fields.includes('content') ? ['content'] : [])],
    where: [...from.items, keys],
  });
  const latest = contentConditions(filter, true);
  return `(SELECT *, ${latest.length ? latest.join(' AND ') : '1'} AS matches FROM ${rows.text})`;
}

/** The list's columns (listColumns) and those the conditions on a revision read, but the key. */
const pageColumns = [
  'title',
  'summary',
  'source_id',
  'source_name',
  'url',
  'language',
  'category',
  'revision',
  'updated_at',
  'publisher_name',
  'publisher_url',
];

/**
 * The keys of one page of matching articles, most relevant first (relevance.ts), with the collapse as
 * in articleListQuery; one more than `limit`. `scoring` comes from the collection and the words' counts.
 */
export function relevantKeysQuery(
  filter: ArticleFilter & { search: SearchExpression },
  page: Page,
  scoring: { words: readonly string[]; idf: readonly number[]; statistics: CollectionStatistics },
): string {
  const from = listSource(filter);
  const where = [...from.keys, ...filterConditions(filter)];
  const candidates = `SELECT published_at, article_id FROM ${from.table}${where.length ? ` WHERE ${where.join(' AND ')}` : ''}`;
  const scored = relevanceQuery({
    ...scoring,
    fields: filter.searchIn ?? defaultSearchFields,
    candidates,
    where: dateConditions(filter),
  });
  const order = 'relevance DESC, published_at DESC, article_id DESC';
  const ranked =
    page.collapse === 'story'
      ? sql`SELECT published_at, article_id, relevance FROM (
  SELECT published_at, article_id, relevance, story_id FROM (${raw(scored)})
  ANY LEFT JOIN ${storyMembership()} USING article_id
  ORDER BY ${raw(order)}
  LIMIT 1 BY if(story_id = '', article_id, story_id)
)`
      : scored;
  return sql`SELECT toUnixTimestamp(published_at) AS published_at, article_id FROM (${raw(ranked)})
ORDER BY ${raw(order)}
LIMIT ${page.offset}, ${page.limit + 1}`;
}

/** The list rows of these articles, read by key, whose latest revision still matches the filter. */
export function articlesByKeyQuery(keys: readonly ArticleKey[], filter: ArticleFilter): string {
  const tuples = keys.map((k) => sql`(toDateTime(${Number(k.published_at)}, 'UTC'), ${k.article_id})`);
  return `SELECT ${listColumns} FROM ${pageRows(filter, `(published_at, article_id) IN (${tuples.join(', ')})`)} WHERE matches`;
}

/** The latest revision of one article (the newest version, should its rows ever differ in sort key). */
export function articleDetailQuery(id: string): string {
  // By key: the id alone gives no range of the primary key (published_at, article_id), and FINAL merges
  // every column of every row it reads, content included (177-215 ms for one article among 2,253). The
  // id's publication time is read from two narrow columns, then the row by its whole key; its newest
  // version is the latest revision, as FINAL would choose. Nested, so the answer's `published_at` (a
  // number) is not the column the key is matched on.
  return sql`SELECT ${raw(listColumns)}, content, author, image_url, original_url,
toUnixTimestamp(discovered_at) AS discovered_at
FROM (
  SELECT * FROM articles
  WHERE (published_at, article_id) IN (SELECT published_at, article_id FROM articles WHERE article_id = ${id})
  ORDER BY version DESC LIMIT 1
)`;
}

/**
 * The latest successful AI summary, narration and story of each article that has them, in one round
 * trip: rows of (article_id, kind, value) with kind 'summary', 'audio' (the audio store key, signed into
 * a URL when the answer is built) or 'story'.
 */
export function extrasQuery(ids: readonly string[]): string {
  const summaries = latestVersions({
    table: 'article_enrichments',
    key: 'article_id',
    columns: ['summary'],
    where: [sql`article_id IN ${inList(ids)} AND summary IS NOT NULL`],
  });
  const narrations = latestVersions({
    table: 'article_narrations',
    key: 'article_id',
    columns: ['audio_key'],
    where: [sql`article_id IN ${inList(ids)} AND status = 'succeeded' AND audio_key IS NOT NULL`],
  });
  return sql`SELECT article_id, 'summary' AS kind, summary AS value FROM ${summaries}
UNION ALL
SELECT article_id, 'audio' AS kind, audio_key AS value FROM ${narrations}
UNION ALL
SELECT article_id, 'story' AS kind, story_id AS value FROM ${storyMembership([sql`article_id IN ${inList(ids)}`])}`;
}

/**
 * Where one article's narration stands, in one round trip: a row (kind 'audio') with the key of its
 * latest successful narration, read as extrasQuery reads it, and a row (kind 'outcome') with the status
 * of its latest narration whatever it was; no rows when the narrator has not answered yet.
 */
export function narrationQuery(id: string): string {
  const audio = latestVersions({
    table: 'article_narrations',
    key: 'article_id',
    columns: ['audio_key'],
    where: [sql`article_id = ${id} AND status = 'succeeded' AND audio_key IS NOT NULL`],
  });
  const outcome = latestVersions({
    table: 'article_narrations',
    key: 'article_id',
    columns: ['status'],
    where: [sql`article_id = ${id}`],
  });
  return sql`SELECT 'audio' AS kind, audio_key AS value FROM ${audio}
UNION ALL
SELECT 'outcome' AS kind, status AS value FROM ${outcome}`;
}

/** One row, with when it was first seen, when the read model holds the article; none otherwise. */
export function articleExistsQuery(id: string): string {
  return sql`SELECT article_id, toUnixTimestamp(discovered_at) AS discovered FROM articles WHERE article_id = ${id} LIMIT 1`;
}

/** Everything the latest successful enrichment says about one article. */
export function enrichmentQuery(id: string): string {
  return sql`SELECT summary, context, context_article_ids, insights, sentiment_label, sentiment_score, entity_names,
entity_types, keywords, category, language, reading_time_seconds, provider, model, toUnixTimestamp(enriched_at) AS enriched_at
FROM article_enrichments WHERE article_id = ${id} AND status = 'succeeded'
ORDER BY version DESC LIMIT 1`;
}

export function encodeCursor(cursor: Cursor): string {
  const value = [cursor.publishedAt, cursor.id, ...(cursor.asOf === undefined ? [] : [cursor.asOf])];
  return Buffer.from(JSON.stringify(value), 'utf8').toString('base64url');
}

/** Null when the text is not a cursor this API issued. */
export function decodeCursor(text: string): Cursor | null {
  try {
    const value: unknown = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
    if (
      Array.isArray(value) &&
      (value.length === 2 || value.length === 3) &&
      isDateTimeSeconds(value[0]) &&
      typeof value[1] === 'string' &&
      value[1].length > 0 &&
      value[1].length <= 200
    ) {
      const asOf: unknown = value[2];
      if (asOf === undefined) return { publishedAt: value[0], id: value[1] };
      if (isDateTimeSeconds(asOf)) return { publishedAt: value[0], id: value[1], asOf };
    }
  } catch {
    // not base64url JSON: fall through
  }
  return null;
}
