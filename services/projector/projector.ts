// Writes a batch of events into their read-model tables, one insert per table. The
// consumer runner commits the batch's offsets only after this resolved, and
// rows carry their offset as version, so a replay leaves the same rows.
import type { ClickHouse } from '../runtime/clickhouse/client.ts';
import type { ConsumedEvent } from '../runtime/kafka/consumer.ts';
import { PoisonMessageError } from '../runtime/kafka/errors.ts';
import { projectedTables, rowsFor, type ProjectedTopic, type Row } from './rows.ts';

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

export async function projectBatch(
  clickhouse: ClickHouse,
  events: readonly ConsumedEvent<unknown>[],
): Promise<number> {
  const byTable = new Map<string, Row[]>();
  for (const event of events) {
    if (!isProjectedTopic(event.topic))
      throw new PoisonMessageError(`the projector does not project ${event.topic}`);
    for (const { table, row } of rowsFor(
      event.topic,
      event.key,
      event.value,
      Number(event.offset),
      Number(event.timestamp),
    )) {
      const rows = byTable.get(table);
      if (rows) rows.push(row);
      else byTable.set(table, [row]);
    }
  }
  // The tables' inserts at once: an article batch writes three (the articles, the postings and the list
  // rows), and ClickHouse parses and writes them on separate threads. The offsets are committed only
  // once every one of them resolved; all settle before a failure is thrown, so a retry of the batch never
  // overlaps an insert still in flight.
  const inserts = [...byTable].map(async ([table, rows]) => {
    await clickhouse.insert(table, rows);
    return rows.length;
  });
  const settled = await Promise.allSettled(inserts);
  const failed = settled.find((s) => s.status === 'rejected');
  if (failed) throw failed.reason;
  return settled.reduce((sum, s) => sum + (s.status === 'fulfilled' ? s.value : 0), 0);
}
