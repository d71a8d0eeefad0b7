// The exchange's own promises (the fetcher's tests cover it inside a whole fetch): the body whole and in
// chunks, its cap on the wire, and what leaving early or aborting does to the connection.
import { Agent } from 'undici';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Socket } from 'node:net';
import { startServer, type TestServer } from '../../../test/support/http-test-servers.ts';
import { exchange } from './exchange.ts';
import { BodyTooLargeError } from './response-body.ts';

const part = Buffer.alloc(16 * 1024, 'x');
/** The connection each request came on, by path. */
const sockets = new Map<string, Socket>();
const closed = (path: string) => sockets.get(path)?.destroyed;

describe('exchange', () => {
  let server: TestServer;
  let agent: Agent;
  beforeAll(async () => {
    server = await startServer((request, response) => {
      sockets.set(request.url ?? '', request.socket);
      const parts = Number(new URL(request.url ?? '/', 'http://x').searchParams.get('parts') ?? 0);
      response.writeHead(200, { 'content-type': 'text/plain', 'x-parts': String(parts) });
      // Written a part at a time, so the body arrives in several chunks.
      let sent = 0;
      const next = () => {
        if (response.destroyed) return;
        if (sent++ === parts) return void response.end();
        response.write(part);
        setImmediate(next);
      };
      next();
    });
  });
  afterAll(() => server.close());
  // One connection, so that a request either reuses the previous one's or needs a new one.
  beforeEach(() => void (agent = new Agent({ connections: 1 })));
  afterEach(() => agent.close());

  const get = (path: string, maxBytes: number, signal = new AbortController().signal) =>
    exchange(agent, { origin: server.at('127.0.0.1'), path, method: 'GET' }, maxBytes, signal);

  it('gives the head, then the whole body as it arrived, or chunk by chunk', async () => {
    const whole = await get('/whole?parts=5', 1024 * 1024);
    expect(whole.status).toBe(200);
    expect(whole.headers['x-parts']).toBe('5');
    expect(Buffer.from(await whole.read())).toEqual(Buffer.concat(Array(5).fill(part)));

    const chunked = await get('/chunked?parts=3', 1024 * 1024);
    let bytes = 0;
    for await (const chunk of chunked.chunks()) bytes += chunk.length;
    expect(bytes).toBe(3 * part.length);
  });

  it('fails a body past its cap on the wire with BodyTooLargeError, and closes the connection', async () => {
    const response = await get('/capped?parts=100', 40 * 1024);
    await expect(response.read()).rejects.toBeInstanceOf(BodyTooLargeError);
    await expect.poll(() => closed('/capped?parts=100')).toBe(true);
  });

  it('closes the connection when the reader leaves the chunks early', async () => {
    const response = await get('/early?parts=100', 1024 * 1024);
    for await (const chunk of response.chunks()) if (chunk.length > 0) break;
    await expect.poll(() => closed('/early?parts=100')).toBe(true);
  });

  it('aborts with the reason of its signal, before or after the head', async () => {
    const before = new AbortController();
    before.abort(new Error('deadline'));
    await expect(get('/before?parts=1', 1024, before.signal)).rejects.toThrow('deadline');

    const after = new AbortController();
    const response = await get('/after?parts=100', 1024 * 1024, after.signal);
    const reading = response.read();
    after.abort(new Error('deadline'));
    await expect(reading).rejects.toThrow('deadline');
  });

  it('discards a short body and keeps the connection, and closes it for a long one', async () => {
    const short = await get('/short?parts=1', 1024 * 1024);
    await short.discard(64 * 1024);
    await (await get('/next?parts=1', 1024 * 1024)).read();
    expect(sockets.get('/next?parts=1')).toBe(sockets.get('/short?parts=1'));

    const long = await get('/long?parts=100', 1024 * 1024);
    await long.discard(64 * 1024);
    await expect.poll(() => closed('/long?parts=100')).toBe(true);
  });
});
