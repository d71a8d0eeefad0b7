// Builds and starts the API from its configuration: ClickHouse (reads), Kafka
// (source and subscription events), the feed fetcher (checking a new feed
// once), all wired into the Koa app. main.ts runs it as a process; tests, the
// demo and the benchmark start it the same way.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Registry, collectDefaultMetrics } from 'prom-client';
import { FeedFetcher } from '../poller/fetcher/feed-fetcher.ts';
import { parseFeed } from '../poller/parser/parse-feed.ts';
import { ClickHouse } from '../runtime/clickhouse/client.ts';
import { ConfigError } from '../runtime/config.ts';
import { createKafka } from '../runtime/kafka/client.ts';
import { EventProducer } from '../runtime/kafka/producer.ts';
import { createSchemaRegistry, EventCodec } from '../runtime/kafka/registry.ts';
import type { Logger } from '../runtime/logger.ts';
import { createOutboundUrlPolicy } from '../runtime/outbound-url.ts';
import { createApp } from './app.ts';
import { ArticleStore } from './articles/article-store.ts';
import type { ApiConfig } from './config.ts';
import { healthRoutes } from './health.ts';
import { openAccess } from './http/principal.ts';
import { openApiDocument } from './openapi/document.ts';
import { docsRoutes } from './openapi/docs-page.ts';
import { SourceCatalog } from './sources/source-catalog.ts';
import { apiRoutes } from './routes.ts';
import { SourceSubscriptions, type FeedCheck } from './sources/subscriptions.ts';
import { version } from './version.ts';

export interface RunningApi {
  server: Server;
  url: string;
  close(): Promise<void>;
}

export async function startApi(config: ApiConfig, logger: Logger): Promise<RunningApi> {
  let policy;
  try {
    policy = createOutboundUrlPolicy({ allow: config.OUTBOUND_ALLOW_LIST });
  } catch (error) {
    throw new ConfigError([(error as Error).message]);
  }
  const clickhouse = await ClickHouse.connect({
    url: config.CLICKHOUSE_URL,
    user: config.CLICKHOUSE_USER,
    password: config.CLICKHOUSE_PASSWORD,
    database: config.CLICKHOUSE_DATABASE,
  });
  const kafka = createKafka({
    brokers: config.KAFKA_BROKERS,
    clientId: `${config.KAFKA_CLIENT_ID}-api`,
    logger,
  });
  const producer = await EventProducer.connect(
    kafka,
    new EventCodec(createSchemaRegistry(config.SCHEMA_REGISTRY_URL)),
  );
  const fetcher = new FeedFetcher({
    userAgent: config.POLLER_USER_AGENT,
    policy,
    connectTimeoutMs: config.FEED_CONNECT_TIMEOUT_MS,
    totalTimeoutMs: config.FEED_TOTAL_TIMEOUT_MS,
    maxBodyBytes: config.FEED_MAX_BODY_BYTES,
  });
  const checkFeed: FeedCheck = async (url) => {
    const outcome = await fetcher.fetch({ url });
    if (outcome.kind === 'failed' || outcome.kind === 'refused') return { ok: false, reason: outcome.reason };
    if (outcome.kind !== 'ok') return { ok: false, reason: `unexpected answer ${outcome.status}` };
    try {
      const feed = parseFeed(outcome.body, outcome.contentType);
      return {
        ok: true,
        title: feed.title,
        language: feed.language,
        siteUrl: feed.siteUrl,
        items: feed.items.length,
      };
    } catch (error) {
      return { ok: false, reason: (error as Error).message };
    }
  };

  const metrics = new Registry();
  collectDefaultMetrics({ register: metrics });
  const store = new ArticleStore(clickhouse);
  const catalog = new SourceCatalog(clickhouse);
  const subscriptions = new SourceSubscriptions({
    catalog,
    producer,
    checkFeed,
    pollIntervalSeconds: config.API_SOURCE_POLL_INTERVAL_SECONDS,
    visibleWithinMs: config.API_VISIBLE_WITHIN_MS,
  });
  const routes = apiRoutes({ clickhouse, store, catalog, subscriptions });
  const document = openApiDocument(routes, {
    version,
    ...(config.API_PUBLIC_URL ? { serverUrl: config.API_PUBLIC_URL } : {}),
  });
  const app = createApp({
    routes,
    publicRoutes: (router) => {
      healthRoutes(router, [{ name: 'clickhouse', check: () => clickhouse.ping() }], metrics);
      docsRoutes(router, () => document);
    },
    authenticate: openAccess(config.API_DEFAULT_TENANT),
    limits: { maxBodyBytes: config.API_MAX_BODY_BYTES },
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
  return {
    server,
    url: `http://${config.API_HOST}:${port}`,
    close: async () => {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      });
      await producer.disconnect();
      await clickhouse.close();
    },
  };
}
