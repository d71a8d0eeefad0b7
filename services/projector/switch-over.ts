// Puts freshly rebuilt tables in place of the live ones with one RENAME TABLE
// statement: readers see either every old table or every new one, never a mix.
// ClickHouse 18.16 first waits for the queries using the tables (an insert
// in flight finishes into the old table), then renames the whole list under
// its global lock. The old tables move to a "retired" database
// rather than being dropped, so they can be inspected or moved back by hand
// until the next rebuild clears that database.
//
// Checked on ClickHouse 18.16: a multi-table RENAME across databases works,
// but it is not transactional. If one pair fails (a missing table), the pairs
// before it stay renamed. Hence the checks before the statement, and the undo
// after a failure, which reads where each table really is and moves back what
// was moved. Views are unaffected: 18.16 stores a view's query with qualified
// names (`FROM news.articles`) and resolves them when the view is queried, so
// after the swap they read the new tables. The materialized views through which
// articles are written (0013_article_ingest.sql) keep no data of their own and
// name their targets, which 18.16 looks up by name at each insert: they are not
// swapped, and write into the rebuilt tables once those carry the live names.
import type { ClickHouse } from '../runtime/clickhouse/client.ts';
import { identifier, sql } from '../runtime/clickhouse/literal.ts';
import { isUnavailable } from '../runtime/kafka/errors.ts';
import { retrying, type RetryPolicy } from '../runtime/retry.ts';
import { retryTransient, type TransientRetry } from '../runtime/kafka/transient.ts';

export interface RebuildDatabases {
  /** Where readers and the live projector find the read models. */
  live: string;
  /** Where the rebuild builds fresh tables. */
  scratch: string;
  /** Where the replaced tables wait until the next rebuild. */
  retired: string;
}

export const rebuildDatabases = (live: string): RebuildDatabases => ({
  live: identifier(live),
  scratch: identifier(`${live}_rebuild`),
  retired: identifier(`${live}_retired`),
});

/** Names as `database.table`, the form both the statement and system.tables use here. */
type Present = ReadonlySet<string>;
const at = (database: string, table: string) => `${database}.${identifier(table)}`;

/** Why the swap cannot run now; empty when it can. */
export function switchOverProblems(
  tables: readonly string[],
  db: RebuildDatabases,
  present: Present,
): string[] {
  const problems: string[] = [];
  for (const t of tables) {
    if (!present.has(at(db.live, t))) problems.push(`${at(db.live, t)} does not exist`);
    if (!present.has(at(db.scratch, t))) problems.push(`${at(db.scratch, t)} does not exist`);
    if (present.has(at(db.retired, t))) problems.push(`${at(db.retired, t)} is in the way`);
  }
  return problems;
}

/** live -> retired and scratch -> live for every table, in one statement. */
export function switchOverStatement(tables: readonly string[], db: RebuildDatabases): string {
  const pairs = tables.flatMap((t) => [
    `${at(db.live, t)} TO ${at(db.retired, t)}`,
    `${at(db.scratch, t)} TO ${at(db.live, t)}`,
  ]);
  return `RENAME TABLE ${pairs.join(', ')}`;
}

/** Whether every table is where a completed switch-over leaves it. */
export const switchedOver = (tables: readonly string[], db: RebuildDatabases, present: Present) =>
  tables.every(
    (t) => present.has(at(db.retired, t)) && present.has(at(db.live, t)) && !present.has(at(db.scratch, t)),
  );

/**
 * The statement that moves back whatever a failed switch-over moved, judged
 * from where the tables are now; undefined when nothing moved.
 */
export function undoStatement(
  tables: readonly string[],
  db: RebuildDatabases,
  present: Present,
): string | undefined {
  const pairs: string[] = [];
  for (const t of tables) {
    const retired = present.has(at(db.retired, t));
    const live = present.has(at(db.live, t));
    const scratch = present.has(at(db.scratch, t));
    if (retired && live && !scratch) {
      // Both renames of this table happened.
      pairs.push(`${at(db.live, t)} TO ${at(db.scratch, t)}`, `${at(db.retired, t)} TO ${at(db.live, t)}`);
    } else if (retired && !live) {
      // Only the first one did: the live name is empty.
      pairs.push(`${at(db.retired, t)} TO ${at(db.live, t)}`);
    }
  }
  return pairs.length > 0 ? `RENAME TABLE ${pairs.join(', ')}` : undefined;
}

async function tablesIn(clickhouse: ClickHouse, db: RebuildDatabases): Promise<Set<string>> {
  const rows = await clickhouse.query<{ database: string; name: string }>(
    sql`SELECT database, name FROM system.tables WHERE database IN (${db.live}, ${db.scratch}, ${db.retired})`,
  );
  return new Set(rows.map((r) => `${r.database}.${r.name}`));
}

/**
 * The statement is tried again only when it did not reach ClickHouse and nothing moved: three
 * attempts, pauses of at most 1 and 2 s.
 */
export const renameRetry: RetryPolicy = { maxAttempts: 3, initialBackoffMs: 1_000, maxBackoffMs: 2_000 };

/** The RENAME failed and no table moved; `cause` is its error. */
class NothingMoved extends Error {
  constructor(cause: unknown) {
    super((cause as Error).message, { cause });
  }
}

export class SwitchOverError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'SwitchOverError';
  }
}

/** Swaps `tables` of `db.scratch` in place of those of `db.live`; throws with the live tables in place. */
export async function switchOver(
  clickhouse: ClickHouse,
  tables: readonly string[],
  db: RebuildDatabases,
  retry: TransientRetry,
): Promise<void> {
  const present = () => retryTransient('reading system.tables', () => tablesIn(clickhouse, db), retry);
  await retryTransient(
    `creating ${db.retired}`,
    () => clickhouse.command(`CREATE DATABASE IF NOT EXISTS ${db.retired}`),
    retry,
  );
  const problems = switchOverProblems(tables, db, await present());
  if (problems.length > 0)
    throw new SwitchOverError(`cannot switch over, nothing was renamed: ${problems.join('; ')}`);

  const statement = switchOverStatement(tables, db);
  const renamed = await retrying(
    async () => {
      try {
        await clickhouse.command(statement);
      } catch (error) {
        const failure = (error as Error).message;
        const now = await present();
        // The answer can be lost after the server did the work (a timeout): then it is done.
        if (switchedOver(tables, db, now)) {
          retry.logger.warn({ err: failure }, 'RENAME reported a failure but every table was switched over');
          return;
        }
        const undo = undoStatement(tables, db, now);
        if (undo === undefined) throw new NothingMoved(error);
        await moveBack(clickhouse, tables, db, undo, failure, present);
        throw new SwitchOverError(`switch-over failed and was undone, the old tables are live: ${failure}`, {
          cause: error,
        });
      }
    },
    {
      policy: renameRetry,
      // Nothing moved: a dropped connection is worth another try, a rejected statement is not.
      classify: (error) =>
        error instanceof NothingMoved && isUnavailable(error.cause) ? 'retry' : 'give-up',
      signal: retry.signal,
      onFailure: ({ error, attempt, next }) => {
        if (next.kind === 'retry')
          retry.logger.warn(
            { attempt, err: (error as Error).message },
            'switch-over did not reach ClickHouse; retrying',
          );
      },
    },
  );
  if (renamed.kind === 'done') return;
  const { error } = renamed;
  if (error instanceof NothingMoved)
    throw new SwitchOverError(`switch-over failed, nothing was renamed: ${error.message}`, {
      cause: error.cause,
    });
  throw error;
}

async function moveBack(
  clickhouse: ClickHouse,
  tables: readonly string[],
  db: RebuildDatabases,
  undo: string,
  failure: string,
  present: () => Promise<Set<string>>,
): Promise<void> {
  try {
    await clickhouse.command(undo);
  } catch (undoError) {
    throw new SwitchOverError(
      `switch-over failed (${failure}) and moving the tables back failed too ` +
        `(${(undoError as Error).message}); to restore the live tables run: ${undo}`,
    );
  }
  const now = await present();
  const missing = tables.filter((t) => !now.has(at(db.live, t)));
  if (missing.length > 0)
    throw new SwitchOverError(
      `switch-over failed (${failure}); after moving back, ${missing.map((t) => at(db.live, t)).join(', ')} still missing`,
    );
}
