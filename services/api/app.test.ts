import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Registry } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../runtime/api-error.ts';
import { createLogger } from '../runtime/logger.ts';
import { createApp } from './app.ts';
import { defineRoute } from './http/route.ts';

const answer = (what: string) => async (ctx: { body: unknown }) => {
  ctx.body = { what };
};
const route = (method: 'get' | 'post', path: string, operationId: string) =>
  defineRoute({
    method,
    path,
    operationId,
    summary: operationId,
    tag: 'things',
    responses: {},
    handler: answer(operationId),
  });

const app = createApp({
  routes: [
    route('get', '/v1/things', 'listThings'),
    route('post', '/v1/things', 'addThing'),
    route('get', '/v1/things/{id}', 'getThing'),
  ],
  publicRoutes: (router) => {
    router.get('/health', (ctx) => {
      ctx.body = { ok: true };
    });
  },
  // Every authenticated route needs a bearer: what answers without one never reached authentication.
  authenticate: async (ctx, next) => {
    if (!ctx.get('authorization')) throw new ApiError('unauthorized', 'no credentials');
    ctx.state.principal = { tenantId: 't', clientId: 'c', scopes: new Set(), limits: {} };
    await next();
  },
  limits: { maxBodyBytes: 1024, maxJsonDepth: 32 },
  logger: createLogger('app-test', 'silent'),
  metrics: new Registry(),
});

let server: Server;
let base = '';
beforeAll(async () => {
  server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

const call = (method: string, path: string) =>
  fetch(`${base}${path}`, { method, headers: { authorization: 'Bearer x' } });

describe('a request no route answers', () => {
  it('is 405 with Allow on a path that accepts other methods, in the error body', async () => {
    const response = await call('DELETE', '/v1/things');
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('HEAD, GET, POST');
    expect(await response.json()).toEqual({
      error: {
        code: 'method_not_allowed',
        message: 'DELETE is not supported on /v1/things; it accepts HEAD, GET, POST',
      },
    });
  });

  it('is 405 on a path with parameters, and on the public routes too', async () => {
    const item = await call('POST', '/v1/things/abc');
    expect([item.status, item.headers.get('allow')]).toEqual([405, 'HEAD, GET']);
    const health = await call('PUT', '/health');
    expect([health.status, health.headers.get('allow')]).toEqual([405, 'HEAD, GET']);
  });

  it('is answered before authentication: which methods a path takes is public (/openapi.json)', async () => {
    const response = await fetch(`${base}/v1/things`, { method: 'DELETE' });
    expect(response.status).toBe(405);
    expect((await fetch(`${base}/v1/things`)).status).toBe(401);
  });

  it('is 404 not_found on a path no route serves, whatever the method', async () => {
    for (const method of ['GET', 'POST', 'OPTIONS']) {
      const response = await call(method, '/v1/nothing');
      expect(response.status, method).toBe(404);
      expect(response.headers.get('allow'), method).toBeNull();
      expect(((await response.json()) as ApiErrorBody).error.code, method).toBe('not_found');
    }
  });

  it('answers OPTIONS on a known path with 200 and Allow', async () => {
    const response = await call('OPTIONS', '/v1/things/abc');
    expect(response.status).toBe(200);
    expect(response.headers.get('allow')).toBe('HEAD, GET');
    expect(await response.text()).toBe('');
  });

  it('leaves the routes themselves alone', async () => {
    const response = await call('GET', '/v1/things/abc');
    expect([response.status, await response.json()]).toEqual([200, { what: 'getThing' }]);
  });
});

interface ApiErrorBody {
  error: { code: string; message: string };
}

describe('a request from a page on another origin (CORS)', () => {
  const origin = 'https://dashboard.example';

  it('has its preflight answered before authentication, for any origin, with the headers it asks for', async () => {
    const response = await fetch(`${base}/v1/things`, {
      method: 'OPTIONS',
      headers: {
        origin,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization, content-type',
      },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('access-control-allow-methods')).toBe('GET,HEAD,POST,DELETE');
    expect(response.headers.get('access-control-allow-headers')).toBe('authorization, content-type');
    expect(response.headers.get('access-control-allow-credentials')).toBeNull();
  });

  it('may read the answer and the headers a client needs (request id, rate limits, Retry-After)', async () => {
    const response = await fetch(`${base}/v1/things/abc`, { headers: { origin, authorization: 'Bearer x' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    const exposed = response.headers.get('access-control-expose-headers')!.split(',');
    expect(exposed).toEqual(expect.arrayContaining(['X-Request-Id', 'RateLimit-Remaining', 'Retry-After']));
  });

  it('may read an error too (a 401 without credentials)', async () => {
    const response = await fetch(`${base}/v1/things`, { headers: { origin } });
    expect(response.status).toBe(401);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
  });
});
