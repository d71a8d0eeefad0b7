import { describe, expect, it } from 'vitest';
import { encodeRowBinary } from '../runtime/clickhouse/row-binary.ts';
import type { ArticleDiscovered } from '../runtime/events/types.generated.ts';
import { articlePostings } from '../search/article-terms.ts';
import { encodeListRows, listColumns } from './list-rows.ts';
import { articleRow, articleRows, type Row } from './rows.ts';

const at = Date.UTC(2026, 10, 20, 8);
const article = (id: string, minutes: number, extra: Partial<ArticleDiscovered> = {}): ArticleDiscovered => ({
  article_id: id,
  source_id: `src_${id.length}`,
  source_name: id.length % 2 ? 'Zürich Herald' : 'Daily Example',
  guid: null,
  url: `https://news.example/${id}`,
  original_url: `https://news.example/${id}`,
  title: `Rates rise in ${id}`,
  summary: 'Interest rates rose, and rose again.',
  content: '',
  author: null,
  published_at: at + minutes * 60_000,
  published_at_clamped: false,
  discovered_at: at + minutes * 60_000,
  language: id.length % 2 ? 'de' : 'en',
  category: id.length % 3 ? 'business' : null,
  image_url: null,
  revision: 1,
  changed_fields: [],
  first_published_at: null,
  first_discovered_at: null,
  occurred_at: at,
  ...extra,
});

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const byKey = (a: Row, b: Row) =>
  compare(a.facet as string, b.facet as string) ||
  (a.published_at as number) - (b.published_at as number) ||
  compare(a.article_id as string, b.article_id as string);

describe('list rows', () => {
  const events = [
    article('b', 5),
    article('aa', 5),
    article('ccc', 1),
    article('dddd', 9, {
      revision: 2,
      first_published_at: at,
      first_discovered_at: at,
      changed_fields: ['title'],
    }),
  ];
  // As the projector orders a batch: by the articles' key (published_at, article_id).
  const listed = events
    .map((a, i) => ({ article: a, row: articleRow(a, 100 + i), words: articlePostings(a) }))
    .sort(
      (x, y) =>
        (x.row.published_at as number) - (y.row.published_at as number) ||
        compare(x.row.article_id as string, y.row.article_id as string),
    );

  it('are the rows articleRows describes, in the key order of the table, as RowBinary', () => {
    const reference = events
      .flatMap((a, i) => articleRows(a, 100 + i).filter((r) => r.table === 'article_list'))
      .map((r) => r.row)
      .sort(byKey);
    const { body, rows } = encodeListRows(listed);
    expect(rows).toBe(5 * events.length);
    expect(body.toString('hex')).toBe(encodeRowBinary(listColumns, reference).toString('hex'));
  });
});
