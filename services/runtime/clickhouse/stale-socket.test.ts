// ClickHouse.query sends a SELECT once more when the server hung up on it (a pooled socket it had
// closed), and only then: against a local HTTP server that hangs up on chosen requests. An INSERT, which
// cannot be sent twice, never goes on a pooled socket.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ClickHouse, ClickHouseUnavailableError, isStaleSocket } from './client.ts';

let server: Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

/** A server that hangs up on the requests whose number (from 1) `hangUp` names, else answers one row. */
async function serverThatHangsUp(hangUp: (n: number) => boolean) {
  let requests = 0;
  server = createServer((req, res) => {
    requests++;
    req.resume();
    if (hangUp(requests)) return void req.socket.destroy();
    res.writeHead(200, { 'Content-Type': 'application/x-ndjson' });
    res.end('{"one":1}\n');
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const clickhouse = await ClickHouse.connect(
    { url: `http://127.0.0.1:${port}`, user: 'default', password: '', database: 'news' },
    { createDatabase: false },
  );
  return { clickhouse, requests: () => requests };
}

describe('ClickHouse.query and a server that hangs up', () => {
  it('sends the SELECT once more after a hang-up and returns its rows', async () => {
    const { clickhouse, requests } = await serverThatHangsUp((n) => n === 1);
    expect(await clickhouse.query<{ one: number }>('SELECT 1 AS one')).toEqual([{ one: 1 }]);
    expect(requests()).toBe(2);
  });

  it('sends it twice at most: a server that keeps hanging up is unavailable', async () => {
    const { clickhouse, requests } = await serverThatHangsUp(() => true);
    await expect(clickhouse.query('SELECT 1 AS one')).rejects.toBeInstanceOf(ClickHouseUnavailableError);
    expect(requests()).toBe(2);
  });

  it('knows a hang-up from other failures', () => {
    expect(isStaleSocket(Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }))).toBe(true);
    expect(isStaleSocket(new Error('socket hang up'))).toBe(true);
    expect(
      isStaleSocket(new Error('Code: 60, e.displayText() = DB::Exception: Table news.x does not exist')),
    ).toBe(false);
    expect(isStaleSocket(undefined)).toBe(false);
  });
});

describe('ClickHouse inserts and pooled sockets', () => {
  it('sends each INSERT on a connection of its own, while SELECTs share one', async () => {
    const sockets: { statement: string; socket: object }[] = [];
    server = createServer((req, res) => {
      // An INSERT's statement is in the URL (its rows are the body); a SELECT's is the body.
      const inUrl = new URL(req.url ?? '/', 'http://x').searchParams.get('query');
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        const statement = inUrl ?? body.trim();
        sockets.push({ statement, socket: req.socket });
        res.writeHead(200, { 'Content-Type': 'application/x-ndjson' });
        // DESCRIBE TABLE (before the first insert) names the one column; anything else answers nothing.
        res.end(statement.startsWith('DESCRIBE') ? '{"name":"n","type":"UInt8","default_type":""}\n' : '');
      });
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const clickhouse = await ClickHouse.connect(
      { url: `http://127.0.0.1:${port}`, user: 'default', password: '', database: 'news' },
      { createDatabase: false },
    );
    for (let i = 0; i < 3; i++) await clickhouse.query('SELECT 1');
    for (let i = 0; i < 3; i++) await clickhouse.insert('t', [{ n: i }]);
    await clickhouse.close();
    const of = (prefix: string) => sockets.filter((s) => s.statement.startsWith(prefix)).map((s) => s.socket);
    expect(of('INSERT')).toHaveLength(3);
    expect(new Set(of('INSERT')).size).toBe(3);
    expect(new Set(of('SELECT')).size).toBe(1);
  });
});
