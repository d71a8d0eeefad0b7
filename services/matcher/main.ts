// The matcher: keeps every monitor in memory from news.monitors.v1 (read whole at start, then live),
// consumes news.articles.enriched.v1 and appends a news.alert to news.alerts.v1 for every monitor an
// article mentions.
import { Redis } from 'ioredis';
import { ClickHouse, clickHouseSettings } from '../runtime/clickhouse/client.ts';
import { loadConfig } from '../runtime/config.ts';
import type { ArticleEnriched, Monitor } from '../runtime/events/types.generated.ts';
import { createKafka } from '../runtime/kafka/client.ts';
import { ConsumerRunner } from '../runtime/kafka/consumer.ts';
import { LiveTable } from '../runtime/kafka/live-table.ts';
import { EventProducer } from '../runtime/kafka/producer.ts';
import { createSchemaRegistry, EventCodec } from '../runtime/kafka/registry.ts';
import { topicNames } from '../runtime/kafka/topics.ts';
import { runProcess, type Lifecycle } from '../runtime/lifecycle.ts';
import { workerOps } from '../runtime/ops-server.ts';
import { createLogger, type Logger } from '../runtime/logger.ts';
import { RedisAlertClaims } from '../monitors/alert-claims.ts';
import { MonitorSet } from '../monitors/alert-raiser.ts';
import { readArticleFacts } from '../monitors/article-facts.ts';
import { matcherEnv } from './config.ts';
import { matcherHandler } from './matcher.ts';

let logger: Logger | undefined;

async function main({ onStop }: Lifecycle): Promise<void> {
  const config = loadConfig(matcherEnv);
  logger = createLogger('matcher', config.LOG_LEVEL);
  const metrics = await workerOps('matcher', config, logger, onStop);
  const clickhouse = await ClickHouse.connect(clickHouseSettings(config), { logger });
  const kafka = createKafka({
    brokers: config.KAFKA_BROKERS,
    clientId: `${config.KAFKA_CLIENT_ID}-matcher`,
    logger,
  });
  const codec = new EventCodec(createSchemaRegistry(config.SCHEMA_REGISTRY_URL));
  const producer = await EventProducer.connect(kafka, codec);
  // Commands fail rather than queue (or hang on a frozen server) while Redis is away: the batch then
  // waits as for any dependency, and is matched again once Redis answers.
  const redis =
    config.MATCHER_REPEATED_STORY_DAYS > 0
      ? new Redis(config.REDIS_URL, {
          maxRetriesPerRequest: 1,
          enableOfflineQueue: false,
          commandTimeout: 2_000,
        })
      : undefined;
  redis?.on('error', (error: Error) => logger?.warn({ err: error.message }, 'Redis unreachable'));
  onStop(async () => {
    await producer.disconnect();
    await clickhouse.close();
    redis?.disconnect();
  });

  const table = await LiveTable.start<Monitor>({
    kafka,
    codec,
    producer,
    logger,
    topic: topicNames.monitors,
    groupPrefix: 'matcher-monitors',
    metrics,
  });
  onStop(() => table.stop());
  await table.ready(60_000);
  const monitors = new MonitorSet(() => table.values());
  table.onChange(() => monitors.invalidate());
  logger.info({ monitors: table.size }, 'monitors loaded');

  const runner = new ConsumerRunner<ArticleEnriched>({
    metrics,
    kafka,
    codec,
    producer,
    logger,
    groupId: config.MATCHER_GROUP,
    topics: [topicNames.articlesEnriched],
    fromBeginning: config.MATCHER_FROM_BEGINNING,
    partitionsConcurrently: 2,
    // Short pauses: an alert waiting for its narration should go as soon as the narration is there.
    retry: { initialBackoffMs: 100, maxBackoffMs: 1_000 },
    batchHandler: matcherHandler({
      readArticles: (ids) => readArticleFacts(clickhouse, ids),
      producer,
      monitors,
      logger,
      articleWaitMs: config.MATCHER_ARTICLE_WAIT_MS,
      narrationWaitMs: config.MATCHER_NARRATION_WAIT_MS,
      maxAgeMs: config.MATCHER_ALERT_MAX_AGE_HOURS * 3_600_000,
      ...(redis
        ? {
            claims: new RedisAlertClaims(redis, {
              prefix: config.REDIS_KEY_PREFIX,
              windowSeconds: config.MATCHER_REPEATED_STORY_DAYS * 86_400,
            }),
          }
        : {}),
    }),
  });
  onStop(() => runner.stop());
  await runner.start();
  logger.info({ group: config.MATCHER_GROUP }, 'matcher started');
}

runProcess(main, { logger: () => logger! });
