// The list rows of a batch of article events (`article_list`, services/search/article-list.ts), encoded
// as RowBinary straight from the articles, in the table's key order (facet, published_at, article_id):
// the rows articleRows (rows.ts) describes, five an article, without an object each. Built from objects
// they were a third of the projector's allocations, and ClickHouse sorts a block that does not arrive in
// key order (see posting-rows.ts).
import { RowBinaryWriter, type Column } from '../runtime/clickhouse/row-binary.ts';
import type { ArticleDiscovered } from '../runtime/events/types.generated.ts';
import { articleFacets, facet } from '../search/article-list.ts';
import type { Postings } from '../search/article-terms.ts';
import type { Row } from './rows.ts';

export const listTable = 'article_list';

const column = (name: string, kind: 'String' | 'DateTime' | 'UInt32' | 'UInt64'): Column => ({
  name,
  type: { kind },
});

/** The columns, in the order rows are encoded. */
export const listColumns: readonly Column[] = [
  column('facet', 'String'),
  column('published_at', 'DateTime'),
  column('article_id', 'String'),
  column('title', 'String'),
  column('summary', 'String'),
  column('source_id', 'String'),
  column('source_name', 'String'),
  column('url', 'String'),
  column('language', 'String'),
  column('category', 'String'),
  column('revision', 'UInt32'),
  { name: 'updated_at', type: { kind: 'Nullable', inner: { kind: 'DateTime' } } },
  column('title_length', 'UInt32'),
  column('summary_length', 'UInt32'),
  column('version', 'UInt64'),
];

/** An article of the batch: its event, its row of `articles` (articleRow) and its postings. */
export interface ListedArticle {
  article: ArticleDiscovered;
  row: Row;
  words: Postings;
}

/** DateTime is UInt32 seconds: what it cannot hold becomes its nearest bound, as row-binary.ts writes it. */
const seconds = (s: number) => Math.min(0xffffffff, Math.max(0, s));

/**
 * The list rows of these articles as RowBinary of listColumns: the facets in order of their names, each
 * facet's articles in the order given, which is the articles' key order (published_at, article_id).
 */
export function encodeListRows(articles: readonly ListedArticle[]): { body: Buffer; rows: number } {
  const byFacet = new Map<string, number[]>();
  articles.forEach(({ article, row }, i) => {
    const names = articleFacets({
      source_id: article.source_id,
      source_name: article.source_name,
      category: row.category as string,
      language: row.language as string,
    });
    for (const name of names) {
      const listed = byFacet.get(name);
      if (listed) listed.push(i);
      else byFacet.set(name, [i]);
    }
  });
  // Sized from the batch before, so the rows are written without the buffer growing (and copied) midway.
  const w = new RowBinaryWriter(Math.ceil(articles.length * bytesPerArticle * 1.2) + 4096);
  let rows = 0;
  for (const name of [...byFacet.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))) {
    const shown = name === facet.all;
    for (const i of byFacet.get(name)!) {
      const { article, row, words } = articles[i]!;
      w.string(name);
      w.uint32(seconds(row.published_at as number));
      w.string(article.article_id);
      w.string(shown ? article.title : '');
      w.string(shown ? article.summary : '');
      w.string(article.source_id);
      w.string(article.source_name);
      w.string(shown ? article.url : '');
      w.string(row.language as string);
      w.string(row.category as string);
      w.uint32(article.revision);
      const updatedAt = row.updated_at as number | null;
      if (updatedAt === null) w.uint8(1);
      else {
        w.uint8(0);
        w.uint32(seconds(updatedAt));
      }
      w.uint32(shown ? words.title_length : 0);
      w.uint32(shown ? words.summary_length : 0);
      w.uint64(row.version as number);
      rows++;
    }
  }
  if (articles.length > 0) bytesPerArticle = Math.max(bytesPerArticle, w.offset / articles.length);
  return { body: w.bytes(), rows };
}

/** The most list bytes an article has taken in a batch so far. */
let bytesPerArticle = 1024;
