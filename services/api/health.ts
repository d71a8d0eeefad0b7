// Liveness (/healthz: the process answers), readiness (/readyz: its
// dependencies answer too; a load balancer stops sending traffic while they do
// not; one it can answer without, such as Redis, is reported as `degraded` and keeps it ready) and Prometheus metrics (/metrics). The metrics name routes, topics and consumer groups and count
// requests by status: nothing secret, but nothing a client of the API needs either, so with
// API_METRICS_TOKEN set only a scraper that sends it as a bearer token reads them.
import { bearerMatches } from '../runtime/bearer-token.ts';
import type Router from '@koa/router';
import type { Registry } from 'prom-client';
import type { ReadinessCheck } from './app.ts';

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
      checks.map(async (c) => [c, await withTimeout(c.check, 2_000)] as const),
    );
    const ready = results.every(([c, ok]) => ok || c.gates === false);
    const whole = results.every(([, ok]) => ok);
    ctx.status = ready ? 200 : 503;
    ctx.body = {
      status: !ready ? 'not_ready' : whole ? 'ready' : 'degraded',
      checks: Object.fromEntries(results.map(([c, ok]) => [c.name, ok ? 'ok' : 'unavailable'])),
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
