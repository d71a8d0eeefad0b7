// The GET /v1/articles requests the bench puts under load, each with the SQL
// the API runs for it. The filters are parsed by the API's own parameter
// schemas and turned into SQL by articleListQuery, so the direct baseline asks
// ClickHouse exactly what the API asks it (the two small lookups by id aside).
import { articleListQuery, type ArticleFilter } from '../../../services/api/articles/article-query.ts';
import {
  categoryParam,
  dateRangeParam,
  languageParam,
  searchParam,
  sourceParam,
} from '../../../services/api/http/params.ts';

export interface ListRequest {
  name: string;
  /** The query string of GET /v1/articles. */
  query: string;
  /** The SQL of the page query behind it. */
  sql: string;
}

const pageSize = 20;

export function listRequests(options: { word: string; sourceName: string }): ListRequest[] {
  const sets: { name: string; query: string; filter: ArticleFilter }[] = [
    { name: 'newest', query: '', filter: {} },
    {
      name: 'category',
      query: 'category=technology',
      filter: { categories: categoryParam.parse('technology') },
    },
    {
      name: 'language+7d',
      query: 'language=en&date_range=7d',
      filter: { languages: languageParam.parse('en'), dateRange: dateRangeParam.parse('7d') },
    },
    {
      name: `q=${options.word}`,
      query: `q=${encodeURIComponent(options.word)}`,
      filter: { search: searchParam.parse(options.word) },
    },
    {
      name: 'source',
      query: `source=${encodeURIComponent(options.sourceName)}`,
      filter: { sources: sourceParam.parse(options.sourceName) },
    },
  ];
  return sets.map(({ name, query, filter }) => ({
    name,
    query: [query, `limit=${pageSize}`].filter(Boolean).join('&'),
    sql: articleListQuery(filter, { limit: pageSize, offset: 0 }),
  }));
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

/** One request each way before the load: both must answer 200 with the same page. */
export async function samePage(
  apiUrl: string,
  headers: Record<string, string>,
  sqlUrl: string,
): Promise<number> {
  const [viaApi, direct] = await Promise.all([fetch(apiUrl, { headers }), fetch(sqlUrl)]);
  if (!viaApi.ok) throw new Error(`${apiUrl} answered ${viaApi.status}: ${await viaApi.text()}`);
  if (!direct.ok) throw new Error(`ClickHouse answered ${direct.status}: ${await direct.text()}`);
  const { articles } = (await viaApi.json()) as { articles: { id: string }[] };
  const rows = (await direct.text())
    .split('\n')
    .filter(Boolean)
    .map((line) => (JSON.parse(line) as { article_id: string }).article_id);
  // The SQL asks for one row more than the page, to tell whether more follow.
  const expected = rows.slice(0, pageSize);
  if (articles.map((a) => a.id).join() !== expected.join())
    throw new Error(
      `the API returned ${articles.length} articles, not the ${expected.length} rows of the SQL`,
    );
  return articles.length;
}
