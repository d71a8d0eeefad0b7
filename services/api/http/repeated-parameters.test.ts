// How a query string's repeated and bracketed parameters reach a route (route.ts): joined for the
// parameters that take comma-separated lists (OpenAPI's default form for arrays, axios's `name[]`),
// refused for the others; through the real app and HTTP.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Registry } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createLogger } from '../../runtime/logger.ts';
import { createApp } from '../app.ts';
import { booleanParam, categoryParam, commaList, limitParam } from './params.ts';
import { defineRoute } from './route.ts';

const echo = async (ctx: { body: unknown }, input: { query: unknown; body: unknown }) => {
  ctx.body = { query: input.query ?? null, body: input.body ?? null };
};

const app = createApp({
  routes: [
    defineRoute({
      method: 'get',
      path: '/v1/things',
      operationId: 'listThings',
      summary: 'list',
      tag: 'things',
      query: z.object({
        category: categoryParam.optional(),
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
  ],
  publicRoutes: () => undefined,
  authenticate: async (ctx, next) => {
    ctx.state.principal = { tenantId: 't', clientId: 'c', scopes: new Set(), limits: {} };
    await next();
  },
  limits: { maxBodyBytes: 1024, maxJsonDepth: 32 },
  logger: createLogger('repeated-parameters-test', 'silent'),
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
    const { status, body } = await get(`/v1/things${query}`);
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

  it('is still checked value by value', async () => {
    const { status, body } = await get('/v1/things?category=world&category=cooking');
    expect(status).toBe(400);
    expect(JSON.stringify(body)).toContain('category: \\"cooking\\" is not a category');
  });
});

describe('any other parameter', () => {
  it('given twice is a 400 naming it, not a silent pick', async () => {
    const { status, body } = await get('/v1/things?limit=5&limit=10');
    expect(status).toBe(400);
    expect(body).toEqual({ error: { code: 'invalid_parameter', message: 'limit: given more than once' } });
  });

  it('with brackets is an unknown parameter', async () => {
    const { status, body } = await get('/v1/things?limit[]=5');
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
    const { status, body } = await get(`/v1/things?active_only=${given}`);
    expect(status).toBe(200);
    expect(body.query).toEqual({ active_only: value, limit: 20 });
  });

  it.each(['yes', 'maybe', '2', ''])('refuses %j, saying what it takes', async (given) => {
    const { status, body } = await get(`/v1/things?active_only=${given}`);
    expect(status).toBe(400);
    expect((body.error as { message: string }).message).toBe(
      `active_only: must be true, false, 1 or 0 (got ${JSON.stringify(given)})`,
    );
  });
});
