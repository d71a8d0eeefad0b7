import type { Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { Registry } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../runtime/logger.ts';
import { createApp } from '../app.ts';
import { AccessTokens } from '../auth/access-tokens.ts';
import { parseSigningKeys } from '../auth/signing-keys.ts';
import { streamRoutes } from './routes.ts';

describe('HEAD /v1/stream', () => {
  let server: Server;
  let base = '';
  let opened = 0;

  beforeAll(async () => {
    const routes = streamRoutes({
      hub: {
        open: async () => {
          opened++;
          throw new Error('a HEAD request must not open a stream');
        },
      },
      partitions: () => [0],
      position: () => new Map(),
      logEnd: async () => [],
      streamTokens: new AccessTokens(parseSigningKeys(''), { issuer: 'test', audience: 'stream' }),
    } as never);
    const app = createApp({
      routes,
      publicRoutes: () => undefined,
      authenticate: async (ctx, next) => {
        ctx.state.principal = { tenantId: 't', clientId: 'c', scopes: new Set(['read:feeds']), limits: {} };
        await next();
      },
      limits: { maxBodyBytes: 1024, maxJsonDepth: 32 },
      logger: createLogger('stream-routes-test', 'silent'),
      metrics: new Registry(),
    });
    server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  it("answers the stream's headers at once and opens no stream (nor takes a live slot)", async () => {
    const response = await fetch(`${base}/v1/stream?category=business`, { method: 'HEAD' });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(opened).toBe(0);
  });

  it('still validates its parameters', async () => {
    const response = await fetch(`${base}/v1/stream?category=nonsense`, { method: 'HEAD' });
    expect(response.status).toBe(400);
  });
});

describe('GET /v1/stream with a Last-Event-ID', () => {
  let server: Server;
  let base = '';
  const resumed: unknown[] = [];

  beforeAll(async () => {
    const routes = streamRoutes({
      hub: {
        open: async ({ res, resumeFrom }) => {
          resumed.push(resumeFrom);
          res.writeHead(200, { 'content-type': 'text/event-stream' });
          res.end();
          return {} as never; // the connection is not looked at
        },
      },
      partitions: () => [1, 1, 1, 1],
      // This instance's tail has read up to 5 of each; the log ends at 7.
      position: () => [[5], [5], [5], [5]],
      logEnd: async () => [[7], [7], [7], [7]],
      streamTokens: new AccessTokens(parseSigningKeys(''), { issuer: 'test', audience: 'stream' }),
      announced: () => false,
    });
    const app = createApp({
      routes,
      publicRoutes: () => undefined,
      authenticate: async (ctx, next) => {
        ctx.state.principal = {
          tenantId: 't',
          clientId: 'c',
          scopes: new Set(['read:feeds']),
          limits: { liveConnections: 5 },
        };
        await next();
      },
      limits: { maxBodyBytes: 1024, maxJsonDepth: 32 },
      logger: createLogger('stream-routes-test', 'silent'),
      metrics: new Registry(),
    });
    server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  it('resumes from a position the log holds, even one ahead of this instance', async () => {
    const response = await fetch(`${base}/v1/stream`, { headers: { 'last-event-id': '7~6~0~5' } });
    expect(response.status).toBe(200);
    expect(resumed.at(-1)).toEqual([[7], [6], [0], [5]]);
  });

  it('refuses a position past the end of the log, naming Last-Event-ID', async () => {
    const before = resumed.length;
    const response = await fetch(`${base}/v1/stream`, { headers: { 'last-event-id': '5~8~5~5' } });
    expect(response.status).toBe(400);
    const { error } = (await response.json()) as { error: { message: string } };
    expect(error.message).toMatch(/^Last-Event-ID: is ahead of the end of the stream/);
    expect(resumed).toHaveLength(before);
  });

  it('names the query parameter when the id came from it, and refuses the header given twice', async () => {
    const query = await fetch(`${base}/v1/stream?last_event_id=not-an-id`);
    expect(query.status).toBe(400);
    expect(((await query.json()) as { error: { message: string } }).error.message).toMatch(
      /^last_event_id: is not an event id/,
    );
    // fetch joins a repeated header into one: the request is written by hand.
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(new URL(base).port), '127.0.0.1');
      let text = '';
      socket.on('data', (chunk) => (text += chunk.toString()));
      socket.on('end', () => resolve(text));
      socket.on('error', reject);
      socket.write(
        'GET /v1/stream HTTP/1.1\r\nHost: x\r\nConnection: close\r\n' +
          'Last-Event-ID: 7~6~0~5\r\nLast-Event-ID: 7~6~0~5\r\n\r\n',
      );
    });
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    expect(answer).toContain('Last-Event-ID: given more than once; send the id of the last event received');
  });
});
