// The HTTP plumbing of the callback: routes (with a proxy's path prefix), the bound on the body, the
// signature header handed over as sent, /metrics, and a close that no silent connection holds up.
import { connect } from 'node:net';
import { Registry } from 'prom-client';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../runtime/logger.ts';
import { startCallbackServer, type RunningCallbackServer } from './callback-server.ts';
import type { WebsubCallback } from './websub-callback.ts';
import { websubMetrics } from './websub-metrics.ts';

describe('callback server', () => {
  let server: RunningCallbackServer | undefined;
  afterEach(async () => server?.close());

  const start = async () => {
    const calls: unknown[][] = [];
    const callback = {
      verify: async (sourceId: string, query: URLSearchParams) => {
        calls.push(['verify', sourceId, query.get('hub.challenge')]);
        return { status: 200, body: query.get('hub.challenge') ?? '' };
      },
      notify: async (
        sourceId: string,
        signature: string | undefined,
        contentType: string | null,
        body: Uint8Array,
      ) => {
        calls.push(['notify', sourceId, signature, contentType, Buffer.from(body).toString()]);
        return { status: 204, body: '' };
      },
    } as unknown as WebsubCallback;
    const registry = new Registry();
    server = await startCallbackServer({
      host: '127.0.0.1',
      port: 0,
      callback,
      maxBodyBytes: 1024,
      metrics: websubMetrics(registry),
      registry,
      logger: createLogger('test', 'silent'),
    });
    return { calls, url: server.url };
  };

  it('routes GET and POST on …/websub/{sourceId}, behind a path prefix too', async () => {
    const { calls, url } = await start();
    const get = await fetch(`${url}/prefix/websub/src%2F1?hub.mode=subscribe&hub.challenge=abc`);
    expect([get.status, await get.text(), get.headers.get('content-type')]).toEqual([
      200,
      'abc',
      'text/plain; charset=utf-8',
    ]);
    const post = await fetch(`${url}/websub/src_1`, {
      method: 'POST',
      headers: { 'x-hub-signature': 'sha1=00', 'content-type': 'application/atom+xml' },
      body: '<feed/>',
    });
    expect(post.status).toBe(204);
    expect(calls).toEqual([
      ['verify', 'src/1', 'abc'],
      ['notify', 'src_1', 'sha1=00', 'application/atom+xml', '<feed/>'],
    ]);
    expect((await fetch(`${url}/elsewhere`)).status).toBe(404);
    expect((await fetch(`${url}/websub/src_1`, { method: 'PUT' })).status).toBe(405);
  });

  it('closes without waiting for a connection on which no request arrived', async () => {
    const { url } = await start();
    const { hostname, port } = new URL(url);
    const silent = connect(Number(port), hostname);
    await new Promise((resolve) => silent.once('connect', resolve));
    const socketClosed = new Promise((resolve) => silent.once('close', resolve));
    await server!.close();
    server = undefined;
    await socketClosed;
  });

  it('refuses a body over the bound with 413 without handing it on, and counts it', async () => {
    const { calls, url } = await start();
    const answer = await fetch(`${url}/websub/src_1`, { method: 'POST', body: 'x'.repeat(1025) });
    expect(answer.status).toBe(413);
    expect(calls).toEqual([]);
    const metrics = await (await fetch(`${url}/metrics`)).text();
    expect(metrics).toContain('websub_notifications_total{outcome="too_large"} 1');
  });
});
