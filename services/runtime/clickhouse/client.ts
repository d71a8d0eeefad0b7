// A thin wrapper over @clickhouse/client that speaks only SQL text built with
// literal.ts (the Debian ClickHouse has no server-side parameters) and JSON
// rows. It exists so that every query goes through one place that adds the
// context (which statement failed) and keeps server error text out of callers'
// responses.
import { createClient, type ClickHouseClient } from '@clickhouse/client';
import { DependencyUnavailableError } from '../kafka/errors.ts';
import { identifier } from './literal.ts';

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

const clientFor = (config: ClickHouseConfig, database: string) =>
  createClient({
    url: config.url,
    username: config.user,
    password: config.password,
    database,
    request_timeout: 60_000,
    // 18.16 predates some of the client's defaults; keep the wire plain.
    compression: { request: false, response: false },
    application: 'news-intelligence',
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

export class ClickHouse {
  private constructor(
    private readonly client: ClickHouseClient,
    readonly database: string,
  ) {}

  /**
   * Connects to `config.database`, creating it first if it does not exist
   * (unless `createDatabase` is false: a read-only user may not create it).
   */
  static async connect(
    config: ClickHouseConfig,
    options: { createDatabase?: boolean } = {},
  ): Promise<ClickHouse> {
    identifier(config.database);
    if (options.createDatabase === false)
      return new ClickHouse(clientFor(config, config.database), config.database);
    const bootstrap = clientFor(config, 'default');
    try {
      await bootstrap.command({ query: `CREATE DATABASE IF NOT EXISTS ${config.database}` });
    } catch (error) {
      throw failure(`CREATE DATABASE IF NOT EXISTS ${config.database}`, error);
    } finally {
      await bootstrap.close();
    }
    return new ClickHouse(clientFor(config, config.database), config.database);
  }

  /** Runs a statement that returns no rows (DDL, INSERT ... VALUES). */
  async command(statement: string): Promise<void> {
    try {
      await this.client.command({ query: statement });
    } catch (error) {
      throw failure(statement, error);
    }
  }

  /** Runs a SELECT and returns its rows as objects. */
  async query<Row>(statement: string): Promise<Row[]> {
    try {
      const result = await this.client.query({ query: statement, format: 'JSONEachRow' });
      return await result.json<Row>();
    } catch (error) {
      throw failure(statement, error);
    }
  }

  /** Inserts rows (objects keyed by column) into a table in one request. */
  async insert(table: string, rows: readonly Record<string, unknown>[]): Promise<void> {
    if (rows.length === 0) return;
    try {
      await this.client.insert({
        table: identifier(table),
        values: rows as Record<string, unknown>[],
        format: 'JSONEachRow',
      });
    } catch (error) {
      throw failure(`INSERT INTO ${table} (${rows.length} rows)`, error);
    }
  }

  async ping(): Promise<boolean> {
    return (await this.client.ping()).success;
  }

  async close(): Promise<void> {
    await this.client.close();
  }
}
