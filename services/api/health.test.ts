import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Router from '@koa/router';
import Koa from 'koa';
import { Counter, Registry } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../runtime/config.ts';
import { apiEnv } from './config.ts';
import { bearerMatches, healthRoutes } from './health.ts';

const token = 'scraper-token-0123456789';

async function serve(metricsToken?: string) {
  const metrics = new Registry();
  new Counter({ name: 'answers_total', help: 'test', registers: [metrics] }).inc();
  const router = new Router();
  healthRoutes(router, [], metrics, metricsToken ? { metricsToken } : {});
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
