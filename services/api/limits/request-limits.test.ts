// The per-request limits as a client meets them, through the Koa app: the handler deadline, the
// requests in progress per client and the JSON nesting cap, each answered in the API's error shape.
import type { Server } from 'node:http';
import { gzipSync } from 'node:zlib';
import type { AddressInfo } from 'node:net';
import { Registry } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ApiError } from '../../runtime/api-error.ts';
import { createLogger } from '../../runtime/logger.ts';
import { createApp } from '../app.ts';
import { defineRoute } from '../http/route.ts';
import { InFlightRequests } from './in-flight.ts';
import { requestSignal } from './request-deadline.ts';

const gates: (() => void)[] = [];
/** Why /wanted's signal aborted, one line a request. */
const givenUp: string[] = [];
/** Requests that reached the middleware after authentication (the hourly allowance in the service). */
const counted: string[] = [];
const app = createApp({
  routes: [
    defineRoute({
      method: 'get',
      path: '/slow',
      operationId: 'slow',
      summary: 'waits for the test to let it go',
      tag: 't',
      responses: {},
      handler: async (ctx) => {
        await new Promise<void>((resolve) => gates.push(resolve));
        ctx.body = { done: true };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/wanted',
      operationId: 'wanted',
      summary: 'waits until its answer is no longer wanted',
      tag: 't',
      responses: {},
      handler: async (ctx) => {
        const signal = requestSignal(ctx)!;
        await new Promise((resolve) => signal.addEventListener('abort', resolve));
        givenUp.push((signal.reason as Error).message);
      },
    }),
    defineRoute({
      method: 'get',
      path: '/events',
      operationId: 'events',
      summary: 'an event stream, exempt from the deadline',
      tag: 't',
      responses: { 200: { description: 'events', contentType: 'text/event-stream' } },
      handler: async (ctx) => {
        await new Promise((resolve) => setTimeout(resolve, 400));
        ctx.body = 'data: x\n\n';
      },
    }),
    defineRoute({
      method: 'get',
      path: '/list',
      operationId: 'list',
      summary: 'a list filtered by its query',
      tag: 't',
      query: z.object({ q: z.string().optional() }),
      responses: {},
      handler: async (ctx, { query }) => {
        ctx.body = { q: query.q ?? null };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/things',
      operationId: 'things',
      summary: 'takes any JSON',
      tag: 't',
      body: z.unknown(),
      responses: {},
      handler: async (ctx, { body }) => {
        ctx.body = { got: body };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/ping',
      operationId: 'ping',
      summary: 'takes no body',
      tag: 't',
      responses: {},
      handler: async (ctx) => {
        ctx.status = 201;
        ctx.body = { pinged: true };
      },
    }),
  ],
  publicRoutes: () => undefined,
  authenticate: async (ctx, next) => {
    const client = ctx.get('authorization');
    if (!client) throw new ApiError('unauthorized', 'no credentials');
    ctx.state.principal = { tenantId: 't', clientId: client, scopes: new Set(), limits: {} };
    await next();
  },
  afterAuthentication: [
    async (ctx, next) => {
      counted.push(ctx.get('authorization'));
      await next();
    },
  ],
  inFlight: new InFlightRequests(2),
  limits: { maxBodyBytes: 1_048_576, maxJsonDepth: 8 },
  deadlineMs: 200,
  logger: createLogger('limits-test', 'silent'),
  metrics: new Registry(),
});

let server: Server;
let base = '';
beforeAll(async () => {
  server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
  for (const open of gates.splice(0)) open();
  return new Promise((resolve) => server.close(resolve));
});

const get = (path: string, client: string) => fetch(`${base}${path}`, { headers: { authorization: client } });

describe('the request deadline', () => {
  it('answers 503 deadline_exceeded with Retry-After when the handler has not answered in time', async () => {
    const response = await get('/slow', 'deadline-client');
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBe('5');
    const body = (await response.json()) as { error: { code: string; message: string; request_id: string } };
    expect(body.error.code).toBe('deadline_exceeded');
    expect(body.error.message).toMatch(/no answer within 200 ms/);
    expect(body.error.request_id).toBe(response.headers.get('x-request-id'));
    for (const open of gates.splice(0)) open();
  });

  it("aborts the request's signal at the deadline, and when the client leaves before its answer", async () => {
    expect((await get('/wanted', 'signal-client')).status).toBe(503);
    await expect.poll(() => givenUp).toEqual([expect.stringMatching(/^no answer within 200 ms/)]);
    const leaving = new AbortController();
    const request = fetch(`${base}/wanted`, {
      headers: { authorization: 'signal-client' },
      signal: leaving.signal,
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    leaving.abort();
    await expect(request).rejects.toThrow();
    await expect.poll(() => givenUp[1]).toBe('the client closed the connection');
  });

  it('leaves event streams alone: they are answered for as long as they live, and not counted in progress', async () => {
    // Three at once from one client, one over its two requests in progress: streams have their own limit.
    const responses = await Promise.all([1, 2, 3].map(() => get('/events', 'stream-client')));
    for (const response of responses) {
      expect(response.status).toBe(200);
      expect(await response.text()).toBe('data: x\n\n');
    }
  });
});

describe('requests in progress per client', () => {
  it('answers 429 concurrency_limit with Retry-After past the limit, to that client only, and frees the slot when a request ends', async () => {
    const waiting = [get('/slow', 'busy'), get('/slow', 'busy')];
    await expect.poll(() => gates.length).toBe(2);
    const third = await get('/slow', 'busy');
    expect(third.status).toBe(429);
    expect(third.headers.get('retry-after')).toBe('1');
    expect(((await third.json()) as { error: { code: string } }).error.code).toBe('concurrency_limit');
    // Refused before the hourly allowance: only the two admitted requests were counted.
    expect(counted.filter((client) => client === 'busy')).toHaveLength(2);
    // Another client is not held back by this one.
    const other = get('/slow', 'someone else');
    await expect.poll(() => gates.length).toBe(3);
    // The two past their deadline still hold their slots until their handlers are done.
    for (const answer of await Promise.all(waiting)) expect(answer.status).toBe(503);
    expect((await get('/slow', 'busy')).status).toBe(429);
    for (const open of gates.splice(0)) open();
    // Answered (in time or past its deadline, as the machine's pace has it), never refused.
    expect([200, 503]).toContain((await other).status);
    await expect
      .poll(async () => {
        const answer = get('/slow', 'busy');
        setTimeout(() => gates.splice(0).forEach((open) => open()), 20);
        return (await answer).status;
      })
      .toBe(200);
  });
});

describe('the JSON nesting cap', () => {
  const post = (body: string) =>
    fetch(`${base}/things`, {
      method: 'POST',
      headers: { authorization: 'json-client', 'content-type': 'application/json' },
      body,
    });

  it('accepts a body at the cap and answers 400 invalid_json naming the cap above it', async () => {
    const atCap = `${'['.repeat(8)}${']'.repeat(8)}`;
    expect((await post(atCap)).status).toBe(200);
    const over = await post(`{"a":${'['.repeat(8)}${']'.repeat(8)}}`);
    expect(over.status).toBe(400);
    expect(await over.json()).toEqual({
      error: { code: 'invalid_json', message: 'request body nests arrays and objects deeper than 8 levels' },
    });
  });

  it('refuses a megabyte of opening brackets the same way, quickly', async () => {
    const answer = await post('['.repeat(1_000_000));
    expect(answer.status).toBe(400);
    expect(((await answer.json()) as { error: { message: string } }).error.message).toMatch(/deeper than 8/);
  });

  it('reads UTF-8 only: bytes that are not UTF-8 are 400, another declared charset 415, a BOM is dropped', async () => {
    const send = (body: Uint8Array | string, contentType = 'application/json') =>
      fetch(`${base}/things`, {
        method: 'POST',
        headers: { authorization: 'json-client', 'content-type': contentType },
        body,
      });
    const latin1 = await send(Buffer.from('{"text":"caf\xe9"}', 'latin1'));
    expect([latin1.status, ((await latin1.json()) as { error: { code: string } }).error.code]).toEqual([
      400,
      'invalid_json',
    ]);
    const declared = await send('{"text":"cafe"}', 'application/json; charset=iso-8859-1');
    expect([declared.status, ((await declared.json()) as { error: { code: string } }).error.code]).toEqual([
      415,
      'unsupported_media_type',
    ]);
    expect((await send('{"text":"café"}', 'application/json; charset=UTF-8')).status).toBe(200);
    expect(
      (await send(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"a":1}')]))).status,
    ).toBe(200);
  });

  it('refuses a content-coded body (415) and a lone surrogate escape (400, naming where)', async () => {
    const coded = await fetch(`${base}/things`, {
      method: 'POST',
      headers: {
        authorization: 'json-client',
        'content-type': 'application/json',
        'content-encoding': 'gzip',
      },
      body: gzipSync('{"a":1}'),
    });
    expect(coded.status).toBe(415);
    expect(await coded.json()).toEqual({
      error: {
        code: 'unsupported_media_type',
        message: 'request bodies are read as sent, without a content coding; got Content-Encoding: gzip',
      },
    });
    const lone = await post('{"a":{"contact_id":"\\ud800"}}');
    expect(lone.status).toBe(400);
    expect(((await lone.json()) as { error: { message: string } }).error.message).toMatch(
      /string at \$\.a\.contact_id holds a lone UTF-16 surrogate/,
    );
    expect((await post('{"topic":"\\ud83d\\ude00 economy"}')).status).toBe(200);
  });

  it('answers 400 invalid_json naming a key given twice in one object', async () => {
    const twice = await post('{"a":{"limit":3,"limit":"3"}}');
    expect(twice.status).toBe(400);
    expect(await twice.json()).toEqual({
      error: {
        code: 'invalid_json',
        message: 'request body gives the key at $.a.limit more than once in the same object',
      },
    });
    expect((await post('{"a":{"limit":3},"b":{"limit":3}}')).status).toBe(200);
  });
});

describe('what a request carries that a route would ignore or misread', () => {
  const get = (path: string, init: RequestInit = {}) =>
    fetch(`${base}${path}`, { ...init, headers: { authorization: 'get-client', ...init.headers } });
  const errorOf = async (answer: Response) =>
    [answer.status, ((await answer.json()) as { error: { code: string; message: string } }).error] as const;

  it('refuses a body on a route that takes none, instead of answering unfiltered', async () => {
    // fetch refuses a GET with a body; node:http sends one.
    const { request } = await import('node:http');
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(
        `${base}/list`,
        {
          method: 'GET',
          headers: {
            authorization: 'get-client',
            'content-type': 'application/json',
            'content-length': '13',
          },
        },
        (res) => {
          let body = '';
          res.on('data', (chunk: Buffer) => (body += chunk.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        },
      );
      req.on('error', reject);
      req.end('{"q":"bogus"}');
    });
    expect(answer.status, answer.body).toBe(400);
    expect(JSON.parse(answer.body)).toEqual({
      error: {
        code: 'invalid_parameter',
        message: 'body: GET /list takes no request body: give its parameters in the query string',
      },
    });
    expect((await get('/list?q=x')).status).toBe(200);
  });

  it('takes `{}` or nothing on a POST that takes no body, and refuses fields, text and broken JSON', async () => {
    const ping = (body?: string, contentType = 'application/json') =>
      fetch(`${base}/ping`, {
        method: 'POST',
        headers: {
          authorization: 'ping-client',
          ...(body === undefined ? {} : { 'content-type': contentType }),
        },
        ...(body === undefined ? {} : { body }),
      });
    expect((await ping()).status).toBe(201);
    expect((await ping('{}')).status).toBe(201);
    expect(await errorOf(await ping('{"ttl":99999}'))).toEqual([
      400,
      { code: 'invalid_parameter', message: expect.stringContaining('ttl: unknown field') as string },
    ]);
    expect((await errorOf(await ping('hello', 'text/plain')))[1].code).toBe('unsupported_media_type');
    expect((await errorOf(await ping('{bad')))[1].code).toBe('invalid_json');
  });

  it('refuses a percent-escape that is not UTF-8, and reads one that is', async () => {
    expect(await errorOf(await get('/list?q=caf%E9'))).toEqual([
      400,
      {
        code: 'invalid_parameter',
        message: 'q: is not valid percent-encoded UTF-8 (é is %C3%A9; a lone % is %25)',
      },
    ]);
    expect(await (await get('/list?q=caf%C3%A9')).json()).toEqual({ q: 'café' });
    expect(await (await get('/list?q=50%25+off')).json()).toEqual({ q: '50% off' });
    expect((await get('/list?q=100%')).status).toBe(400);
  });
});
