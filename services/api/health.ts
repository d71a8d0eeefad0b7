// Liveness (/healthz: the process answers), readiness (/readyz: its
// dependencies answer too; a load balancer stops sending traffic while they do
// not) and Prometheus metrics (/metrics).
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

export function healthRoutes(router: Router, checks: readonly ReadinessCheck[], metrics: Registry): void {
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
    ctx.type = metrics.contentType;
    ctx.body = await metrics.metrics();
  });
}
