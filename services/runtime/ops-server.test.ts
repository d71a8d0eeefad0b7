import { Counter, Registry } from 'prom-client';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from './config.ts';
import { createLogger } from './logger.ts';
import { opsEnv, startOpsServer, type OpsServer } from './ops-server.ts';

const logger = createLogger('test', 'silent');
const token = 'scraper-token-0123456789';
let running: OpsServer | null = null;
afterEach(async () => {
  await running?.close();
  running = null;
});

async function serve(env: Record<string, string>) {
  const metrics = new Registry();
  new Counter({ name: 'news_consumer_messages_processed_total', help: 'test', registers: [metrics] }).inc(3);
  running = await startOpsServer({ service: 'enricher', settings: loadConfig(opsEnv, env), metrics, logger });
  return `http://127.0.0.1:${running!.port}`;
}

describe("a worker's operations server", () => {
  it('is not started without OPS_PORT', async () => {
    const settings = loadConfig(opsEnv, {});
    expect(settings.OPS_PORT).toBeUndefined();
    expect(
      await startOpsServer({ service: 'enricher', settings, metrics: new Registry(), logger }),
    ).toBeNull();
  });

  it('answers /healthz, and /metrics with its consumers’ counts and the process’s own', async () => {
    const base = await serve({ OPS_PORT: '0' });
    const health = await fetch(`${base}/healthz`);
    expect([health.status, await health.json()]).toEqual([200, { status: 'ok', service: 'enricher' }]);
    const metrics = await fetch(`${base}/metrics`);
    const text = await metrics.text();
    expect(metrics.status).toBe(200);
    expect(text).toContain('news_consumer_messages_processed_total 3');
    expect(text).toContain('process_cpu_user_seconds_total');
    const other = await fetch(`${base}/v1/articles`);
    expect([other.status, ((await other.json()) as { error: { code: string } }).error.code]).toEqual([
      404,
      'not_found',
    ]);
    const post = await fetch(`${base}/healthz`, { method: 'POST' });
    expect([post.status, post.headers.get('allow')]).toEqual([405, 'GET, HEAD']);
  });

  it('with OPS_METRICS_TOKEN, shows the metrics only to a scraper that sends it; health stays open', async () => {
    const base = await serve({ OPS_PORT: '0', OPS_METRICS_TOKEN: token });
    const refused = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${token}x` } });
    expect([refused.status, refused.headers.get('www-authenticate')]).toEqual([
      401,
      'Bearer realm="metrics"',
    ]);
    expect(await refused.text()).not.toContain('news_consumer');
    const allowed = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${token}` } });
    expect(allowed.status).toBe(200);
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
  });

  it('refuses a token too short to guess at, without echoing it', () => {
    expect(() => loadConfig(opsEnv, { OPS_METRICS_TOKEN: 'short-secret' })).toThrow(
      /OPS_METRICS_TOKEN: must be at least 16 characters/,
    );
    expect(() => loadConfig(opsEnv, { OPS_METRICS_TOKEN: 'short-secret' })).not.toThrow(/short-secret/);
  });
});
