// Builds and starts the API from its configuration: ClickHouse (reads), Kafka
// (source and subscription events), the feed fetcher (checking a new feed
// once), all wired into the Koa app. main.ts runs it as a process; tests, the
// demo and the benchmark start it the same way.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Registry, collectDefaultMetrics } from 'prom-client';
import { FeedFetcher } from '../feeds/fetcher/feed-fetcher.ts';
import { ClickHouse, clickHouseSettings } from '../runtime/clickhouse/client.ts';
import { ConfigError } from '../runtime/config.ts';
import { createKafka } from '../runtime/kafka/client.ts';
import { EventProducer } from '../runtime/kafka/producer.ts';
import { createSchemaRegistry, EventCodec } from '../runtime/kafka/registry.ts';
import type { Logger } from '../runtime/logger.ts';
import { Redis } from 'ioredis';
import { RedisMutex } from '../runtime/keyed-mutex.ts';
import { feedUrlLockPrefix } from '../sources/feed-url-lock.ts';
import type { Client } from '../runtime/events/types.generated.ts';
import { ClientDirectory } from '../clients/client-directory.ts';
import { effectiveLimits } from '../clients/plans.ts';
import { createOutboundUrlPolicy } from '../runtime/outbound/outbound-url.ts';
import { createApp } from './app.ts';
import { answerClientErrors } from './http/client-errors.ts';
import { ArticleStore } from './articles/article-store.ts';
import { StoryStore } from './stories/story-store.ts';
import type { ApiConfig } from './config.ts';
import { healthRoutes } from './health.ts';
import { AccessTokens } from './auth/access-tokens.ts';
import { bearerAuthentication, type ClientLookup, type KnownClient } from './auth/authenticate.ts';
import { parseSigningKeys } from './auth/signing-keys.ts';
import { tokenEndpoint, tokenPath } from './auth/token-endpoint.ts';
import { credentialGuard, CredentialGuessing } from './auth/credential-guessing.ts';
import { TrustedProxies } from './http/client-address.ts';
import { RateLimiter } from './limits/rate-limiter.ts';
import { rateLimit } from './limits/rate-limit-middleware.ts';
import { InFlightRequests } from './limits/in-flight.ts';
import { IdempotencyRecords } from './idempotency/idempotency-records.ts';
import { IdempotentRequests } from './idempotency/idempotent-requests.ts';
import { serverLimits } from './limits/server-limits.ts';
import { trackUnrequestedConnections } from '../runtime/unrequested-connections.ts';
import { openApiDocument } from './openapi/document.ts';
import { docsRoutes } from './openapi/docs-page.ts';
import { SourceCatalog } from './sources/source-catalog.ts';
import { apiRoutes } from './routes.ts';
import { MonitorRegistry } from '../monitors/monitor-registry.ts';
import { DocumentaryRegistry } from '../documentaries/documentary-registry.ts';
import { DeliveryLog } from '../webhooks/delivery-log.ts';
import { WebhookRegistry } from '../webhooks/webhook-registry.ts';
import { secretBoxFromSetting } from '../webhooks/secret-box.ts';
import { createAudioStore } from '../audio/config.ts';
import { parseAudioUrlKeys } from '../audio/signed-url.ts';
import { audioAddress } from '../audio/audio-address.ts';
import { articleAudioRoutes } from './audio/article-audio-route.ts';
import { NarrationsOnRequest, readNarrationWords } from './audio/narration-on-request.ts';
import { audioRoutes } from './audio/audio-route.ts';
import { audioUrls } from '../audio/audio-urls.ts';
import { createSpeechProviders } from '../speech/provider-factory.ts';
import { createSynthesizer } from '../speech/synthesizer.ts';
import { offThreadAnalyses } from '../intelligence/embedded/analysis-pool.ts';
import { extractTerms } from '../intelligence/embedded/embedded-provider.ts';
import type { EnrichmentProvider } from '../intelligence/provider.ts';
import { createProvider } from '../intelligence/provider-factory.ts';
import { RelatedArticles } from '../intelligence/related-articles.ts';
import { SourceSubscriptions } from './sources/subscriptions.ts';
import { feedCheck } from './sources/feed-check.ts';
import { readArticleFacts } from '../monitors/article-facts.ts';
import { LiveConnections } from './limits/live-connections.ts';
import { kafkaCatchUp } from './stream/catch-up.ts';
import { streamArticleFromFacts } from './stream/stream-events.ts';
import { StreamHub } from './stream/stream-hub.ts';
import { StreamTail } from './stream/stream-tail.ts';
import { version } from './version.ts';

export interface RunningApi {
  server: Server;
  url: string;
  close(): Promise<void>;
}

/** What a test or a benchmark may put in place of the real thing. */
export interface ApiOverrides {
  /** Who holds which credential (a benchmark's client, without writing to news.clients.v1). */
  clients?: ClientLookup;
}

export async function startApi(
  config: ApiConfig,
  logger: Logger,
  overrides: ApiOverrides = {},
): Promise<RunningApi> {
  const serverOptions = serverLimits(config);
  let policy;
  let signingKeys;
  let secrets;
  let audioUrlKeys;
  try {
    policy = createOutboundUrlPolicy({
      allow: config.OUTBOUND_ALLOW_LIST,
      dnsCacheMs: config.OUTBOUND_DNS_CACHE_SECONDS * 1000,
    });
    signingKeys = parseSigningKeys(config.API_TOKEN_KEYS);
    secrets = secretBoxFromSetting(config.WEBHOOK_SECRET_KEYS);
    audioUrlKeys = parseAudioUrlKeys(config.AUDIO_URL_KEYS);
  } catch (error) {
    // The messages name their setting and never a secret.
    throw new ConfigError([(error as Error).message]);
  }
  if (audioUrlKeys.development) {
    logger.warn(
      'AUDIO_URL_KEYS is not set: audio URLs are signed with the public development key, so anyone can sign one; set it in production',
    );
  }
  const audioStore = createAudioStore(config);
  // Until the API listens, and whenever API_PUBLIC_URL is empty, audio URLs use the address it listens on.
  let publicUrl = config.API_PUBLIC_URL;
  const audio = audioUrls({
    baseUrl: () => publicUrl,
    keys: audioUrlKeys,
    ttlSeconds: config.AUDIO_URL_TTL_SECONDS,
  });
  if (signingKeys.ephemeral) {
    logger.warn(
      'API_TOKEN_KEYS is not set: access tokens are signed with a random key and valid on this instance only',
    );
  }
  if (!config.API_METRICS_TOKEN) {
    logger.warn(
      'API_METRICS_TOKEN is not set: /metrics (traffic and error counts by route, the Node version) answers anyone who reaches the API; set it, or keep the path from the public',
    );
  }
  const closers: (() => Promise<unknown>)[] = [];
  const clickhouse = await ClickHouse.connect(clickHouseSettings(config), { logger });
  const kafka = createKafka({
    brokers: config.KAFKA_BROKERS,
    clientId: `${config.KAFKA_CLIENT_ID}-api`,
    logger,
  });
  closers.push(() => clickhouse.close());
  const codec = new EventCodec(createSchemaRegistry(config.SCHEMA_REGISTRY_URL));
  const producer = await EventProducer.connect(kafka, codec);
  closers.push(() => producer.disconnect());
  const metrics = new Registry();
  collectDefaultMetrics({ register: metrics });
  const directory = await ClientDirectory.start({
    kafka,
    codec,
    producer,
    logger,
    groupPrefix: 'api-clients',
    metrics,
  });
  closers.push(() => directory.stop());
  await directory.ready();
  // Fail fast while Redis is away (no offline queue, short timeouts), so rate limiting fails open quickly.
  const redis = new Redis(config.REDIS_URL, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    connectTimeout: 1_000,
    commandTimeout: 500,
    retryStrategy: () => 1_000,
    lazyConnect: true,
  });
  redis.on('error', () => undefined); // reported by the limiter (fail-open) and Idempotency-Key (503), each logged and counted
  redis.connect().catch(() => undefined);
  closers.push(async () => redis.disconnect());
  const fetcher = new FeedFetcher({
    userAgent: config.POLLER_USER_AGENT,
    policy,
    connectTimeoutMs: config.FEED_CONNECT_TIMEOUT_MS,
    totalTimeoutMs: config.FEED_TOTAL_TIMEOUT_MS,
    maxBodyBytes: config.FEED_MAX_BODY_BYTES,
  });
  const checkFeed = feedCheck(fetcher);

  const tokens = new AccessTokens(signingKeys, {
    issuer: config.API_TOKEN_ISSUER,
    audience: 'news-intelligence-api',
  });
  const clients: ClientLookup = overrides.clients ?? {
    byApiKey: (key) => known(directory.findByApiKey(key)),
    byId: (id) => known(directory.findClient(id)),
  };
  const store = new ArticleStore(clickhouse, audio, Date.now, { shareReads: config.API_SHARE_LIST_READS });
  const catalog = new SourceCatalog(clickhouse);
  const subscriptions = new SourceSubscriptions({
    catalog,
    producer,
    checkFeed,
    pollIntervalSeconds: config.API_SOURCE_POLL_INTERVAL_SECONDS,
    visibleWithinMs: config.API_VISIBLE_WITHIN_MS,
    // Held over the feed's fetch and the wait for the read model; the next request waits as long.
    lock: new RedisMutex({
      redis,
      prefix: feedUrlLockPrefix(config.REDIS_KEY_PREFIX),
      holdMs: config.FEED_TOTAL_TIMEOUT_MS + config.API_VISIBLE_WITHIN_MS + 5_000,
      waitMs: config.FEED_TOTAL_TIMEOUT_MS + config.API_VISIBLE_WITHIN_MS + 5_000,
      onRedisError: (error) =>
        logger.warn(
          { err: (error as Error).message },
          'Redis unreachable: concurrent POST /v1/sources of one new feed are serialised per API process only',
        ),
    }),
  });
  const analyses = analysesFor(config, createProvider(config, { logger, redis }), logger);
  closers.push(() => analyses.close());
  const speechProviders = createSpeechProviders(config, { logger });
  const synthesis = createSynthesizer({
    providers: speechProviders,
    store: audioStore,
    concurrency: config.SPEECH_CONCURRENCY,
    metrics,
    logger,
  });
  closers.push(() => synthesis.close());
  const related = new RelatedArticles(clickhouse);
  if (secrets.usesDevelopmentKey)
    logger.warn(
      'WEBHOOK_SECRET_KEYS is not set: webhook secrets are sealed with the built-in development key; set it in production',
    );
  const webhooks = new WebhookRegistry({
    clickhouse,
    producer,
    policy,
    secrets,
    visibleWithinMs: config.API_VISIBLE_WITHIN_MS,
    alertEndpointLock: new RedisMutex({
      redis,
      prefix: `${config.REDIS_KEY_PREFIX}lock:alert-endpoints:`,
      onRedisError: (error) =>
        logger.warn(
          { err: (error as Error).message },
          'Redis unreachable: the plan limit on alert endpoints is held per API process until it is back',
        ),
    }),
    // Held from reading the URL's webhook to the read model showing the change (a few waits for it). The
    // prefix is the one monitors locked with before webhooks could be changed: processes of both
    // releases exclude each other during a rolling deploy.
    endpointLock: new RedisMutex({
      redis,
      prefix: `${config.REDIS_KEY_PREFIX}lock:monitor-endpoint:`,
      holdMs: 4 * config.API_VISIBLE_WITHIN_MS + 10_000,
      waitMs: 4 * config.API_VISIBLE_WITHIN_MS + 10_000,
      onRedisError: (error) =>
        logger.warn(
          { err: (error as Error).message },
          'Redis unreachable: changes to the webhook at one URL (monitors, PATCH, secret rotation) are serialised per API process only',
        ),
    }),
  });
  const tail = await StreamTail.start({
    kafka,
    codec,
    logger,
    groupPrefix: 'api-stream',
    audio,
    replayEntries: config.STREAM_REPLAY_EVENTS,
    rememberedArticles: Math.max(10_000, config.STREAM_REPLAY_EVENTS),
    lookup: async (ids) =>
      new Map(
        [...(await readArticleFacts(clickhouse, ids)).values()].map((facts) => [
          facts.articleId,
          streamArticleFromFacts(facts),
        ]),
      ),
  });
  closers.push(() => tail.stop());
  const hub = new StreamHub({
    tail,
    leases: new LiveConnections(redis, {
      prefix: `${config.REDIS_KEY_PREFIX}live:`,
      leaseMs: config.STREAM_LEASE_SECONDS * 1000,
    }),
    catchUp: kafkaCatchUp({
      kafka,
      codec,
      logger,
      groupPrefix: 'api-stream-catch-up',
      concurrency: config.STREAM_CATCH_UP_CONCURRENCY,
    }),
    logger,
    metrics,
    heartbeatMs: config.STREAM_HEARTBEAT_SECONDS * 1000,
    leaseMs: config.STREAM_LEASE_SECONDS * 1000,
    retryMs: 3_000,
    bufferBytes: config.STREAM_BUFFER_BYTES,
    drainTimeoutMs: 30_000,
    // The final event of a client cut off waits behind at most the socket's own buffer: a client that
    // reads again within this long gets it (and where to resume); one that reads nothing loses its socket.
    lingerMs: 30_000,
  });
  // Authentication is checked when a stream opens: a revoked client's open streams end here, on every
  // instance, as each reads the revocation from news.clients.v1.
  const stopEndingRevoked = directory.onChange(({ clientId, client }) => {
    if (client !== null) return;
    const ended = hub.closeHolder(clientId, 'revoked');
    if (ended > 0) logger.info({ clientId, streams: ended }, "revoked client's streams ended");
  });
  closers.push(async () => stopEndingRevoked());
  const streamTokens = new AccessTokens(signingKeys, {
    issuer: config.API_TOKEN_ISSUER,
    audience: 'news-intelligence-stream',
    lifetimeSeconds: config.STREAM_TOKEN_TTL_SECONDS,
  });
  const routes = apiRoutes({
    clickhouse,
    store,
    stories: new StoryStore(clickhouse, store),
    catalog,
    subscriptions,
    intelligence: {
      provider: analyses.provider,
      findRelated: (query) => related.find(query),
      termsOf: analyses.termsOf,
      speech: { synthesis, audio },
    },
    speech: { synthesis, store: audioStore, audio },
    webhooks,
    deliveries: new DeliveryLog(clickhouse),
    monitors: new MonitorRegistry({
      clickhouse,
      producer,
      webhooks,
      visibleWithinMs: config.API_VISIBLE_WITHIN_MS,
    }),
    documentaries: {
      documentaries: new DocumentaryRegistry({
        clickhouse,
        producer,
        visibleWithinMs: config.API_VISIBLE_WITHIN_MS,
      }),
      synthesis,
      audio,
      inProgressLimit: config.API_DOCUMENTARIES_IN_PROGRESS,
      // Held from the count to the read model showing the new documentary.
      limitLock: new RedisMutex({
        redis,
        prefix: `${config.REDIS_KEY_PREFIX}lock:documentary-limit:`,
        holdMs: 2 * config.API_VISIBLE_WITHIN_MS + 10_000,
        waitMs: 2 * config.API_VISIBLE_WITHIN_MS + 10_000,
        onRedisError: (error) =>
          logger.warn(
            { err: (error as Error).message },
            'Redis unreachable: the limit on documentaries in progress is held per API process until it is back',
          ),
      }),
    },
    stream: {
      hub,
      partitions: () => tail.partitions,
      position: () => tail.position,
      logEnd: () => tail.logEnd(),
      streamTokens,
      announced: (id) => tail.announced(id),
    },
  });
  const document = openApiDocument(routes, {
    version,
    ...(config.API_PUBLIC_URL ? { serverUrl: config.API_PUBLIC_URL } : {}),
  });
  const app = createApp({
    routes,
    publicRoutes: (router) => {
      const readiness = [
        { name: 'clickhouse', check: () => clickhouse.ping() },
        { name: 'redis', check: async () => (await redis.ping()) === 'PONG', gates: false },
      ];
      healthRoutes(router, readiness, metrics, {
        metricsToken: config.API_METRICS_TOKEN,
      });
      docsRoutes(router, () => document);
      audioRoutes(router, { store: audioStore, keys: audioUrlKeys });
      articleAudioRoutes(router, {
        narrationOf: (id) => store.narration(id),
        keys: audioUrlKeys,
        audio,
        ...(config.API_NARRATIONS_AT_ONCE > 0
          ? {
              onRequest: new NarrationsOnRequest({
                wordsOf: (id) => readNarrationWords(clickhouse, id),
                atOnce: config.API_NARRATIONS_AT_ONCE,
                narration: {
                  synthesis,
                  audioAddress: (key) => audioAddress(config.API_PUBLIC_URL, key),
                  format: config.NARRATOR_FORMAT,
                  text: config.NARRATOR_TEXT,
                  // A client is waiting: one attempt, and a failure is a 404 it can read.
                  retry: { maxAttempts: 1, initialBackoffMs: 0, maxBackoffMs: 0 },
                  defaultProvider: speechProviders[0]!.name,
                  logger,
                },
              }),
            }
          : {}),
      });
      tokenEndpoint(router, {
        tokens,
        maxBodyBytes: config.API_MAX_BODY_BYTES,
        maxJsonDepth: config.API_MAX_JSON_DEPTH,
        authenticateClient: (id, secret) => known(directory.findByClientCredentials(id, secret)),
      });
    },
    authenticate: bearerAuthentication({
      clients,
      tokens,
      queryTokens: { paths: ['/v1/stream'], tokens: streamTokens },
    }),
    beforeAuthentication: credentialGuard(
      new CredentialGuessing({
        redis,
        prefix: `${config.REDIS_KEY_PREFIX}auth-failures:`,
        perMinute: config.API_AUTH_FAILURES_PER_MINUTE,
        logger,
        metrics,
      }),
      TrustedProxies.parse(config.API_TRUSTED_PROXIES),
      tokenPath,
    ),
    afterAuthentication: [
      rateLimit(new RateLimiter({ redis, logger, metrics, prefix: `${config.REDIS_KEY_PREFIX}ratelimit:` })),
    ],
    inFlight: new InFlightRequests(config.API_MAX_IN_FLIGHT_PER_CLIENT),
    // Answers are sealed with the webhook secret keys: registrations and rotations carry a secret.
    idempotency: new IdempotentRequests({
      records: new IdempotencyRecords({ redis, box: secrets }),
      prefix: `${config.REDIS_KEY_PREFIX}idempotency:`,
      settings: {
        retentionSeconds: config.API_IDEMPOTENCY_KEY_TTL_SECONDS,
        claimMs: config.API_REQUEST_DEADLINE_MS + 5_000,
      },
      logger,
      metrics,
    }),
    limits: { maxBodyBytes: config.API_MAX_BODY_BYTES, maxJsonDepth: config.API_MAX_JSON_DEPTH },
    deadlineMs: config.API_REQUEST_DEADLINE_MS,
    logger,
    metrics,
  });

  // eslint-disable-next-line @typescript-eslint/no-misused-promises -- Koa's callback handles its own promise
  const server = createServer(serverOptions, app.callback());
  server.timeout = config.API_IDLE_TIMEOUT_MS;
  answerClientErrors(server);
  const unrequested = trackUnrequestedConnections(server);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.PORT, config.API_HOST, resolve);
  });
  const { port } = server.address() as AddressInfo;
  if (!publicUrl) publicUrl = `http://${config.API_HOST}:${port}`;
  return {
    server,
    url: `http://${config.API_HOST}:${port}`,
    close: async () => {
      // Streams end first, each with a final event, or the server would wait on them forever.
      await hub.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
        unrequested.close();
      });
      for (const close of closers.reverse()) await close().catch(() => undefined);
    },
  };
}

/** What authentication needs of a directory entry (revoked clients are not in the directory). */
function known(client: Client | undefined): KnownClient | null {
  if (!client) return null;
  return {
    clientId: client.client_id,
    tenantId: client.tenant_id,
    scopes: client.scopes,
    revoked: client.revoked,
    limits: effectiveLimits(client),
  };
}

/**
 * The provider and term extraction the intelligence routes use: the embedded provider's long texts on
 * API_ANALYSIS_WORKERS worker threads (analysis-pool.ts); a remote provider (whose time goes to waiting
 * on its server, not the CPU) and API_ANALYSIS_WORKERS=0 as they are.
 */
function analysesFor(config: ApiConfig, provider: EnrichmentProvider, logger: Logger) {
  const inThread = { provider, termsOf: extractTerms, close: async () => undefined };
  if (config.ENRICHMENT_PROVIDER !== 'embedded' || config.API_ANALYSIS_WORKERS === 0) return inThread;
  return offThreadAnalyses(inThread, {
    size: config.API_ANALYSIS_WORKERS,
    timeoutMs: config.API_REQUEST_DEADLINE_MS,
    // Long texts come now and then: a worker holds ~110 MB, and starting one takes about a second.
    idleTimeoutMs: 5 * 60_000,
    onWorkerLost: (reason) => logger.warn({ reason }, 'an analysis worker was lost'),
  });
}
