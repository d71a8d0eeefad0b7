import { request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Registry } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { capturedLogs } from '../../test/support/captured-logs.ts';
import { ApiError } from '../runtime/api-error.ts';
import { createLogger } from '../runtime/logger.ts';
import { createApp } from './app.ts';
import { booleanParam, categoryParam, commaList, limitParam, sourceParam } from './http/params.ts';
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

const echo = async (ctx: { body: unknown }, input: { query: unknown; body: unknown }) => {
  ctx.body = { query: input.query ?? null, body: input.body ?? null };
};

const app = createApp({
  routes: [
    route('get', '/v1/things', 'listThings'),
    route('post', '/v1/things', 'addThing'),
    route('get', '/v1/things/{id}', 'getThing'),
    defineRoute({
      method: 'get',
      path: '/v1/filtered',
      operationId: 'filtered',
      summary: 'list',
      tag: 'things',
      query: z.object({
        category: categoryParam.optional(),
        source: sourceParam.optional(),
        active_only: booleanParam('').optional(),
        limit: limitParam(100, 20),
      }),
      responses: {},
      handler: echo,
    }),
    defineRoute({
      method: 'get',
      path: '/v1/feed',
      operationId: 'feed',
      summary: 'feed',
      tag: 'things',
      bodyFromQuery: true,
      body: z.object({
        topics: commaList(z.string().transform((s) => s.split(','))),
        limit: limitParam(100, 20),
      }),
      responses: {},
      handler: echo,
    }),
    defineRoute({
      method: 'post',
      path: '/v1/echo',
      operationId: 'echo',
      summary: 'echo',
      tag: 'things',
      body: z.object({ name: z.string() }),
      responses: {},
      handler: echo,
    }),
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
    expect(response.headers.get('access-control-allow-methods')).toBe('GET,HEAD,POST,PATCH,DELETE');
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

// How a query string's repeated and bracketed parameters reach a route (route.ts): joined for the
// parameters that take comma-separated lists (OpenAPI's default form for arrays, axios's `name[]`),
// refused for the others.
async function get(path: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${base}${path}`, { headers: { authorization: 'Bearer x' } });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe('a list parameter', () => {
  it.each([
    ['repeated', '?category=world&category=science'],
    ['repeated, each a list', '?category=world,science&category=science'],
    ['with brackets', '?category[]=world&category[]=science'],
    ['with and without brackets', '?category=world&category[]=science'],
  ])('%s is read as one comma-separated list', async (_, query) => {
    const { status, body } = await get(`/v1/filtered${query}`);
    expect(status).toBe(200);
    expect(body.query).toEqual({ category: ['world', 'science'], limit: 20 });
  });

  it('is joined in a body read from the query string too (feeds/personalized)', async () => {
    const { status, body } = await get('/v1/feed?topics=economy&topics=health&limit=5');
    expect(status).toBe(200);
    expect(body.body).toEqual({ topics: ['economy', 'health'], limit: 5 });
    expect((await get('/v1/feed?topics[]=economy&topics[]=health')).body.body).toEqual({
      topics: ['economy', 'health'],
      limit: 20,
    });
  });

  it('is read from the query string beside an empty JSON body, which gives no field, never beside a body that gives one', async () => {
    type Answer = { body?: unknown; error?: { message: string } };
    // fetch sends no body with a GET: node:http does.
    const send = (body: string) =>
      new Promise<{ status: number; json: Answer }>((resolve, reject) => {
        const request = httpRequest(
          `${base}/v1/feed?topics=economy`,
          {
            method: 'GET',
            headers: {
              authorization: 'Bearer x',
              'content-type': 'application/json',
              'content-length': Buffer.byteLength(body),
            },
          },
          (response) => {
            let text = '';
            response.on('data', (chunk: Buffer) => (text += chunk.toString()));
            response.on('end', () =>
              resolve({ status: response.statusCode ?? 0, json: JSON.parse(text) as Answer }),
            );
          },
        );
        request.on('error', reject);
        request.end(body);
      });
    const empty = await send('{}');
    expect([empty.status, empty.json.body]).toEqual([200, { topics: ['economy'], limit: 20 }]);
    const both = await send('{"limit":5}');
    expect([both.status, both.json.error?.message]).toEqual([
      400,
      'topics: is a query parameter, and this request has a JSON body too: give the fields either as query parameters or as a JSON body, not both',
    ]);
  });

  it('keeps each value given whole where an item may hold a comma (a source name), repeated or bracketed', async () => {
    for (const query of [
      '?source=Medium:%20Invironment,%20food&source=The%20Guardian',
      '?source[]=Medium:%20Invironment,%20food&source[]=The%20Guardian',
    ]) {
      const { status, body } = await get(`/v1/filtered${query}`);
      expect(status, query).toBe(200);
      expect((body.query as { source: string[] }).source, query).toEqual([
        'Medium: Invironment',
        'food',
        'The Guardian',
        'Medium: Invironment, food',
      ]);
    }
  });

  it('is still checked value by value', async () => {
    const { status, body } = await get('/v1/filtered?category=world&category=cooking');
    expect(status).toBe(400);
    expect(JSON.stringify(body)).toContain('category: \\"cooking\\" is not a category');
  });
});

describe('any other parameter', () => {
  it('given twice is a 400 naming it, not a silent pick', async () => {
    const { status, body } = await get('/v1/filtered?limit=5&limit=10');
    expect(status).toBe(400);
    expect(body).toEqual({ error: { code: 'invalid_parameter', message: 'limit: given more than once' } });
  });

  it('named __proto__ is an unknown parameter like any other, not dropped unseen', async () => {
    const { status, body } = await get('/v1/filtered?category=world&__proto__=1');
    expect(status).toBe(400);
    expect(JSON.stringify(body)).toContain('__proto__: unknown parameter');
  });

  it('`_`, the cache-buster browser clients add to a GET, is not read and not refused', async () => {
    const { status, body } = await get('/v1/filtered?category=world&_=1764508800000');
    expect(status).toBe(200);
    expect(body.query).toEqual({ category: ['world'], limit: 20 });
    expect((await get('/v1/filtered?_=1&_=2')).status).toBe(200);
    // Nor is it a field of a body read from the query string (feeds/personalized).
    expect((await get('/v1/feed?topics=economy&_=1764508800000')).body.body).toEqual({
      topics: ['economy'],
      limit: 20,
    });
  });

  it('`_` with a near miss beside it still names the near miss', async () => {
    const { status, body } = await get('/v1/filtered?_=1&catgory=world');
    expect(status).toBe(400);
    expect((body.error as { message: string }).message).toMatch(/^catgory: unknown parameter/);
  });

  it('with brackets is an unknown parameter', async () => {
    const { status, body } = await get('/v1/filtered?limit[]=5');
    expect(status).toBe(400);
    expect((body.error as { message: string }).message).toMatch(/^limit\[\]: unknown parameter/);
  });
});

describe('a true/false parameter', () => {
  it.each([
    ['true', true],
    ['True', true],
    ['TRUE', true],
    ['1', true],
    ['false', false],
    ['False', false],
    ['0', false],
  ])('reads %s', async (given, value) => {
    const { status, body } = await get(`/v1/filtered?active_only=${given}`);
    expect(status).toBe(200);
    expect(body.query).toEqual({ active_only: value, limit: 20 });
  });

  it.each(['yes', 'maybe', '2', ''])('refuses %j, saying what it takes', async (given) => {
    const { status, body } = await get(`/v1/filtered?active_only=${given}`);
    expect(status).toBe(400);
    expect((body.error as { message: string }).message).toBe(
      `active_only: must be true, false, 1 or 0 (got ${JSON.stringify(given)})`,
    );
  });
});

describe('an authenticated answer', () => {
  it('is private: no shared cache keeps it, its credential headers are in Vary; a public route is left alone', async () => {
    for (const answer of [await call('GET', '/v1/filtered'), await call('GET', '/v1/filtered?limit=0')]) {
      expect(answer.headers.get('cache-control')).toBe('private, no-cache');
      expect(answer.headers.get('vary')).toMatch(/authorization.*x-api-key/i);
    }
    expect((await call('GET', '/v1/filtered?limit=0')).status).toBe(400);
    const open = await fetch(`${base}/health`);
    expect(open.headers.get('cache-control')).toBeNull();
  });
});

describe('a JSON body', () => {
  it('may start with a UTF-8 byte order mark (Windows and .NET clients send one)', async () => {
    const json = Buffer.from('{"name":"économie"}');
    const answer = await fetch(`${base}/v1/echo`, {
      method: 'POST',
      headers: { authorization: 'Bearer x', 'content-type': 'application/json' },
      body: Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), json]),
    });
    expect(answer.status).toBe(200);
    expect(((await answer.json()) as { body: unknown }).body).toEqual({ name: 'économie' });
  });
});

describe('an answer to a client that accepts compression', () => {
  const feed = (encoding: string) =>
    fetch(`${base}/v1/feed?topics=${Array.from({ length: 400 }, (_, i) => `topic${i}`).join(',')}`, {
      headers: { authorization: 'Bearer x', 'accept-encoding': encoding },
    });

  it('is gzipped when it is JSON over a kilobyte, and says it varies by Accept-Encoding', async () => {
    const zipped = await feed('gzip');
    expect(zipped.headers.get('content-encoding')).toBe('gzip');
    expect(zipped.headers.get('vary')).toMatch(/accept-encoding/i);
    // fetch undoes the gzip: the JSON is whole.
    expect(((await zipped.json()) as { body: { topics: string[] } }).body.topics).toHaveLength(400);
    const plain = await feed('identity');
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(((await plain.json()) as { body: { topics: string[] } }).body.topics).toHaveLength(400);
  });

  it('is described by HEAD as GET sends it: the same Content-Encoding, no uncompressed length', async () => {
    const url = `${base}/v1/feed?topics=${Array.from({ length: 400 }, (_, i) => `topic${i}`).join(',')}`;
    const head = (encoding: string) =>
      fetch(url, { method: 'HEAD', headers: { authorization: 'Bearer x', 'accept-encoding': encoding } });
    const zipped = await head('gzip');
    expect([zipped.status, zipped.headers.get('content-encoding')]).toEqual([200, 'gzip']);
    expect(zipped.headers.get('content-length')).toBeNull();
    expect(await zipped.text()).toBe('');
    const plain = await head('identity');
    expect(plain.headers.get('content-encoding')).toBeNull();
    const whole = await fetch(url, { headers: { authorization: 'Bearer x', 'accept-encoding': 'identity' } });
    expect(plain.headers.get('content-length')).toBe(String((await whole.arrayBuffer()).byteLength));
  });

  it('is sent as it is to a client that accepts no encoding at all', async () => {
    for (const encoding of ['identity;q=0', '*;q=0', 'compress']) {
      const answer = await feed(encoding);
      expect(answer.status, encoding).toBe(200);
      expect(answer.headers.get('content-encoding'), encoding).toBeNull();
    }
  });

  it('is left alone when small', async () => {
    const small = await fetch(`${base}/v1/filtered`, {
      headers: { authorization: 'Bearer x', 'accept-encoding': 'gzip' },
    });
    expect(small.status).toBe(200);
    expect(small.headers.get('content-encoding')).toBeNull();
  });
});

describe('an error answered with what caused it inside', () => {
  it('logs the cause under the request id and answers only its own message', async () => {
    const inside = 'http://10.0.0.7:8998/v1 answered 500: bad request';
    const { lines, logger } = capturedLogs('info');
    const failing = createApp({
      routes: [
        defineRoute({
          method: 'get',
          path: '/v1/upstream',
          operationId: 'upstream',
          summary: 'upstream',
          tag: 'things',
          responses: {},
          handler: () => {
            throw new ApiError(
              'service_unavailable',
              'the provider could not answer',
              {},
              { cause: new Error(inside) },
            );
          },
        }),
      ],
      publicRoutes: () => {},
      authenticate: async (ctx, next) => {
        ctx.state.principal = { tenantId: 't', clientId: 'c', scopes: new Set(), limits: {} };
        await next();
      },
      limits: { maxBodyBytes: 1024, maxJsonDepth: 32 },
      logger,
      metrics: new Registry(),
    }).listen(0, '127.0.0.1');
    await new Promise((resolve) => failing.once('listening', resolve));
    try {
      const response = await fetch(`http://127.0.0.1:${(failing.address() as AddressInfo).port}/v1/upstream`);
      const body = (await response.json()) as { error: { message: string; request_id: string } };
      expect([response.status, body.error.message]).toEqual([503, 'the provider could not answer']);
      expect(JSON.stringify(body)).not.toContain('10.0.0.7');
      expect(
        lines.map((l) => [l.level, l.requestId, l.code, (l.err as { message: string }).message]),
      ).toEqual([[40, body.error.request_id, 'service_unavailable', inside]]);
    } finally {
      await new Promise((resolve) => failing.close(resolve));
    }
  });
});
