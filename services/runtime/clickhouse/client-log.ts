// What @clickhouse/client logs, written through the process's own logger (JSON lines, its LOG_LEVEL)
// instead of the client's default, which prints multi-line text to stderr whatever the level.
//
// A failed request or ping is also thrown to our wrapper (client.ts), whose callers report it where they
// know what it means (a wait for ClickHouse, a 503, a readiness check): the client's own line for it
// repeats that without the context, so it is kept at debug. What only the client sees (its housekeeping
// of idle sockets, a response stream left unread) keeps its level.
import { ClickHouseLogLevel, type Logger as ClientLogger } from '@clickhouse/client';
import type { Logger } from '../logger.ts';

/** Messages of failures the client also throws to its caller ("Query: HTTP request error.", "Ping: …"). */
const rethrown = /HTTP request error/;

interface Entry {
  module: string;
  message: string;
  args?: Record<string, unknown>;
  err?: Error;
}

/** The client's `log` option: a logger class writing to `logger`, and the level the client logs from. */
export function clientLog(logger: Logger): {
  LoggerClass: new () => ClientLogger;
  level: ClickHouseLogLevel;
} {
  const child = logger.child({ component: '@clickhouse/client' });
  const write = (level: 'trace' | 'debug' | 'warn' | 'error', { module, message, args, err }: Entry) =>
    child[level]({ module, ...args, ...(err ? { err } : {}) }, message);
  class ProcessLogger implements ClientLogger {
    trace(entry: Entry) {
      write('trace', entry);
    }
    debug(entry: Entry) {
      write('debug', entry);
    }
    info(entry: Entry) {
      write('debug', entry);
    }
    warn(entry: Entry) {
      write(rethrown.test(entry.message) ? 'debug' : 'warn', entry);
    }
    error(entry: Entry & { err: Error }) {
      write(rethrown.test(entry.message) ? 'debug' : 'error', entry);
    }
  }
  // The client builds its debug lines only when asked to: at warn unless this process logs debug.
  const level = child.isLevelEnabled('debug') ? ClickHouseLogLevel.DEBUG : ClickHouseLogLevel.WARN;
  return { LoggerClass: ProcessLogger, level };
}
