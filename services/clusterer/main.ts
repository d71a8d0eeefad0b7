// The clusterer: consumes news.articles.enriched.v1, gives every article a story, and appends each
// decision to news.stories.v1 (docs/stories.md). One member of its group works, the others stand by
// (singleMemberAssigner): clustering compares each article with every open story, so it cannot be
// split by partition.
import { ClickHouse, clickHouseSettings } from '../runtime/clickhouse/client.ts';
import { loadConfig } from '../runtime/config.ts';
import type { ArticleEnriched } from '../runtime/events/types.generated.ts';
import { createKafka } from '../runtime/kafka/client.ts';
import { ConsumerRunner } from '../runtime/kafka/consumer.ts';
import { EventProducer } from '../runtime/kafka/producer.ts';
import { createSchemaRegistry, EventCodec } from '../runtime/kafka/registry.ts';
import { singleMemberAssigner } from '../runtime/kafka/single-member-assigner.ts';
import { startAtEndIfNew } from '../runtime/kafka/start-position.ts';
import { topicNames } from '../runtime/kafka/topics.ts';
import { runProcess, type Lifecycle } from '../runtime/lifecycle.ts';
import { workerOps } from '../runtime/ops-server.ts';
import { createLogger, type Logger } from '../runtime/logger.ts';
import { clustererHandler } from './clusterer.ts';
import { clustererEnv } from './config.ts';
import { restoreClusterer } from './restore.ts';

let logger: Logger | undefined;

async function main({ onStop }: Lifecycle): Promise<void> {
  const config = loadConfig(clustererEnv);
  const log = (logger = createLogger('clusterer', config.LOG_LEVEL));
  const metrics = await workerOps('clusterer', config, logger, onStop);
  const clickhouse = await ClickHouse.connect(clickHouseSettings(config), { logger });
  const kafka = createKafka({
    brokers: config.KAFKA_BROKERS,
    clientId: `${config.KAFKA_CLIENT_ID}-clusterer`,
    logger,
  });
  const codec = new EventCodec(createSchemaRegistry(config.SCHEMA_REGISTRY_URL));
  const producer = await EventProducer.connect(kafka, codec);
  onStop(async () => {
    await producer.disconnect();
    await clickhouse.close();
  });

  const settings = {
    joinThreshold: config.STORY_JOIN_THRESHOLD,
    windowHours: config.STORY_WINDOW_HOURS,
    closeAfterHours: config.STORY_CLOSE_AFTER_HOURS,
    mergeThreshold: config.STORY_MERGE_THRESHOLD,
    vectorTerms: 30,
    indexTerms: 20,
    centroidTerms: 200,
    breakingWindowMinutes: config.BREAKING_WINDOW_MINUTES,
    breakingMinSources: config.BREAKING_MIN_SOURCES,
    breakingRateFactor: config.BREAKING_RATE_FACTOR,
  };
  const handler = clustererHandler({
    clickhouse,
    producer,
    logger: log,
    articleWaitMs: config.CLUSTERER_ARTICLE_WAIT_MS,
    restore: () => restoreClusterer({ kafka, codec, logger: log, settings }),
  });
  if (!config.CLUSTERER_FROM_BEGINNING) {
    // Fix the start at the end now, for every partition: a partition this member never read would
    // otherwise have no committed offset, and a restarted member would skip what arrived meanwhile.
    const admin = kafka.admin();
    await admin.connect();
    try {
      await startAtEndIfNew(kafka, admin, config.CLUSTERER_GROUP, [topicNames.articlesEnriched], log);
    } finally {
      await admin.disconnect();
    }
  }
  const runner = new ConsumerRunner<ArticleEnriched>({
    metrics,
    kafka,
    codec,
    producer,
    logger: log,
    groupId: config.CLUSTERER_GROUP,
    topics: [topicNames.articlesEnriched],
    fromBeginning: config.CLUSTERER_FROM_BEGINNING,
    partitionAssigners: [singleMemberAssigner],
    retry: { initialBackoffMs: 200, maxBackoffMs: 2_000 },
    batchHandler: handler.handle,
    // Whatever the new assignment, the state is rebuilt from the topic before the next batch: while this
    // member stood by, another may have decided.
    onAssignment: (assigned) => {
      handler.forget();
      const active = assigned.some((a) => a.partitions.length > 0);
      log.info({ active }, active ? 'clustering (this member has the partitions)' : 'standing by');
    },
  });
  onStop(() => runner.stop());
  await runner.start();
  log.info({ group: config.CLUSTERER_GROUP }, 'clusterer started');
}

runProcess(main, { logger: () => logger! });
