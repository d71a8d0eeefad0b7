import { createServer } from 'node:net';
import { createClient } from '@clickhouse/client';
import { describe, expect, it, vi } from 'vitest';
import { capturedLogs } from '../../../test/support/captured-logs.ts';
import { clientLog } from './client-log.ts';

const capture = capturedLogs;

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe("the ClickHouse client's log", () => {
  it('goes through the process logger: a failed request (thrown to the caller) at debug, not as text on stderr', async () => {
    const stderr = vi.spyOn(console, 'error');
    const warn = vi.spyOn(console, 'warn');
    for (const level of ['info', 'debug']) {
      const { lines, logger } = capture(level);
      const client = createClient({ url: `http://127.0.0.1:${await closedPort()}`, log: clientLog(logger) });
      await expect(client.query({ query: 'SELECT 1' })).rejects.toThrow(/ECONNREFUSED/);
      await client.close();
      const failures = lines.filter((l) => /HTTP request error/.test(String(l.msg)));
      if (level === 'info') expect(lines).toEqual([]);
      else
        expect(failures).toEqual([
          expect.objectContaining({ level: 20, component: '@clickhouse/client', service: 'test' }),
        ]);
    }
    expect(stderr).not.toHaveBeenCalled();
    expect(warn).not.toHaveBeenCalled();
  });

  it('keeps the level of what only the client sees', () => {
    const { lines, logger } = capture('info');
    const { LoggerClass } = clientLog(logger);
    const client = new LoggerClass();
    client.error({
      module: 'SocketPool',
      message: 'an error occurred while housekeeping the idle sockets',
      err: new Error('x'),
    });
    client.warn({ module: 'Connection', message: 'socket was closed before the response was fully read' });
    client.info({ module: 'Connection', message: 'connected' });
    expect(lines.map((l) => [l.level, l.module, l.msg])).toEqual([
      [50, 'SocketPool', 'an error occurred while housekeeping the idle sockets'],
      [40, 'Connection', 'socket was closed before the response was fully read'],
    ]);
  });
});
