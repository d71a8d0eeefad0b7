// Writes a batch of events into their read-model tables, one insert per table. The
// consumer runner commits the batch's offsets only after this resolved, and
// rows carry their offset as version, so a replay leaves the same rows.
import type { ClickHouse } from '../runtime/clickhouse/client.ts';
import type { ConsumedEvent } from '../runtime/kafka/consumer.ts';
import { PoisonMessageError } from '../runtime/kafka/errors.ts';
import type { ArticleDiscovered } from '../runtime/events/types.generated.ts';
import { topicNames } from '../runtime/kafka/topics.ts';
import { articlePostings } from '../search/article-terms.ts';
import { PostingRows, postingColumns, postingsTable } from './posting-rows.ts';
import {
  articleRows,
  projectedTables,
  rowsFor,
  type ProjectedTopic,
  type Row,
  type TableRow,
} from './rows.ts';

/**
 * Fetch sizes for the projector's consumer: each fetched batch becomes one insert, and ClickHouse
 * does far better with a few thousand rows per insert than with the few hundred a 1 MiB fetch brings
 * (fewer parts to write and merge). Bounded by size here; by time, by the fetch itself, which returns
 * as soon as there is anything to read, so a quiet topic is still projected at once.
 */
export const projectorFetch = { maxBytesPerPartition: 16 * 1024 * 1024, maxBytes: 96 * 1024 * 1024 };

/** Batches (partitions) projected at once: inserts overlap, so ClickHouse parses one while another is written. */
export const projectorConcurrency = 6;

export function isProjectedTopic(topic: string): topic is ProjectedTopic {
  return topic in projectedTables;
}

/**
 * Rows of a table's key, in order: ClickHouse writes a block that arrives sorted by the table's key
 * without sorting it (posting-rows.ts). An article batch's rows are put in order here; other tables'
 * batches are small and go as they come.
 */
const byArticleKey = (a: Row, b: Row) =>
  (a.published_at as number) - (b.published_at as number) ||
  compare(a.article_id as string, b.article_id as string);
const byListKey = (a: Row, b: Row) => compare(a.facet as string, b.facet as string) || byArticleKey(a, b);
const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

export async function projectBatch(
  clickhouse: ClickHouse,
  events: readonly ConsumedEvent<unknown>[],
): Promise<number> {
  const byTable = new Map<string, Row[]>();
  // Built and encoded with no await in between: the term ids it holds come from a cache that batches
  // projected at the same time share (posting-rows.ts).
  const postings = new PostingRows();
  for (const event of events) {
    if (!isProjectedTopic(event.topic))
      throw new PoisonMessageError(`the projector does not project ${event.topic}`);
    const version = Number(event.offset);
    let rows: TableRow[];
    if (event.topic === topicNames.articlesDiscovered && event.value) {
      const article = event.value as ArticleDiscovered;
      const words = articlePostings(article);
      rows = articleRows(article, version, words);
      postings.add(rows[0]!.row.published_at as number, article.article_id, version, words);
    } else {
      rows = rowsFor(event.topic, event.key, event.value, version, Number(event.timestamp));
    }
    for (const { table, row } of rows) {
      const list = byTable.get(table);
      if (list) list.push(row);
      else byTable.set(table, [row]);
    }
  }
  byTable.get('articles')?.sort(byArticleKey);
  byTable.get('article_list')?.sort(byListKey);
  const postingRows = postings.rows;
  const postingBody = postingRows > 0 ? postings.encode() : null;
  // The tables' inserts at once: an article batch writes three (the articles, their list rows and their
  // postings), and ClickHouse parses and writes them on separate threads. The offsets are committed only
  // once every one of them resolved; all settle before a failure is thrown, so a retry of the batch never
  // overlaps an insert still in flight.
  const inserts = [...byTable].map(async ([table, rows]) => {
    await clickhouse.insert(table, rows);
    return rows.length;
  });
  if (postingBody)
    inserts.push(
      clickhouse.insertRowBinary(postingsTable, postingColumns, postingBody).then(() => postingRows),
    );
  const settled = await Promise.allSettled(inserts);
  const failed = settled.find((s) => s.status === 'rejected');
  if (failed) throw failed.reason;
  return settled.reduce((sum, s) => sum + (s.status === 'fulfilled' ? s.value : 0), 0);
}
