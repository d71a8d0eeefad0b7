import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { Registry } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../runtime/logger.ts';
import { createApp } from '../app.ts';
import { answerClientErrors, describeClientError } from './client-errors.ts';

/** Sends raw bytes and resolves with everything the server wrote before it closed the connection. */
function exchange(port: number, request: Buffer | string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', (error: NodeJS.ErrnoException) =>
      // A reset after the answer arrived is still an answer.
      chunks.length > 0 ? resolve(Buffer.concat(chunks).toString('latin1')) : reject(error),
    );
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('latin1')));
    socket.write(request);
  });
}

function parse(raw: string) {
  const [head = '', body = ''] = raw.split('\r\n\r\n');
  const [statusLine = '', ...headerLines] = head.split('\r\n');
  const headers = Object.fromEntries(
    headerLines.map((line) => [
      line.slice(0, line.indexOf(':')).toLowerCase(),
      line.slice(line.indexOf(':') + 1).trim(),
    ]),
  );
  return { status: Number(statusLine.split(' ')[1]), headers, body };
}

describe('requests the HTTP parser refuses', () => {
  let server: Server;
  let port: number;

  beforeAll(async () => {
    // The API's app (nothing routed but a public /ok), so a request without Host meets its check.
    const app = createApp({
      routes: [],
      publicRoutes: (router) => router.get('/ok', (ctx) => void (ctx.body = 'ok')),
      authenticate: async () => undefined,
      limits: { maxBodyBytes: 1024, maxJsonDepth: 32 },
      logger: createLogger('client-errors-test', 'silent'),
      metrics: new Registry(),
    });
    // eslint-disable-next-line @typescript-eslint/no-misused-promises -- Koa's callback handles its own promise
    server = createServer(app.callback());
    answerClientErrors(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('answers headers past the limit with 431 in the error shape, even while more keep coming', async () => {
    const huge = `GET / HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(64 * 1024)}\r\n\r\n`;
    const answer = parse(await exchange(port, huge));
    expect(answer.status).toBe(431);
    expect(answer.headers['content-type']).toMatch(/^application\/json/);
    expect(answer.headers['connection']).toBe('close');
    const body = JSON.parse(answer.body) as { error: { code: string; message: string; request_id: string } };
    expect(body.error.code).toBe('headers_too_large');
    expect(body.error.message).toMatch(/headers/);
    expect(Object.keys(body)).toEqual(['error']);
    // as every answer of the API: its request id, and readable from a page on another origin
    expect(body.error.request_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(answer.headers['x-request-id']).toBe(body.error.request_id);
    expect(answer.headers['access-control-allow-origin']).toBe('*');
    expect(answer.headers['access-control-expose-headers']).toMatch(/X-Request-Id/);
    expect(Number(answer.headers['content-length'])).toBe(Buffer.byteLength(answer.body));
  });

  it.each([
    ['a control character in a header value', 'GET / HTTP/1.1\r\nHost: x\r\nX-Odd: a\x01b\r\n\r\n'],
    ['a header name with a space', 'GET / HTTP/1.1\r\nHost: x\r\nBad Name: 1\r\n\r\n'],
    [
      'two different Content-Lengths',
      'POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab',
    ],
    ['a method that is not a token', 'G(T / HTTP/1.1\r\nHost: x\r\n\r\n'],
    ['a bad HTTP version', 'GET / HTTP/9.9\r\nHost: x\r\n\r\n'],
    [
      'both Transfer-Encoding and Content-Length',
      'POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\n0\r\n\r\n',
    ],
  ])('answers %s with 400 malformed_request and a message', async (_, request) => {
    const answer = parse(await exchange(port, request));
    expect(answer.status).toBe(400);
    const body = JSON.parse(answer.body) as { error: { code: string; message: string } };
    expect(body.error.code).toBe('malformed_request');
    expect(body.error.message.length).toBeGreaterThan(20);
  });

  it('answers an Expect other than 100-continue with 417 in the error shape', async () => {
    const answer = parse(await exchange(port, 'GET /ok HTTP/1.1\r\nHost: x\r\nExpect: tea\r\n\r\n'));
    expect(answer.status).toBe(417);
    const body = JSON.parse(answer.body) as { error: { code: string; message: string } };
    expect(body.error.code).toBe('expectation_failed');
    expect(body.error.message).toMatch(/100-continue/);
    expect(answer.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(answer.headers['access-control-allow-origin']).toBe('*');
  });

  it('still serves well-formed requests', async () => {
    const answer = parse(await exchange(port, 'GET /ok HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'));
    expect(answer.status).toBe(200);
  });

  it('answers an HTTP/1.1 request without Host with 400 in the error shape (Node would send no body)', async () => {
    const answer = parse(await exchange(port, 'GET /ok HTTP/1.1\r\nConnection: close\r\n\r\n'));
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body)).toEqual({
      error: { code: 'malformed_request', message: 'an HTTP/1.1 request must send a Host header' },
    });
  });

  it('serves an HTTP/1.0 request without Host, which needs none', async () => {
    const answer = parse(await exchange(port, 'GET /ok HTTP/1.0\r\n\r\n'));
    expect(answer.status).toBe(200);
  });

  it('says a request that arrived too slowly timed out, without quoting any of it', () => {
    const timeout = Object.assign(new Error('Request timeout'), { code: 'ERR_HTTP_REQUEST_TIMEOUT' });
    expect(describeClientError(timeout).code).toBe('request_timeout');
  });
});
