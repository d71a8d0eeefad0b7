// `projector rebuild`: builds every read model again from the topics, beside
// the live tables, and switches readers over at the end. The steps:
//
// 1. Bring the live database up to date (migrations), then create every table
//    afresh in a scratch database, dropped first so that a crashed earlier
//    rebuild leaves nothing behind in this one.
// 2. Capture each projected partition's high watermark, and replay every topic
//    from its start up to there into the scratch tables, through the live
//    projector's own projectBatch, so the rows are the ones it would write.
// 3. Swap the scratch tables in place of the live ones in one RENAME; the old
//    ones go to a retired database (switch-over.ts).
// 4. Catch up: replay from the captured offsets to the offsets read after the
//    swap into the now-live tables. The live projector kept writing while we
//    replayed, but into the tables that are now retired, so without this the
//    events appended during the rebuild would exist only there. Whatever the
//    live projector writes after the swap lands in the new tables, and the
//    offsets read after the swap are past anything it can have written to the
//    old ones (it only projects events that exist). So the replay up to the
//    captured offsets, this catch-up, and the live projector from here on
//    together cover every event. They overlap, and that is harmless: a row's
//    version is its offset, so an event projected twice is one row in FINAL.
//
// Any failure before step 3 leaves the live tables as they were and fails the
// rebuild; the scratch database stays for inspection until the next rebuild.
import type { Kafka } from 'kafkajs';
import type { ClickHouse } from '../runtime/clickhouse/client.ts';
import { migrate, type Migration } from '../runtime/clickhouse/migrations.ts';
import { describeError } from '../runtime/kafka/errors.ts';
import type { EventCodec } from '../runtime/kafka/registry.ts';
import type { Logger } from '../runtime/logger.ts';
import { retrying, type RetryPolicy } from '../runtime/retry.ts';
import { ProgressMeter, ProgressReporter, type ProgressOutput } from './progress.ts';
import { projectBatch } from './projector.ts';
import {
  appendedSince,
  eventsIn,
  partitionOffsets,
  replay,
  wholeLog,
  type PartitionOffsets,
  type PartitionRange,
  type ReplayResult,
} from '../runtime/kafka/replay.ts';
import { projectedTableNames, projectedTables } from './rows.ts';
import { rebuildDatabases, switchOver, type RebuildDatabases } from './switch-over.ts';
import { retryTransient } from '../runtime/kafka/transient.ts';

export type RebuildPhase = 'replaying' | 'switching-over' | 'catching-up';

export interface RebuildOptions {
  kafka: Kafka;
  codec: EventCodec;
  logger: Logger;
  /** A client whose default database is `database`, created if it does not exist. */
  connect: (database: string) => Promise<ClickHouse>;
  /** The live database; the scratch and retired ones are named after it. */
  database: string;
  migrations: readonly Migration[];
  /** Drop the replaced tables at once instead of keeping them until the next rebuild. */
  dropOld?: boolean;
  /** Where progress goes (a terminal gets one self-updating line); none when absent. */
  progress?: ProgressOutput;
  /** Awaited as each phase starts. */
  onPhase?: (phase: RebuildPhase) => Promise<void> | void;
  signal?: AbortSignal;
}

export interface PassSummary extends ReplayResult {
  ms: number;
}

export interface RebuildSummary {
  databases: RebuildDatabases;
  tables: string[];
  replayed: PassSummary;
  caughtUp: PassSummary;
}

export class RebuildError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'RebuildError';
  }
}

/**
 * The catch-up runs after the swap, where giving up costs events: it is worth a few more tries, whatever
 * failed (pauses of at most 2 and 4 s).
 */
const catchUpRetry: RetryPolicy = { maxAttempts: 3, initialBackoffMs: 2_000, maxBackoffMs: 4_000 };

export async function rebuild(options: RebuildOptions): Promise<RebuildSummary> {
  const { logger } = options;
  const db = rebuildDatabases(options.database);
  const topics = Object.keys(projectedTables);
  const tables = projectedTableNames();
  const admin = options.kafka.admin();
  let live: ClickHouse | undefined;
  let scratch: ClickHouse | undefined;

  const pass = async (label: string, ranges: PartitionRange[], into: ClickHouse): Promise<PassSummary> => {
    const started = Date.now();
    const meter = new ProgressMeter(eventsIn(ranges));
    const reporter =
      options.progress && ranges.some((r) => r.to > r.from)
        ? new ProgressReporter(label, meter, options.progress, logger).start()
        : undefined;
    try {
      const result = await replay({
        kafka: options.kafka,
        codec: options.codec,
        logger,
        ranges,
        project: async (events) => void (await projectBatch(into, events)),
        onAdvance: (n) => meter.advance(n),
        signal: options.signal,
      });
      return { ...result, ms: Date.now() - started };
    } finally {
      reporter?.finish();
    }
  };

  try {
    let replayed: PassSummary;
    let captured: PartitionOffsets[];
    try {
      live = await options.connect(db.live);
      // The tables to swap must exist in the live database, and its schema_migrations must say so.
      await migrate(live, options.migrations, logger);
      await live.command(`DROP DATABASE IF EXISTS ${db.scratch}`);
      // The tables the previous rebuild retired go now, not at the swap: three copies of every
      // table (live, scratch, retired) would be too many to ask of a disk.
      await live.command(`DROP DATABASE IF EXISTS ${db.retired}`);
      scratch = await options.connect(db.scratch);
      await migrate(scratch, options.migrations, logger.child({ database: db.scratch }));
      await admin.connect();
      captured = await partitionOffsets(admin, topics);
      const ranges = wholeLog(captured);
      logger.info(
        { scratch: db.scratch, events: eventsIn(ranges), partitions: ranges.length },
        'rebuild: replaying every projected topic up to its current end',
      );
      await options.onPhase?.('replaying');
      replayed = await pass('replay', ranges, scratch);
      await options.onPhase?.('switching-over');
    } catch (error) {
      throw new RebuildError(
        `rebuild aborted, the live tables in ${db.live} are untouched ` +
          `(partial tables stay in ${db.scratch} until the next rebuild): ${describeError(error)}`,
        { cause: error },
      );
    }

    // Throws with the live tables in place (switch-over.ts undoes a partial swap).
    await switchOver(live, tables, db, { logger, signal: options.signal });
    logger.info({ tables, retired: db.retired }, 'rebuild: switched over to the rebuilt tables');

    await options.onPhase?.('catching-up');
    const client = live;
    let tail: PartitionRange[] = [];
    const caughtUp = await retrying(
      async () => {
        tail = appendedSince(captured, await partitionOffsets(admin, topics));
        return pass('catch-up', tail, client);
      },
      {
        policy: catchUpRetry,
        signal: options.signal,
        onFailure: ({ error, attempt, next }) => {
          if (next.kind === 'retry' && !options.signal?.aborted)
            logger.warn({ attempt, err: describeError(error) }, 'rebuild: catch-up failed; trying again');
        },
      },
    );
    if (caughtUp.kind !== 'done')
      throw new RebuildError(
        `switched over to the rebuilt tables, but replaying the ${eventsIn(tail)} events appended ` +
          `during the rebuild failed: ${describeError(caughtUp.error)}. The live tables may miss some of them ` +
          `(the old tables in ${db.retired} have them); run the rebuild again.`,
        { cause: caughtUp.error },
      );

    // The scratch database's views point at tables it no longer has.
    const drop = (database: string) =>
      retryTransient(`dropping ${database}`, () => client.command(`DROP DATABASE IF EXISTS ${database}`), {
        logger,
      });
    await drop(db.scratch);
    if (options.dropOld) await drop(db.retired);
    return { databases: db, tables, replayed, caughtUp: caughtUp.value };
  } finally {
    await admin.disconnect().catch(() => undefined);
    await scratch?.close().catch(() => undefined);
    await live?.close().catch(() => undefined);
  }
}
