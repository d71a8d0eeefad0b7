// Writes a batch of events into their read-model tables, one insert per table; the live
// projector hands each fetched batch to a group commit (groupedProjection), which writes the
// batches gathered while an insert is in flight as one. The consumer runner commits a batch's
// offsets only after the insert that carried it resolved, and rows carry their offset as
// version, so a replay leaves the same rows.
import type { ClickHouse } from '../runtime/clickhouse/client.ts';
import { BufferPool, type Column } from '../runtime/clickhouse/row-binary.ts';
import type { ConsumedEvent } from '../runtime/kafka/consumer.ts';
import { PoisonMessageError } from '../runtime/kafka/errors.ts';
import { topicNames } from '../runtime/kafka/topics.ts';
import {
  articleColumns,
  articlesTable,
  batchArticle,
  byArticleKey,
  encodeArticleRows,
  type BatchArticle,
  type ProjectedArticle,
} from './article-batch.ts';
import { GroupInsert, type GroupLimits } from './group-insert.ts';
import { encodeListRows, listColumns, listTable } from './list-rows.ts';
import { PostingRows, postingColumns, postingsTable } from './posting-rows.ts';
import { projectedTables, rowsFor, type ProjectedTopic, type Row } from './rows.ts';

/**
 * Fetch sizes for the projector's consumer: a fetched batch is the least one insert carries (the group
 * commit adds the batches fetched meanwhile), and ClickHouse does far better with a few thousand rows
 * per insert than with the few hundred a 1 MiB fetch brings (fewer parts to write and merge). Bounded by size here; by time, by the fetch itself, which returns
 * as soon as there is anything to read, so a quiet topic is still projected at once. 48 MiB a partition
 * is ~10,000 articles of the benchmark (2.4 KB each), two partitions to a fetch (the broker's
 * fetch.max.bytes, 50 MiB, caps a response); at 16 MiB the batches were half as big, and ClickHouse
 * spent a quarter more CPU an article on the parts and their merges (docs/benchmarks.md).
 */
export const projectorFetch = { maxBytesPerPartition: 48 * 1024 * 1024, maxBytes: 96 * 1024 * 1024 };

/** Batches (partitions) projected at once: inserts overlap, so ClickHouse parses one while another is written. */
export const projectorConcurrency = 6;

/**
 * Group commit (group-insert.ts): the batches handed over while an insert is in flight go together as
 * the next insert, up to these caps (the projector's settings), two inserts in flight at most. At 11,000
 * articles an insert, a million articles made 90 parts a table and ClickHouse spent most of its CPU
 * on them and their merges; the direct insert it is measured against writes blocks of 100,000 rows.
 */
export const projectorInsertLimits: GroupLimits = {
  maxRows: 100_000,
  maxBytes: 256 * 1024 * 1024,
  maxInFlight: 2,
};

/**
 * The projector's hand-over for the consumer runner's deferred commits (consumer.ts): each fetched
 * batch joins the group being gathered, and `written` settles once the insert that carried it did.
 */
export function groupedProjection(clickhouse: ClickHouse, limits: GroupLimits = projectorInsertLimits) {
  const group = new GroupInsert<{ events: readonly ConsumedEvent<unknown>[]; bytes: number }>({
    ...limits,
    size: (batch) => ({ rows: batch.events.length, bytes: batch.bytes }),
    // Not async: nothing keeps the batches once projectBatch has encoded them.
    write: (batches) =>
      projectBatch(
        clickhouse,
        batches.length === 1 ? batches[0]!.events : batches.flatMap((batch) => batch.events),
      ).then(() => undefined),
  });
  return {
    // A batch read again after a failed insert goes alone: another partition's bad row must not fail
    // it again (and, split into its messages, have a good one dead-lettered).
    handOver: async (
      events: ConsumedEvent<unknown>[],
      { bytes, replay }: { bytes: number; replay: boolean },
    ) =>
      replay
        ? { written: projectBatch(clickhouse, events).then(() => undefined) }
        : group.add({ events, bytes }),
    idle: () => group.idle(),
    stats: group.stats,
  };
}

export function isProjectedTopic(topic: string): topic is ProjectedTopic {
  return topic in projectedTables;
}

/** What a batch writes into one table: rows, or rows the projector encoded itself (posting-rows.ts). */
export type TableInsert =
  { table: string; rows: Row[] } | { table: string; columns: readonly Column[]; body: Buffer; count: number };

/**
 * The buffers the article batches' rows are encoded into, handed back once their insert succeeded
 * (row-binary.ts): three an insert (articles, list, postings), for the inserts in flight and the one
 * being encoded. No more are kept: a group's buffers are hundreds of MiB, and each one kept is held
 * for the process's life.
 */
const bodies = new BufferPool(3 * (projectorInsertLimits.maxInFlight + 1));
/** Hands back the buffer a body of `bodies` is a part of (offset 0 of its own ArrayBuffer). */
const giveBack = (body: Buffer) => bodies.give(Buffer.from(body.buffer, 0, body.buffer.byteLength));

/**
 * The inserts of a batch of events, one per table, each table's rows in its key order where the batch
 * is an article batch. Built and encoded with no await in between: the term ids it holds come from a
 * cache that batches projected at the same time share (posting-rows.ts).
 */
export function batchInserts(events: readonly ConsumedEvent<unknown>[]): TableInsert[] {
  const byTable = new Map<string, Row[]>();
  const add = (table: string, row: Row) => {
    const list = byTable.get(table);
    if (list) list.push(row);
    else byTable.set(table, [row]);
  };
  const articles: BatchArticle[] = [];
  // The article's postings as its words are read: the term ids they hold are valid until the next batch.
  const postings = new PostingRows();
  for (const event of events) {
    if (!isProjectedTopic(event.topic))
      throw new PoisonMessageError(`the projector does not project ${event.topic}`);
    const version = Number(event.offset);
    if (event.topic === topicNames.articlesDiscovered && event.value) {
      // Decoded with projectorTypes (article-batch.ts), or with the ordinary schema: either is written alike.
      articles.push(batchArticle(event.value as ProjectedArticle, version, postings));
    } else {
      for (const { table, row } of rowsFor(
        event.topic,
        event.key,
        event.value,
        version,
        Number(event.timestamp),
      ))
        add(table, row);
    }
  }
  if (articles.length === 0) return [...byTable].map(([table, rows]) => ({ table, rows }));
  // Each table's rows in its key order, which ClickHouse then need not sort (posting-rows.ts): the
  // articles by (published_at, article_id), and so each facet's list rows (list-rows.ts). The three
  // tables' rows are encoded from the articles as they are, with no object per row; they are the rows
  // articleRows (rows.ts) describes.
  articles.sort(byArticleKey);
  const list = encodeListRows(articles, undefined, bodies);
  const inserts: TableInsert[] = [...byTable].map(([table, rows]) => ({ table, rows }));
  inserts.push(
    {
      table: articlesTable,
      columns: articleColumns,
      body: encodeArticleRows(articles, bodies),
      count: articles.length,
    },
    { table: listTable, columns: listColumns, body: list.body, count: list.rows },
    { table: postingsTable, columns: postingColumns, body: postings.encode(bodies), count: postings.rows },
  );
  return inserts;
}

export function projectBatch(
  clickhouse: ClickHouse,
  events: readonly ConsumedEvent<unknown>[],
): Promise<number> {
  // The events are encoded before the inserts are awaited, and not held while they are.
  let inserts: TableInsert[];
  try {
    inserts = batchInserts(events);
  } catch (error) {
    return Promise.reject(error instanceof Error ? error : new Error(String(error)));
  }
  return writeInserts(clickhouse, inserts);
}

async function writeInserts(clickhouse: ClickHouse, inserts: TableInsert[]): Promise<number> {
  // The tables' inserts at once: an article batch writes three (the articles, their list rows and their
  // postings), and ClickHouse parses and writes them on separate threads. The offsets are committed only
  // once every one of them resolved; all settle before a failure is thrown, so a retry of the batch never
  // overlaps an insert still in flight.
  const settled = await Promise.allSettled(
    inserts.map(async (insert) => {
      if ('rows' in insert) {
        await clickhouse.insert(insert.table, insert.rows);
        return insert.rows.length;
      }
      await clickhouse.insertRowBinary(insert.table, insert.columns, insert.body);
      // Sent and accepted: the buffer may be written again. (After a failure it is left to the GC, in
      // case the request still reads it.)
      giveBack(insert.body);
      return insert.count;
    }),
  );
  const failed = settled.find((s) => s.status === 'rejected');
  if (failed) throw failed.reason;
  return settled.reduce((sum, s) => sum + (s.status === 'fulfilled' ? s.value : 0), 0);
}
