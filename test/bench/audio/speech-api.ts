// The API's speech endpoints as a process of their own, for bench:audio's POST /v1/synthesize latency.
//
// Why not services/api/main.ts: the API authenticates against the clients on news.clients.v1, so calling
// it needs a client appended to that live topic, and benchmarks do not write into the live topics. This
// process builds the same Koa app (services/api/app.ts) with the same speech routes, synthesizer,
// providers, audio store, signed audio URLs, bearer authentication and Redis rate limiting, wired as
// services/api/server.ts wires them; only the client look-up differs: one client, known in memory, whose
// API key the bench passes in BENCH_API_KEY (the real directory is an in-memory map look-up too). Nothing
// here touches Kafka or ClickHouse. Settings come from the environment, as the API's do (AUDIO_DIR,
// SPEECH_*, AUDIO_URL_KEYS, REDIS_URL, REDIS_KEY_PREFIX, PORT).
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Redis } from 'ioredis';
import { collectDefaultMetrics, Registry } from 'prom-client';
import { createAudioStore } from '../../../services/audio/config.ts';
import { parseAudioUrlKeys } from '../../../services/audio/signed-url.ts';
import { audioUrls } from '../../../services/audio/audio-urls.ts';
import { createApp } from '../../../services/api/app.ts';
import { audioRoutes } from '../../../services/api/audio/audio-route.ts';
import { AccessTokens } from '../../../services/api/auth/access-tokens.ts';
import { bearerAuthentication, type KnownClient } from '../../../services/api/auth/authenticate.ts';
import { parseSigningKeys } from '../../../services/api/auth/signing-keys.ts';
import { loadApiConfig } from '../../../services/api/config.ts';
import { healthRoutes } from '../../../services/api/health.ts';
import { RateLimiter } from '../../../services/api/limits/rate-limiter.ts';
import { rateLimit } from '../../../services/api/limits/rate-limit-middleware.ts';
import { speechRoutes } from '../../../services/api/speech/routes.ts';
import { hashCredential } from '../../../services/clients/credentials.ts';
import { runProcess } from '../../../services/runtime/lifecycle.ts';
import { createLogger, type Logger } from '../../../services/runtime/logger.ts';
import { createSpeechProviders } from '../../../services/speech/provider-factory.ts';
import { createSynthesizer } from '../../../services/speech/synthesizer.ts';

let logger: Logger | undefined;

runProcess(
  async ({ onStop }) => {
    const config = loadApiConfig();
    logger = createLogger('bench-speech-api', config.LOG_LEVEL);
    const apiKey = process.env.BENCH_API_KEY ?? '';
    if (apiKey.length < 32) throw new Error('BENCH_API_KEY: the bench passes a random key of 32+ characters');
    const keyHash = hashCredential(apiKey);
    const client: KnownClient = {
      clientId: 'cli_bench_audio',
      tenantId: 'ten_bench_audio',
      scopes: ['use:audio'],
      revoked: false,
      // An allowance no run reaches; the limiter still counts every call, as for any client.
      limits: {
        callsPerHour: 1_000_000_000,
        liveConnections: null,
        alertEndpoints: null,
        addedSources: null,
      },
    };

    const metrics = new Registry();
    collectDefaultMetrics({ register: metrics });
    const audioStore = createAudioStore(config);
    const audioUrlKeys = parseAudioUrlKeys(config.AUDIO_URL_KEYS);
    let publicUrl = config.API_PUBLIC_URL;
    const audio = audioUrls({
      baseUrl: () => publicUrl,
      keys: audioUrlKeys,
      ttlSeconds: config.AUDIO_URL_TTL_SECONDS,
    });
    const synthesis = createSynthesizer({
      providers: createSpeechProviders(config, { logger }),
      store: audioStore,
      concurrency: config.SPEECH_CONCURRENCY,
      metrics,
      logger,
    });
    onStop(() => synthesis.close());
    const redis = new Redis(config.REDIS_URL, {
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      connectTimeout: 1_000,
      commandTimeout: 500,
      retryStrategy: () => 1_000,
      lazyConnect: true,
    });
    redis.on('error', () => undefined);
    await redis.connect();
    onStop(async () => redis.disconnect());

    const app = createApp({
      routes: speechRoutes({ synthesis, store: audioStore, audio }),
      publicRoutes: (router) => {
        healthRoutes(router, [], metrics);
        audioRoutes(router, { store: audioStore, keys: audioUrlKeys });
      },
      authenticate: bearerAuthentication({
        clients: {
          byApiKey: (key) => (hashCredential(key) === keyHash ? client : null),
          byId: (id) => (id === client.clientId ? client : null),
        },
        tokens: new AccessTokens(parseSigningKeys(''), {
          issuer: config.API_TOKEN_ISSUER,
          audience: 'news-intelligence-api',
        }),
      }),
      afterAuthentication: [
        rateLimit(
          new RateLimiter({ redis, logger, metrics, prefix: `${config.REDIS_KEY_PREFIX}ratelimit:` }),
        ),
      ],
      limits: { maxBodyBytes: config.API_MAX_BODY_BYTES, maxJsonDepth: config.API_MAX_JSON_DEPTH },
      logger,
      metrics,
    });
    // eslint-disable-next-line @typescript-eslint/no-misused-promises -- Koa's callback handles its own promise
    const server = createServer(app.callback());
    server.keepAliveTimeout = 65_000;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(config.PORT, config.API_HOST, resolve);
    });
    const { port } = server.address() as AddressInfo;
    if (!publicUrl) publicUrl = `http://${config.API_HOST}:${port}`;
    onStop(
      () =>
        new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeIdleConnections();
        }),
    );
  },
  { logger: () => logger! },
);
