// The real API process for bench:stream: services/api's startApi, with one bench credential (an
// enterprise client, unlimited live connections) known without a record on news.clients.v1. It runs in
// the bench's namespace (TOPIC_PREFIX and the rest, from the bench's environment), so its stream reads
// the namespace's topics. Everything else (Koa, authentication, the hourly limit and live-connection
// leases in Redis, the tail, the hub) is as served.
import { loadApiConfig } from '../../../services/api/config.ts';
import { startApi } from '../../../services/api/server.ts';
import type { KnownClient } from '../../../services/api/auth/authenticate.ts';
import { runProcess } from '../../../services/runtime/lifecycle.ts';
import { createLogger } from '../../../services/runtime/logger.ts';

const apiKey = process.env.BENCH_API_KEY ?? '';
if (!apiKey) throw new Error('BENCH_API_KEY is needed');
const client: KnownClient = {
  clientId: 'bench-stream',
  tenantId: 'bench-stream',
  scopes: ['read:feeds'],
  revoked: false,
  limits: { callsPerHour: null, liveConnections: null, alertEndpoints: null, addedSources: null },
};
const logger = createLogger('bench-api', process.env.LOG_LEVEL ?? 'warn');

runProcess(
  async ({ onStop }) => {
    const api = await startApi(loadApiConfig(), logger, {
      clients: {
        byApiKey: (key) => (key === apiKey ? client : null),
        byId: (id) => (id === client.clientId ? client : null),
      },
    });
    onStop(() => api.close());
  },
  { logger: () => logger },
);
