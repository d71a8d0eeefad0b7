// The GET /v1/articles requests the bench puts under load, each with two baselines sent straight to
// ClickHouse: the page query as it was before the list read newest windows from `article_list` (the
// whole archive's matches sorted, then the page's rows with FINAL), and the physical floor, a read of
// the same page's rows by primary key. The filters are parsed by the API's own parameter schemas.
import {
  contentConditions,
  filterConditions,
  listColumns,
  type ArticleFilter,
} from '../../../services/api/articles/article-query.ts';
import { sql } from '../../../services/runtime/clickhouse/literal.ts';
import {
  categoryParam,
  dateRangeParam,
  languageParam,
  searchParam,
  sourceParam,
} from '../../../services/api/http/params.ts';

export interface ListRequest {
  /** How BENCH_LISTS names it: newest, category, language, q, source. */
  id: ListId;
  name: string;
  /** The query string of GET /v1/articles. */
  query: string;
  /** The page query before issue 18 (HEAD at b1e5e6d^), on the same tables. */
  sql: string;
}

const pageSize = 20;

/** The filter sets, as BENCH_LISTS names them. */
export const listIds = ['newest', 'category', 'language', 'q', 'source'] as const;
export type ListId = (typeof listIds)[number];

export const isListId = (id: string): id is ListId => (listIds as readonly string[]).includes(id);

/** The filter sets named in `only` (all of them when it is empty), in the order above. */
export function listRequests(options: {
  word: string;
  sourceName: string;
  only?: readonly ListId[];
}): ListRequest[] {
  const only = options.only ?? [];
  const sets: { id: ListId; name: string; query: string; filter: ArticleFilter }[] = [
    { id: 'newest', name: 'newest', query: '', filter: {} },
    {
      id: 'category',
      name: 'category',
      query: 'category=technology',
      filter: { categories: categoryParam.parse('technology') },
    },
    {
      id: 'language',
      name: 'language+7d',
      query: 'language=en&date_range=7d',
      filter: { languages: languageParam.parse('en'), dateRange: dateRangeParam.parse('7d') },
    },
    {
      id: 'q',
      name: `q=${options.word}`,
      query: `q=${encodeURIComponent(options.word)}`,
      filter: { search: searchParam.parse(options.word) },
    },
    {
      id: 'source',
      name: 'source',
      query: `source=${encodeURIComponent(options.sourceName)}`,
      filter: { sources: sourceParam.parse(options.sourceName) },
    },
  ];
  return sets
    .filter(({ id }) => only.length === 0 || only.includes(id))
    .map(({ id, name, query, filter }) => ({
      id,
      name,
      query: [query, `limit=${pageSize}`].filter(Boolean).join('&'),
      sql: unwindowedQuery(filter),
    }));
}

/**
 * The page query as it was before issue 18 (b1e5e6d^, article-query.ts): the keys of every match in the
 * archive, sorted, then the page's rows from `articles FINAL` by key, checked on their latest revision.
 */
export function unwindowedQuery(filter: ArticleFilter): string {
  const where = filterConditions(filter);
  const keys = `SELECT published_at, article_id FROM articles ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
    ORDER BY published_at DESC, article_id DESC
    LIMIT 1 BY article_id
    LIMIT 0, ${pageSize + 1}`;
  const latest = contentConditions(filter, true);
  return `SELECT ${listColumns} FROM (
  SELECT * FROM articles FINAL WHERE (published_at, article_id) IN (${keys})${latest.length ? ` AND ${latest.join(' AND ')}` : ''}
)
ORDER BY published_at DESC, article_id DESC`;
}

/**
 * The physical floor: the same page's rows read by primary key, with nothing to find, sort or check (the
 * rows of every article in `article_list`, whose granules are the smallest).
 */
export function byKeyQuery(keys: readonly { published_at: number; article_id: string }[]): string {
  const tuples = keys.map((k) => sql`('', toDateTime(${k.published_at}, 'UTC'), ${k.article_id})`);
  // The condition inside, where `published_at` is still the column: listColumns makes it an alias.
  return `SELECT ${listColumns} FROM (SELECT * FROM article_list WHERE (facet, published_at, article_id) IN (${tuples.join(', ')}))
ORDER BY published_at DESC, article_id DESC`;
}

/** The URL that sends `sql` straight to ClickHouse's HTTP interface, answering JSONEachRow as the client asks. */
export function clickhouseUrl(
  base: string,
  sql: string,
  auth: { database: string; user: string; password: string },
): string {
  const url = new URL(base);
  url.searchParams.set('database', auth.database);
  url.searchParams.set('user', auth.user);
  if (auth.password) url.searchParams.set('password', auth.password);
  url.searchParams.set('query', `${sql}\nFORMAT JSONEachRow`);
  return url.toString();
}

/**
 * One request each way before the load: both must answer 200 with the same page (the API's answer is
 * checked against the query it replaced). The page's keys, for the floor.
 */
export async function samePage(
  apiUrl: string,
  headers: Record<string, string>,
  sqlUrl: string,
): Promise<{ published_at: number; article_id: string }[]> {
  const [viaApi, direct] = await Promise.all([fetch(apiUrl, { headers }), fetch(sqlUrl)]);
  if (!viaApi.ok) throw new Error(`${apiUrl} answered ${viaApi.status}: ${await viaApi.text()}`);
  if (!direct.ok) throw new Error(`ClickHouse answered ${direct.status}: ${await direct.text()}`);
  const { articles } = (await viaApi.json()) as { articles: { id: string }[] };
  const rows = (await direct.text())
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { article_id: string; published_at: number | string });
  // The SQL asks for one row more than the page, to tell whether more follow.
  const expected = rows.slice(0, pageSize);
  if (articles.map((a) => a.id).join() !== expected.map((r) => r.article_id).join())
    throw new Error(
      `the API returned ${articles.length} articles, not the ${expected.length} rows of the SQL`,
    );
  return expected.map((r) => ({ published_at: Number(r.published_at), article_id: r.article_id }));
}
