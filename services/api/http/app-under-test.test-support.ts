// An app for the tests of what createApp does to every answer (conditional GET, Accept): routes of
// each kind the API has (JSON, JSON or audio, an event stream, no body, a secret, a failure), served on
// a local port, and a request helper that sends exactly the headers it is given (fetch adds Accept and
// Accept-Encoding of its own) and reads the bytes as they came.
import { request, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { Registry } from 'prom-client';
import { z } from 'zod';
import { ApiError } from '../../runtime/api-error.ts';
import { createLogger } from '../../runtime/logger.ts';
import { createApp } from '../app.ts';
import { defineRoute, type RouteSpec } from './route.ts';

const item = z.object({ id: z.string() });

/** A JSON answer whose size and content the query sets (`?n=`, `?word=`): big ones are compressed. */
const things = defineRoute({
  method: 'get',
  path: '/v1/things',
  operationId: 'listThings',
  summary: 'things',
  tag: 'things',
  query: z.object({ n: z.coerce.number().int().default(2), word: z.string().default('thing') }),
  responses: { 200: { description: 'things', schema: z.object({ things: z.array(item) }) } },
  handler: async (ctx, { query }) => {
    ctx.set('Cache-Control', 'private, max-age=60');
    ctx.body = { things: Array.from({ length: query.n }, (_, i) => ({ id: `${query.word}-${i}` })) };
  },
});

export const testRoutes: RouteSpec[] = [
  things,
  defineRoute({
    method: 'post',
    path: '/v1/things',
    operationId: 'addThing',
    summary: 'add',
    tag: 'things',
    responses: { 200: { description: 'added', schema: item } },
    handler: async (ctx) => {
      ctx.body = { id: 'new' };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/v1/things/{id}',
    operationId: 'getThing',
    summary: 'one thing, or 404',
    tag: 'things',
    params: z.object({ id: z.string() }),
    responses: { 200: { description: 'a thing', schema: item } },
    handler: async (ctx, { params }) => {
      if (params.id === 'missing') throw new ApiError('not_found', 'no thing with id "missing"');
      ctx.body = { id: params.id };
    },
  }),
  defineRoute({
    method: 'delete',
    path: '/v1/things/{id}',
    operationId: 'deleteThing',
    summary: 'delete',
    tag: 'things',
    params: z.object({ id: z.string() }),
    responses: { 204: { description: 'deleted' } },
    handler: async (ctx) => {
      ctx.status = 204;
    },
  }),
  defineRoute({
    method: 'get',
    path: '/v1/secret',
    operationId: 'getSecret',
    summary: 'an answer holding a secret',
    tag: 'things',
    responses: { 200: { description: 'a secret', schema: z.object({ secret: z.string() }) } },
    handler: async (ctx) => {
      ctx.set('Cache-Control', 'no-store');
      ctx.body = { secret: 'whsec_test' };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/v1/json-stream',
    operationId: 'jsonStream',
    summary: 'JSON written as a stream',
    tag: 'things',
    responses: { 200: { description: 'JSON', schema: item } },
    handler: async (ctx) => {
      ctx.type = 'application/json';
      ctx.body = Readable.from(['{"id":', '"streamed"}']);
    },
  }),
  defineRoute({
    method: 'post',
    path: '/v1/speak',
    operationId: 'speak',
    summary: 'audio, or with Accept: application/json a URL to it',
    tag: 'things',
    responses: {
      200: { description: 'audio or JSON', schema: z.object({ url: z.string() }), binary: ['audio/mpeg'] },
    },
    handler: async (ctx) => {
      if (ctx.accepts('audio/mpeg', 'application/json') === 'application/json') {
        ctx.body = { url: '/audio/x.mp3' };
        return;
      }
      ctx.type = 'audio/mpeg';
      ctx.body = Buffer.from([0xff, 0xfb, 0x90, 0x00]);
    },
  }),
  defineRoute({
    method: 'get',
    path: '/v1/events',
    operationId: 'events',
    summary: 'an event stream, written as /v1/stream writes it',
    tag: 'things',
    responses: { 200: { description: 'events', contentType: 'text/event-stream', schema: z.string() } },
    handler: async (ctx) => {
      ctx.status = 200;
      ctx.respond = false;
      ctx.res.writeHead(200, { 'Content-Type': 'text/event-stream; charset=utf-8' });
      ctx.res.end('data: {"id":"event"}\n\n');
    },
  }),
];

export const testApp = createApp({
  routes: testRoutes,
  publicRoutes: (router) => {
    router.get('/healthz', (ctx) => {
      ctx.body = { status: 'ok' };
    });
    router.get('/docs', (ctx) => {
      ctx.type = 'html';
      ctx.body = '<!doctype html><title>docs</title>';
    });
    router.get('/metrics', (ctx) => {
      ctx.type = 'text/plain; version=0.0.4; charset=utf-8';
      ctx.body = 'up 1\n';
    });
  },
  authenticate: async (ctx, next) => {
    if (!ctx.get('authorization')) throw new ApiError('unauthorized', 'no credentials');
    ctx.state.principal = { tenantId: 't', clientId: 'c', scopes: new Set(), limits: {} };
    await next();
  },
  limits: { maxBodyBytes: 1024, maxJsonDepth: 32 },
  logger: createLogger('app-test', 'silent'),
  metrics: new Registry(),
});

export interface RawAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** Starts the app on a local port; returns its base URL and a way to stop it. */
export async function serveTestApp(): Promise<{ server: Server; port: number }> {
  const server = testApp.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  return { server, port: (server.address() as AddressInfo).port };
}

/** A request with exactly these headers (and Host), answered as the bytes that came. */
export function send(
  port: number,
  method: string,
  path: string,
  headers: Record<string, string> = {},
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method, path, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}
