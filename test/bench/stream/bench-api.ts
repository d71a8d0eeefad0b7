// The real API process for bench:stream: services/api's startApi, with the stream reading the bench's
// own topics and one bench credential (an enterprise client, unlimited live connections) known without
// a record on news.clients.v1, so the bench leaves nothing in the live topics. Everything else (Koa,
// authentication, the hourly limit and live-connection leases in Redis, the tail, the hub) is as served.
import { loadApiConfig } from '../../../services/api/config.ts';
import { startApi } from '../../../services/api/server.ts';
import type { KnownClient } from '../../../services/api/auth/authenticate.ts';
import { runProcess } from '../../../services/runtime/lifecycle.ts';
import { createLogger } from '../../../services/runtime/logger.ts';

const topics = (process.env.BENCH_STREAM_TOPICS ?? '').split(',');
const apiKey = process.env.BENCH_API_KEY ?? '';
if (topics.length !== 3 || !apiKey)
  throw new Error('BENCH_STREAM_TOPICS (3 topics) and BENCH_API_KEY are needed');
const client: KnownClient = {
  clientId: 'bench-stream',
  tenantId: 'bench-stream',
  scopes: ['read:feeds'],
  revoked: false,
  limits: { callsPerHour: null, liveConnections: null, alertEndpoints: null },
};
const logger = createLogger('bench-api', process.env.LOG_LEVEL ?? 'warn');

runProcess(
  async ({ onStop }) => {
    const api = await startApi(loadApiConfig(), logger, {
      streamTopics: topics,
      clients: {
        byApiKey: (key) => (key === apiKey ? client : null),
        byId: (id) => (id === client.clientId ? client : null),
      },
    });
    onStop(() => api.close());
  },
  { logger: () => logger },
);
