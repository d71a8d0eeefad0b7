// A thin wrapper over @clickhouse/client that speaks only SQL text built with
// literal.ts (the Debian ClickHouse has no server-side parameters) and JSON
// rows. It exists so that every query goes through one place that adds the
// context (which statement failed) and keeps server error text out of callers'
// responses.
import { createClient, type ClickHouseClient } from '@clickhouse/client';
import { DependencyUnavailableError } from '../kafka/errors.ts';
import type { Logger } from '../logger.ts';
import { clientLog } from './client-log.ts';
import { Readable } from 'node:stream';
import { identifier } from './literal.ts';
import { encodeRowBinary, parseColumnType, type Column } from './row-binary.ts';

export interface ClickHouseConfig {
  url: string;
  user: string;
  password: string;
  database: string;
}

export class ClickHouseQueryError extends Error {
  constructor(
    readonly statement: string,
    cause: unknown,
  ) {
    // The statement is cut short: it is context for logs, not a place for row data.
    super(
      `ClickHouse rejected: ${statement.replace(/\s+/g, ' ').slice(0, 200)}: ${(cause as Error)?.message ?? cause}`,
      {
        cause,
      },
    );
    this.name = 'ClickHouseQueryError';
  }
}

/** The connection settings from a service's configuration (infrastructureEnv); `database` overrides its database. */
export function clickHouseSettings(
  config: {
    CLICKHOUSE_URL: string;
    CLICKHOUSE_USER: string;
    CLICKHOUSE_PASSWORD: string;
    CLICKHOUSE_DATABASE: string;
  },
  database: string = config.CLICKHOUSE_DATABASE,
): ClickHouseConfig {
  return {
    url: config.CLICKHOUSE_URL,
    user: config.CLICKHOUSE_USER,
    password: config.CLICKHOUSE_PASSWORD,
    database,
  };
}

const clientFor = (
  config: ClickHouseConfig,
  database: string,
  logger: Logger | undefined,
  reuseConnections = true,
) =>
  createClient({
    ...(logger ? { log: clientLog(logger) } : {}),
    url: config.url,
    username: config.user,
    password: config.password,
    database,
    request_timeout: 60_000,
    // 18.16 predates some of the client's defaults; keep the wire plain.
    compression: { request: false, response: false },
    application: 'news-intelligence',
    // ClickHouse closes an idle connection after 3 s (its keep_alive_timeout here and in older releases);
    // a process whose event loop was busy longer (a large projected batch) would otherwise send its next
    // request on a socket the server has closed. The client's own limit (2.5 s by default) left too
    // little margin: the projector's concurrent inserts still met EPIPE on a loaded machine.
    // That margin is measured from when the process read the last answer, not from when the server sent
    // it: a loop busy through the answer's arrival (bench:api at 1,000,000: 7 s encoding a group of
    // 41,667 articles) makes a socket the server closed long ago look fresh. Hence inserts, which must
    // not be sent twice, go on connections of their own (`reuseConnections` false, below).
    keep_alive: reuseConnections
      ? { eagerly_destroy_stale_sockets: true, idle_socket_ttl: 1_500 }
      : { enabled: false },
  });

/** ClickHouse codes that mean "try again later", not "this statement is wrong". */
const transientCodes = new Set([
  '159', // TIMEOUT_EXCEEDED
  '202', // TOO_MANY_SIMULTANEOUS_QUERIES
  '203', // NO_FREE_CONNECTION
  '209', // SOCKET_TIMEOUT
  '210', // NETWORK_ERROR
  '241', // MEMORY_LIMIT_EXCEEDED
  '242', // TABLE_IS_READ_ONLY
  '252', // TOO_MANY_PARTS
  '319', // UNKNOWN_STATUS_OF_INSERT
]);

export class ClickHouseUnavailableError extends DependencyUnavailableError {
  constructor(statement: string, cause: unknown) {
    super(
      `ClickHouse unavailable for ${statement.replace(/\s+/g, ' ').slice(0, 80)}: ${(cause as Error)?.message ?? cause}`,
      {
        cause,
      },
    );
    this.name = 'ClickHouseUnavailableError';
  }
}

/** A server error with a ClickHouse code is about the statement (unless the code says otherwise); anything else is the network. */
function failure(statement: string, error: unknown): Error {
  // @clickhouse/client sets `code` for current servers; 18.16 answers "Code: 60, e.displayText() = ...",
  // which it does not parse, so the code is read from the message as well.
  const property = typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : '';
  const code = /^\d+$/.test(property) ? property : /Code: (\d+)/.exec((error as Error)?.message ?? '')?.[1];
  if (code === undefined || transientCodes.has(code)) return new ClickHouseUnavailableError(statement, error);
  return new ClickHouseQueryError(statement, error);
}

/** The server closed the connection under a request sent on a socket reused from the pool. */
export function isStaleSocket(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  return (
    code === 'ECONNRESET' ||
    code === 'EPIPE' ||
    (typeof message === 'string' && /socket hang up/i.test(message))
  );
}

/** Rows per INSERT request (ClickHouse.insert). */
export const maxInsertRows = 100_000;

export class ClickHouse {
  /** Insertable columns of each table this client inserted into (DESCRIBE TABLE). */
  private readonly tableColumns = new Map<string, Column[]>();

  private constructor(
    private readonly client: ClickHouseClient,
    /**
     * For INSERTs: a new connection each, never one the server may have closed under it. A SELECT sent
     * on such a socket is sent again (query()); an INSERT cannot be, since the server may have written
     * part of it (ClickHouse writes a long body block by block as it reads). A connection a request
     * costs nothing beside an insert's rows: the writers insert in batches.
     */
    private readonly inserter: ClickHouseClient,
    readonly database: string,
  ) {}

  /**
   * Connects to `config.database`, creating it first if it does not exist
   * (unless `createDatabase` is false: a read-only user may not create it).
   */
  static async connect(
    config: ClickHouseConfig,
    options: {
      createDatabase?: boolean;
      /** Where the client's own log lines go (client-log.ts); the client prints them as text without. */
      logger?: Logger;
    } = {},
  ): Promise<ClickHouse> {
    identifier(config.database);
    if (options.createDatabase === false) return ClickHouse.over(config, config.database, options.logger);
    const bootstrap = clientFor(config, 'default', options.logger);
    try {
      await bootstrap.command({ query: `CREATE DATABASE IF NOT EXISTS ${config.database}` });
    } catch (error) {
      throw failure(`CREATE DATABASE IF NOT EXISTS ${config.database}`, error);
    } finally {
      await bootstrap.close();
    }
    return ClickHouse.over(config, config.database, options.logger);
  }

  private static over(config: ClickHouseConfig, database: string, logger: Logger | undefined): ClickHouse {
    return new ClickHouse(
      clientFor(config, database, logger),
      clientFor(config, database, logger, false),
      database,
    );
  }

  /** Runs a statement that returns no rows (DDL, INSERT ... VALUES). */
  async command(statement: string): Promise<void> {
    try {
      await this.client.command({ query: statement });
    } catch (error) {
      throw failure(statement, error);
    }
  }

  /**
   * Runs a SELECT and returns its rows as objects. A read sent on a pooled socket the server had just
   * closed (the keep-alive race above still happens when the event loop stalls: 1 request in 20,000 of
   * `npm run fuzz`) is sent once more: a SELECT changes nothing, so sending it again is safe.
   */
  async query<Row>(statement: string): Promise<Row[]> {
    const select = async () => {
      const result = await this.client.query({ query: statement, format: 'JSONEachRow' });
      return await result.json<Row>();
    };
    try {
      return await select();
    } catch (error) {
      if (!isStaleSocket(error)) throw failure(statement, error);
    }
    try {
      return await select();
    } catch (error) {
      throw failure(statement, error);
    }
  }

  /**
   * Inserts rows (objects keyed by column) into a table, as RowBinary (row-binary.ts): the columns the
   * rows name, typed as the table declares them. One request per `maxInsertRows` rows: a projected batch
   * of articles brings a hundred search postings each, and a body of a million rows had ClickHouse 18.16
   * drop the connection (EPIPE, in bench:api) every time it was retried. The requests are not one
   * transaction: a failure part way leaves the earlier parts written, which the read models' writers
   * tolerate, since writing a row again leaves the same table (ReplacingMergeTree on the event offset).
   */
  async insert(table: string, rows: readonly Record<string, unknown>[]): Promise<void> {
    for (let start = 0; start < rows.length; start += maxInsertRows) {
      await this.insertPart(table, rows.slice(start, start + maxInsertRows));
    }
  }

  private async insertPart(table: string, rows: readonly Record<string, unknown>[]): Promise<void> {
    if (rows.length === 0) return;
    // Every column any row names (a tombstone row names only a few); a row without one gets its default.
    const names = new Set<string>();
    for (const row of rows) for (const name of Object.keys(row)) names.add(name);
    const columns = await this.insertColumns(table, [...names]);
    const statement = `INSERT INTO ${identifier(table)} (${columns.map((c) => identifier(c.name)).join(', ')}) FORMAT RowBinary`;
    const body = encodeRowBinary(columns, rows);
    try {
      const result = await this.inserter.exec({ query: statement, values: Readable.from([body]) });
      // The answer of an INSERT is empty; reading it to the end ends the request and its connection.
      for await (const chunk of result.stream) void chunk;
    } catch (error) {
      throw failure(`INSERT INTO ${table} (${rows.length} rows)`, error);
    }
  }

  /**
   * Inserts rows the caller encoded as RowBinary of `columns` (row-binary.ts), for writers that build
   * their rows from numbers rather than objects (the projector's search postings). The columns must be
   * the table's, with the table's types: checked against DESCRIBE TABLE before anything is sent.
   */
  async insertRowBinary(table: string, columns: readonly Column[], body: Buffer): Promise<void> {
    if (body.length === 0) return;
    const known = await this.insertColumns(
      table,
      columns.map((c) => c.name),
    );
    for (const column of columns) {
      const declared = known.find((c) => c.name === column.name);
      if (JSON.stringify(declared?.type) !== JSON.stringify(column.type))
        throw new ClickHouseQueryError(
          `INSERT INTO ${table}`,
          new Error(
            `column ${column.name} is ${JSON.stringify(declared?.type)}, not ${JSON.stringify(column.type)}`,
          ),
        );
    }
    const statement = `INSERT INTO ${identifier(table)} (${columns.map((c) => identifier(c.name)).join(', ')}) FORMAT RowBinary`;
    try {
      const result = await this.inserter.exec({ query: statement, values: Readable.from([body]) });
      for await (const chunk of result.stream) void chunk;
    } catch (error) {
      throw failure(`INSERT INTO ${table} (${body.length} bytes)`, error);
    }
  }

  /** The table's columns named in `names`, in the table's order; looked up again once after a migration. */
  private async insertColumns(table: string, names: readonly string[]): Promise<Column[]> {
    for (let fresh = false; ; fresh = true) {
      let known = this.tableColumns.get(table);
      if (!known || fresh) {
        known = await this.describe(table);
        this.tableColumns.set(table, known);
      }
      const byName = new Map(known.map((c) => [c.name, c]));
      const unknown = names.filter((n) => !byName.has(n));
      if (unknown.length === 0) return known.filter((c) => names.includes(c.name));
      if (fresh)
        throw new ClickHouseQueryError(`INSERT INTO ${table}`, new Error(`no column ${unknown.join(', ')}`));
    }
  }

  private async describe(table: string): Promise<Column[]> {
    const rows = await this.query<{ name: string; type: string; default_type: string }>(
      `DESCRIBE TABLE ${identifier(table)}`,
    );
    // MATERIALIZED and ALIAS columns are computed by ClickHouse and cannot be inserted.
    return rows
      .filter((r) => r.default_type !== 'MATERIALIZED' && r.default_type !== 'ALIAS')
      .map((r) => ({ name: r.name, type: parseColumnType(r.type) }));
  }

  async ping(): Promise<boolean> {
    return (await this.client.ping()).success;
  }

  async close(): Promise<void> {
    await Promise.all([this.client.close(), this.inserter.close()]);
  }
}
