import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Router from '@koa/router';
import Koa from 'koa';
import { Counter, Registry } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../runtime/config.ts';
import type { ReadinessCheck } from './app.ts';
import { apiEnv } from './config.ts';
import { bearerMatches } from '../runtime/bearer-token.ts';
import { healthRoutes } from './health.ts';

const token = 'scraper-token-0123456789';

async function serve(metricsToken?: string, checks: ReadinessCheck[] = []) {
  const metrics = new Registry();
  new Counter({ name: 'answers_total', help: 'test', registers: [metrics] }).inc();
  const router = new Router();
  healthRoutes(router, checks, metrics, metricsToken ? { metricsToken } : {});
  const server = new Koa().use(router.routes()).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

describe('/metrics', () => {
  let open: { server: Server; url: string };
  let guarded: { server: Server; url: string };
  beforeAll(async () => {
    [open, guarded] = await Promise.all([serve(), serve(token)]);
  });
  afterAll(() => Promise.all([open, guarded].map((s) => new Promise((resolve) => s.server.close(resolve)))));

  it('is open without API_METRICS_TOKEN', async () => {
    const response = await fetch(`${open.url}/metrics`);
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('answers_total 1');
  });

  it('with API_METRICS_TOKEN, answers only a scraper that sends it as a bearer token', async () => {
    for (const authorization of [
      undefined,
      `Bearer ${token}x`,
      `Basic ${token}`,
      'Bearer',
      `Bearer ${token.slice(1)}`,
    ]) {
      const response = await fetch(`${guarded.url}/metrics`, {
        headers: authorization ? { authorization } : {},
      });
      expect(response.status, String(authorization)).toBe(401);
      expect(response.headers.get('www-authenticate')).toBe('Bearer realm="metrics"');
      const body = await response.text();
      expect(body).not.toContain('answers_total');
      expect(body).not.toContain(token);
    }
    const response = await fetch(`${guarded.url}/metrics`, {
      headers: { authorization: `bearer  ${token}` },
    });
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('answers_total 1');
    // health stays open: a load balancer sends no credentials
    expect((await fetch(`${guarded.url}/healthz`)).status).toBe(200);
  });

  it('compares the header whole', () => {
    expect(bearerMatches(`Bearer ${token}`, token)).toBe(true);
    expect(bearerMatches(`Bearer ${token} extra`, token)).toBe(false);
    expect(bearerMatches(undefined, token)).toBe(false);
  });

  it('refuses a token shorter than 16 characters, without echoing it', () => {
    expect(() => loadConfig(apiEnv, { API_METRICS_TOKEN: 'short-secret' })).toThrow(
      /API_METRICS_TOKEN: must be at least 16 characters \(value hidden\)/,
    );
    expect(loadConfig(apiEnv, {}).API_METRICS_TOKEN).toBe('');
  });
});

describe('/readyz', () => {
  const up = async () => true;
  const down = async () => false;
  const cases: [string, ReadinessCheck[], number, unknown][] = [
    [
      'every dependency answers',
      [
        { name: 'clickhouse', check: up },
        { name: 'redis', check: up, gates: false },
      ],
      200,
      { status: 'ready', checks: { clickhouse: 'ok', redis: 'ok' } },
    ],
    [
      'one the API answers without is away: still ready, said degraded',
      [
        { name: 'clickhouse', check: up },
        { name: 'redis', check: down, gates: false },
      ],
      200,
      { status: 'degraded', checks: { clickhouse: 'ok', redis: 'unavailable' } },
    ],
    [
      'one it needs is away',
      [
        { name: 'clickhouse', check: down },
        { name: 'redis', check: up, gates: false },
      ],
      503,
      { status: 'not_ready', checks: { clickhouse: 'unavailable', redis: 'ok' } },
    ],
  ];
  it.each(cases)('when %s', async (_, checks, status, body) => {
    const { server, url } = await serve(undefined, checks);
    try {
      const response = await fetch(`${url}/readyz`);
      expect([response.status, await response.json()]).toEqual([status, body]);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
