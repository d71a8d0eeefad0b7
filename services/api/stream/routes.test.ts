import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
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
