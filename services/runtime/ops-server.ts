// The HTTP a worker serves for its operator, when OPS_PORT is set: /healthz (the process is up and its
// event loop answers) and /metrics (Prometheus: its consumers' processed, retried and dead-lettered
// counts and lag, and the process's own metrics). The API has its own (services/api/health.ts); the
// workers (projector, enricher, narrator, documentarian, matcher, clusterer, dispatcher, poller) had
// none, so an operator saw them only through their consumer groups' lag and their logs.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { collectDefaultMetrics, Registry } from 'prom-client';
import { bearerMatches } from './bearer-token.ts';
import { z } from 'zod';
import { text } from './config.ts';
import type { Logger } from './logger.ts';

export const opsEnv = {
  // No default: unset is no server (integer() would default to a port).
  OPS_PORT: z
    .string()
    .trim()
    .refine((s) => /^\d{1,5}$/.test(s) && Number(s) <= 65_535, {
      message: 'expected an integer from 0 to 65535',
    })
    .transform(Number)
    .optional()
    .meta({
      accepted: 'integer from 0 to 65535',
      description:
        "Port of this worker's operations server (/healthz, and /metrics for Prometheus). Unset: none. 0: " +
        'any free port (logged). The API serves its own on its port.',
    }),
  OPS_HOST: text('127.0.0.1').describe(
    'Address the operations server listens on (OPS_PORT); 0.0.0.0 for a scraper on another host.',
  ),
  OPS_METRICS_TOKEN: z
    .string()
    .min(16, { error: 'must be at least 16 characters' })
    .default('')
    .meta({
      accepted: 'any string of at least 16 characters',
      description:
        'Bearer token a Prometheus scraper sends to read a worker’s /metrics (`Authorization: Bearer <token>`); ' +
        'others get 401. Empty: /metrics is open to whoever reaches OPS_HOST:OPS_PORT, as /healthz is.',
    }),
};

export interface OpsServer {
  port: number;
  close(): Promise<void>;
}

/**
 * Starts the operations server when `settings.OPS_PORT` is set (null otherwise). `metrics` gains the
 * process's default metrics; pass the same registry to the worker's consumer runners.
 */
export async function startOpsServer(options: {
  service: string;
  settings: { OPS_PORT?: number | undefined; OPS_HOST: string; OPS_METRICS_TOKEN: string };
  metrics: Registry;
  logger: Logger;
}): Promise<OpsServer | null> {
  const { settings, metrics, logger, service } = options;
  if (settings.OPS_PORT === undefined) return null;
  collectDefaultMetrics({ register: metrics });
  const token = settings.OPS_METRICS_TOKEN;
  const server: Server = createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0];
    const answer = (status: number, type: string, body: string, headers: Record<string, string> = {}) => {
      response.writeHead(status, { 'Content-Type': type, ...headers });
      response.end(request.method === 'HEAD' ? undefined : body);
    };
    const json = (status: number, body: unknown, headers?: Record<string, string>) =>
      answer(status, 'application/json; charset=utf-8', JSON.stringify(body), headers);
    if (request.method !== 'GET' && request.method !== 'HEAD')
      return json(
        405,
        { error: { code: 'method_not_allowed', message: 'only GET and HEAD' } },
        { Allow: 'GET, HEAD' },
      );
    if (path === '/healthz') return json(200, { status: 'ok', service });
    if (path !== '/metrics')
      return json(404, {
        error: { code: 'not_found', message: `no ${path} here: /healthz and /metrics are` },
      });
    if (token && !bearerMatches(request.headers.authorization, token))
      return json(
        401,
        {
          error: {
            code: 'unauthorized',
            message: 'the metrics need the bearer token set as OPS_METRICS_TOKEN',
          },
        },
        { 'WWW-Authenticate': 'Bearer realm="metrics"' },
      );
    metrics
      .metrics()
      .then((text) => answer(200, metrics.contentType, text))
      .catch((error: unknown) => {
        logger.warn({ err: error }, 'metrics could not be collected');
        json(500, { error: { code: 'internal_error', message: 'metrics could not be collected' } });
      });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(settings.OPS_PORT, settings.OPS_HOST, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  logger.info({ host: settings.OPS_HOST, port }, 'operations server listening (/healthz, /metrics)');
  return {
    port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * A worker's metrics registry (new unless given) and, when OPS_PORT is set, its operations server,
 * closed when the process stops. Pass the registry to the worker's consumer runners and tables.
 */
export async function workerOps(
  service: string,
  settings: { OPS_PORT?: number | undefined; OPS_HOST: string; OPS_METRICS_TOKEN: string },
  logger: Logger,
  onStop: (hook: () => Promise<void>) => void,
  metrics: Registry = new Registry(),
): Promise<Registry> {
  const server = await startOpsServer({ service, settings, metrics, logger });
  if (server) onStop(() => server.close());
  return metrics;
}
