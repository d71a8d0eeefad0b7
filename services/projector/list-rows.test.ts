import { describe, expect, it } from 'vitest';
import { encodeRowBinary } from '../runtime/clickhouse/row-binary.ts';
import type { ArticleDiscovered } from '../runtime/events/types.generated.ts';
import { localTypes } from '../runtime/kafka/registry.ts';
import { topicNames } from '../runtime/kafka/topics.ts';
import { batchArticle, byArticleKey, projectorTypes, type ProjectedArticle } from './article-batch.ts';
import { encodeListRows, listColumns } from './list-rows.ts';
import { articleRows, type Row } from './rows.ts';
import { discoveredArticle } from '../../test/support/discovered-article.ts';

const writer = localTypes().get(topicNames.articlesDiscovered)!.type;
const reader = projectorTypes().get(topicNames.articlesDiscovered)!.type;
const resolver = reader.createResolver(writer);
/** An event as written with the registered schema and read back with the projector's. */
const asProjectorReadsIt = (a: ArticleDiscovered): ProjectedArticle =>
  reader.fromBuffer(writer.toBuffer(a), resolver) as ProjectedArticle;

const at = Date.UTC(2026, 10, 20, 8);
const article = (id: string, minutes: number, extra: Partial<ArticleDiscovered> = {}): ArticleDiscovered =>
  discoveredArticle(id, at + minutes * 60_000, {
    source_id: `src_${id.length}`,
    source_name: id.length % 2 ? 'Zürich Herald' : 'Daily Example',
    guid: null,
    title: `Rates rise in ${id}`,
    summary: 'Interest rates rose, and rose again.',
    language: id.length % 2 ? 'de' : 'en',
    category: id.length % 3 ? 'business' : null,
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
  const listed = events.map((a, i) => batchArticle(a, 100 + i)).sort(byArticleKey);

  it('are the rows articleRows describes, in the key order of the table, as RowBinary', () => {
    const reference = events
      .flatMap((a, i) => articleRows(a, 100 + i).filter((r) => r.table === 'article_list'))
      .map((r) => r.row)
      .sort(byKey);
    const { body, rows } = encodeListRows(listed);
    expect(rows).toBe(5 * events.length);
    expect(body.toString('hex')).toBe(encodeRowBinary(listColumns, reference).toString('hex'));
  });

  it('are the same from events read with the raw fields as bytes, across renamed and namesake sources', () => {
    const more = [
      ...events,
      // A source renamed, and another source under the first one's name.
      article('eeeee', 3, { source_id: 'src_5', source_name: 'Zürich Herald' }),
      article('ffffff', 4, { source_id: 'src_5', source_name: 'Genève Herald' }),
      article('ggggggg', 2, { source_id: 'src_other', source_name: 'DAILY Example', title: 'Ça coûte 5 €' }),
      // An aggregator's item, naming the outlet on the row of every article.
      article('hhhhhhhh', 6, { publisher_name: 'Le Monde', publisher_url: 'https://www.lemonde.fr/' }),
    ];
    const reference = more
      .flatMap((a, i) => articleRows(a, 100 + i).filter((r) => r.table === 'article_list'))
      .map((r) => r.row)
      .sort(byKey);
    const raw = more.map((a, i) => batchArticle(asProjectorReadsIt(a), 100 + i)).sort(byArticleKey);
    expect(typeof raw[0]!.article.title).not.toBe('string');
    const { body, rows } = encodeListRows(raw);
    expect(rows).toBe(5 * more.length);
    expect(body.toString('hex')).toBe(encodeRowBinary(listColumns, reference).toString('hex'));
  });
});
