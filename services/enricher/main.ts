// The enricher: a consumer-group member over news.articles.discovered.v1 that appends one
// news.articles.enriched.v1 event per article (enricher.ts). Uses the embedded provider unless
// ENRICHMENT_PROVIDER=openai (services/intelligence/provider-factory.ts).
import { Redis } from 'ioredis';
import { ClickHouse, clickHouseSettings } from '../runtime/clickhouse/client.ts';
import { loadConfig } from '../runtime/config.ts';
import { createKafka } from '../runtime/kafka/client.ts';
import { ConsumerRunner } from '../runtime/kafka/consumer.ts';
import { EventProducer } from '../runtime/kafka/producer.ts';
import { createSchemaRegistry, EventCodec } from '../runtime/kafka/registry.ts';
import { topicNames } from '../runtime/kafka/topics.ts';
import { runProcess, type Lifecycle } from '../runtime/lifecycle.ts';
import { workerOps } from '../runtime/ops-server.ts';
import { createLogger, type Logger } from '../runtime/logger.ts';
import { extractTerms } from '../intelligence/embedded/embedded-provider.ts';
import { createProvider } from '../intelligence/provider-factory.ts';
import { RelatedArticles } from '../intelligence/related-articles.ts';
import type { ArticleDiscovered } from '../runtime/events/types.generated.ts';
import { enricherEnv } from './config.ts';
import { enricherHandler } from './enricher.ts';

let logger: Logger | undefined;

async function main({ onStop }: Lifecycle): Promise<void> {
  const config = loadConfig(enricherEnv);
  logger = createLogger('enricher', config.LOG_LEVEL);
  const metrics = await workerOps('enricher', config, logger, onStop);
  const clickhouse = await ClickHouse.connect(clickHouseSettings(config), { logger });
  // Only the OpenAI provider's answer cache uses Redis; a Redis outage costs cache hits, not enrichments.
  const redis =
    config.ENRICHMENT_PROVIDER === 'openai'
      ? new Redis(config.REDIS_URL, { maxRetriesPerRequest: 1, enableOfflineQueue: false })
      : undefined;
  const provider = createProvider(config, { logger, redis });

  const kafka = createKafka({
    brokers: config.KAFKA_BROKERS,
    clientId: `${config.KAFKA_CLIENT_ID}-enricher`,
    logger,
  });
  const codec = new EventCodec(createSchemaRegistry(config.SCHEMA_REGISTRY_URL));
  const producer = await EventProducer.connect(kafka, codec);
  const related = new RelatedArticles(clickhouse);
  const runner = new ConsumerRunner<ArticleDiscovered>({
    metrics,
    kafka,
    codec,
    producer,
    logger,
    groupId: config.ENRICHER_GROUP,
    topics: [topicNames.articlesDiscovered],
    fromBeginning: config.ENRICHER_FROM_BEGINNING,
    partitionsConcurrently: 2,
    // Small fetches: a batch is enriched before its offsets are committed, so it should take seconds, not minutes.
    fetch: { maxBytesPerPartition: 256 * 1024, maxBytes: 1024 * 1024 },
    batchHandler: enricherHandler({
      provider,
      producer,
      findRelated: (query) => related.find(query),
      termsOf: extractTerms,
      logger,
      concurrency: config.ENRICHER_CONCURRENCY,
      retry: { attempts: config.ENRICHER_ATTEMPTS, initialBackoffMs: 1_000, maxBackoffMs: 8_000 },
    }),
  });
  onStop(async () => {
    await producer.disconnect();
    await clickhouse.close();
    redis?.disconnect();
  });
  onStop(() => runner.stop());
  await runner.start();
  logger.info(
    { group: config.ENRICHER_GROUP, provider: provider.name, model: provider.model },
    'enricher started',
  );
}

runProcess(main, { logger: () => logger! });
