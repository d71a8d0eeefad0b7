// Liveness (/healthz: the process answers), readiness (/readyz: its
// dependencies answer too; a load balancer stops sending traffic while they do
// not) and Prometheus metrics (/metrics). The metrics name routes, topics and consumer groups and count
// requests by status: nothing secret, but nothing a client of the API needs either, so with
// API_METRICS_TOKEN set only a scraper that sends it as a bearer token reads them.
import { createHash, timingSafeEqual } from 'node:crypto';
import type Router from '@koa/router';
import type { Registry } from 'prom-client';
import type { ReadinessCheck } from './app.ts';

const digest = (text: string) => createHash('sha256').update(text).digest();

/** Whether an Authorization header carries `token` as a bearer token (compared in constant time). */
export function bearerMatches(header: string | undefined, token: string): boolean {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  return match !== null && timingSafeEqual(digest(match[1]!), digest(token));
}

const withTimeout = async (check: () => Promise<boolean>, ms: number) => {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      check().catch(() => false),
      new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), ms))),
    ]);
  } finally {
    clearTimeout(timer);
  }
};

export function healthRoutes(
  router: Router,
  checks: readonly ReadinessCheck[],
  metrics: Registry,
  options: { metricsToken?: string } = {},
): void {
  router.get('/healthz', (ctx) => {
    ctx.body = { status: 'ok' };
  });
  router.get('/readyz', async (ctx) => {
    const results = await Promise.all(
      checks.map(async (c) => [c.name, await withTimeout(c.check, 2_000)] as const),
    );
    const ready = results.every(([, ok]) => ok);
    ctx.status = ready ? 200 : 503;
    ctx.body = {
      status: ready ? 'ready' : 'not_ready',
      checks: Object.fromEntries(results.map(([name, ok]) => [name, ok ? 'ok' : 'unavailable'])),
    };
  });
  router.get('/metrics', async (ctx) => {
    if (options.metricsToken && !bearerMatches(ctx.get('Authorization'), options.metricsToken)) {
      ctx.status = 401;
      ctx.set('WWW-Authenticate', 'Bearer realm="metrics"');
      ctx.body = {
        error: {
          code: 'unauthorized',
          message:
            'the metrics need the bearer token set as API_METRICS_TOKEN (Authorization: Bearer <token>)',
        },
      };
      return;
    }
    ctx.type = metrics.contentType;
    ctx.body = await metrics.metrics();
  });
}
