// The webhook dispatcher (`npm run dispatcher`): five consumer groups in one process.
// - `<DISPATCHER_GROUP>.alerts` reads news.alerts.v1 and appends one pending delivery job per subscribed
//   webhook to news.webhook-deliveries.v1 (fan-out.ts);
// - `<DISPATCHER_GROUP>.articles` reads news.articles.enriched.v1 and appends article.published jobs for
//   the webhooks whose filter an article passes (article-fan-out.ts);
// - `<DISPATCHER_GROUP>.article-updates` reads news.articles.discovered.v1 and appends article.updated
//   jobs for each later revision of an article that passes a subscribed webhook's filter
//   (article-update-fan-out.ts);
// - `<DISPATCHER_GROUP>.documentaries` reads news.documentaries.v1 and appends documentary.ready jobs for
//   the tenant's subscribed webhooks when a documentary is ready (documentary-fan-out.ts);
// - `<DISPATCHER_GROUP>.deliveries` reads the jobs from news.webhook-deliveries.v1 and its retry topics,
//   waits for each to be due, signs and POSTs it, and appends the outcome (delivery-consumer.ts,
//   delivery-worker.ts).
// Both know the webhooks from news.webhooks.v1, kept in memory (webhook-directory.ts). Run several and
// the partitions split between them.
import { ConfigError } from '../runtime/config.ts';
import { ClickHouse, clickHouseSettings } from '../runtime/clickhouse/client.ts';
import { AppendBatcher } from '../runtime/kafka/append-batcher.ts';
import type {
  Alert,
  ArticleDiscovered,
  ArticleEnriched,
  Documentary,
  StoryEvent,
} from '../runtime/events/types.generated.ts';
import { createKafka } from '../runtime/kafka/client.ts';
import { ConsumerRunner } from '../runtime/kafka/consumer.ts';
import { EventProducer } from '../runtime/kafka/producer.ts';
import { installRecordEncoding } from '../runtime/kafka/record-encoding.ts';
import { createSchemaRegistry, EventCodec, localTypes } from '../runtime/kafka/registry.ts';
import { retryTopicName, topicCatalog, topicNames } from '../runtime/kafka/topics.ts';
import { runProcess, type Lifecycle } from '../runtime/lifecycle.ts';
import { workerOps } from '../runtime/ops-server.ts';
import { createLogger, type Logger } from '../runtime/logger.ts';
import { createOutboundUrlPolicy, type OutboundUrlPolicy } from '../runtime/outbound/outbound-url.ts';
import { createDeliveryClient } from '../webhooks/delivery-client.ts';
import { createRetryPlan } from '../webhooks/retry-plan.ts';
import { SECRET_KEYS_SETTING, secretBoxFromSetting } from '../webhooks/secret-box.ts';
import { SigningKeys } from '../webhooks/signing-keys.ts';
import { loadDispatcherConfig } from './config.ts';
import { DeliveryConsumer } from './delivery-consumer.ts';
import { deliveryLog } from './attempt-records.ts';
import { DeliveryWorker } from './delivery-worker.ts';
import { articleFanOutHandler } from './article-fan-out.ts';
import { breakingFanOutHandler } from './breaking-fan-out.ts';
import { articleUpdateFanOutHandler, readClassifications } from './article-update-fan-out.ts';
import { readyInReadModel } from '../documentaries/documentary-registry.ts';
import { documentaryFanOutHandler } from './documentary-fan-out.ts';
import { fanOutHandler } from './fan-out.ts';
import { jobProcessor } from './job-processor.ts';
import { KeyedSlots } from './keyed-slots.ts';
import { checkProvisioned } from './provisioned.ts';
import { startAtEndIfNew } from '../runtime/kafka/start-position.ts';
import { WebhookDirectory } from './webhook-directory.ts';
import { localApiUrl } from '../audio/audio-address.ts';
import { audioUrls } from '../audio/audio-urls.ts';
import { unsignedAudioUrls } from '../audio/payload-audio-urls.ts';
import { parseAudioUrlKeys } from '../audio/signed-url.ts';

let logger: Logger | undefined;

/**
 * Outcome records wait up to 20 ms (or until 400 wait) to share a produce request. Nothing waits for
 * them but the offset commit (a webhook's next job starts once the request has ended), and on this
 * machine each produce request costs the dispatcher about what a hundred records do (KafkaJS's encoding
 * and a socket write that wakes the broker): without a linger a busy dispatcher sent one every 2–3 ms,
 * with ~10 outcomes each.
 */
const outcomeLinger = { ms: 20, records: 400 };

async function main({ onStop }: Lifecycle): Promise<void> {
  const config = loadDispatcherConfig();
  // Every delivery appends records (outcome, next job): KafkaJS's record encoding, made cheaper.
  installRecordEncoding();
  logger = createLogger('dispatcher', config.LOG_LEVEL);
  const metrics = await workerOps('dispatcher', config, logger, onStop);
  const log = logger;
  let policy: OutboundUrlPolicy;
  try {
    policy = createOutboundUrlPolicy({
      allow: config.OUTBOUND_ALLOW_LIST,
      dnsCacheMs: config.OUTBOUND_DNS_CACHE_SECONDS * 1000,
    });
  } catch (error) {
    throw new ConfigError([(error as Error).message]); // names the setting already
  }
  const secrets = secretBoxFromSetting(config.WEBHOOK_SECRET_KEYS);
  if (secrets.usesDevelopmentKey) {
    log.warn(
      `${SECRET_KEYS_SETTING} is empty: webhook secrets are opened with the public development key; set it in production`,
    );
  }
  let audioKeys;
  try {
    audioKeys = parseAudioUrlKeys(config.AUDIO_URL_KEYS);
  } catch (error) {
    throw new ConfigError([(error as Error).message]); // names the setting, never the secret
  }
  if (audioKeys.development) {
    log.warn(
      'AUDIO_URL_KEYS is empty: audio URLs in webhooks are signed with the public development key; set it in production',
    );
  }
  const baseUrl = () => config.API_PUBLIC_URL || localApiUrl;
  // Jobs are stored with unsigned addresses, and each attempt signs them (payload-audio-urls.ts).
  const audio = unsignedAudioUrls(baseUrl);
  const signing = audioUrls({ baseUrl, keys: audioKeys, ttlSeconds: config.AUDIO_URL_WEBHOOK_TTL_SECONDS });
  const schedule = config.WEBHOOK_RETRY_SCHEDULE;
  const plan = createRetryPlan(schedule);
  const deliveryTopics = [topicNames.webhookDeliveries, ...new Set(schedule.map(retryTopicName))];

  const kafka = createKafka({
    brokers: config.KAFKA_BROKERS,
    clientId: `${config.KAFKA_CLIENT_ID}-dispatcher`,
    logger: log,
  });
  // The catalog of this schedule: the retry topics are known to the codec only through it.
  const codec = new EventCodec(
    createSchemaRegistry(config.SCHEMA_REGISTRY_URL),
    localTypes(topicCatalog(schedule)),
  );
  await checkProvisioned(kafka, codec, deliveryTopics, schedule);
  const producer = await EventProducer.connect(kafka, codec);
  const client = createDeliveryClient({
    policy,
    connectTimeoutMs: config.WEBHOOK_CONNECT_TIMEOUT_MS,
    totalTimeoutMs: config.WEBHOOK_TIMEOUT_MS,
    maxResponseBytes: config.WEBHOOK_MAX_RESPONSE_BYTES,
    userAgent: config.WEBHOOK_USER_AGENT,
  });
  onStop(async () => {
    await client.close();
    await producer.disconnect();
  });

  const directory = await WebhookDirectory.start({
    kafka,
    codec,
    producer,
    logger: log,
    groupPrefix: `${config.DISPATCHER_GROUP}.webhooks`,
    metrics,
  });
  onStop(() => directory.stop());
  await directory.ready();
  log.info({ webhooks: directory.size }, 'webhooks read');

  const alertsGroup = `${config.DISPATCHER_GROUP}.alerts`;
  const documentariesGroup = `${config.DISPATCHER_GROUP}.documentaries`;
  const deliveriesGroup = `${config.DISPATCHER_GROUP}.deliveries`;
  if (!config.DISPATCHER_FROM_BEGINNING) {
    const admin = kafka.admin();
    await admin.connect();
    try {
      await startAtEndIfNew(kafka, admin, alertsGroup, [topicNames.alerts], log);
      await startAtEndIfNew(kafka, admin, documentariesGroup, [topicNames.documentaries], log);
      await startAtEndIfNew(kafka, admin, deliveriesGroup, deliveryTopics, log);
    } finally {
      await admin.disconnect();
    }
  }

  // article.published: a new group starts at the end of the topic whatever DISPATCHER_FROM_BEGINNING
  // says, so registering the first such webhook does not push every article ever enriched.
  const clickhouse = await ClickHouse.connect(clickHouseSettings(config), { logger });
  onStop(() => clickhouse.close());
  const articles = new ConsumerRunner<ArticleEnriched>({
    metrics,
    kafka,
    codec,
    producer,
    logger: log,
    groupId: `${config.DISPATCHER_GROUP}.articles`,
    topics: [topicNames.articlesEnriched],
    fromBeginning: false,
    partitionsConcurrently: 2,
    batchHandler: articleFanOutHandler({
      directory,
      clickhouse,
      producer,
      logger: log,
      articleWaitMs: 60_000,
      audio,
    }),
  });

  // article.updated: like article.published, a new group starts at the end of the topic, so subscribing
  // does not push the revisions of the past.
  const articleUpdates = new ConsumerRunner<ArticleDiscovered>({
    metrics,
    kafka,
    codec,
    producer,
    logger: log,
    groupId: `${config.DISPATCHER_GROUP}.article-updates`,
    topics: [topicNames.articlesDiscovered],
    fromBeginning: false,
    partitionsConcurrently: 2,
    batchHandler: articleUpdateFanOutHandler({
      directory,
      classifications: (ids) => readClassifications(clickhouse, ids),
      producer,
    }),
  });

  // news.breaking: a new group starts at the end of the topic too, so subscribing does not send the
  // breaking news of the past.
  const breaking = new ConsumerRunner<StoryEvent>({
    metrics,
    kafka,
    codec,
    producer,
    logger: log,
    groupId: `${config.DISPATCHER_GROUP}.stories`,
    topics: [topicNames.stories],
    fromBeginning: false,
    batchHandler: breakingFanOutHandler({
      directory,
      clickhouse,
      producer,
      logger: log,
      articleWaitMs: 60_000,
    }),
  });

  const fanOut = new ConsumerRunner<Alert>({
    metrics,
    kafka,
    codec,
    producer,
    logger: log,
    groupId: alertsGroup,
    topics: [topicNames.alerts],
    fromBeginning: config.DISPATCHER_FROM_BEGINNING,
    partitionsConcurrently: 2,
    batchHandler: fanOutHandler({ directory, producer, logger: log, audio }),
  });
  // Like the alerts: a new deployment owes every ready documentary its documentary.ready.
  const documentaries = new ConsumerRunner<Documentary>({
    metrics,
    kafka,
    codec,
    producer,
    logger: log,
    groupId: documentariesGroup,
    topics: [topicNames.documentaries],
    fromBeginning: config.DISPATCHER_FROM_BEGINNING,
    partitionsConcurrently: 2,
    batchHandler: documentaryFanOutHandler({
      directory,
      producer,
      logger: log,
      audio,
      shownReady: (ids) => readyInReadModel(clickhouse, ids),
    }),
  });
  const deliveries = new DeliveryConsumer({
    kafka,
    codec,
    producer,
    logger: log,
    groupId: deliveriesGroup,
    topics: deliveryTopics,
    fromBeginning: config.DISPATCHER_FROM_BEGINNING,
    sessionTimeoutMs: config.DISPATCHER_SESSION_TIMEOUT_MS,
    slots: new KeyedSlots(config.DISPATCHER_CONCURRENCY),
    drainTimeoutMs: config.WEBHOOK_TIMEOUT_MS + 2_000,
    process: jobProcessor({
      worker: new DeliveryWorker({
        directory,
        secrets: new SigningKeys(secrets),
        client,
        plan,
        logger: log,
        audio: signing,
      }),
      append: deliveryLog({
        batcher: new AppendBatcher((records) => producer.sendRawBatch(records), 1_000, outcomeLinger),
        codec,
        group: deliveriesGroup,
      }),
      directory,
      logger: log,
    }),
  });
  // In parallel: each waits out a fetch. The directory's map stays readable after it stops following.
  onStop(async () => {
    await Promise.all([
      deliveries.stop(),
      fanOut.stop(),
      articles.stop(),
      articleUpdates.stop(),
      breaking.stop(),
      documentaries.stop(),
      directory.stop(),
    ]);
  });
  // Started side by side: after a crash one group may wait for the dead member's session to expire,
  // and the other must not wait with it.
  await Promise.all([
    fanOut.start(),
    articles.start(),
    articleUpdates.start(),
    breaking.start(),
    documentaries.start(),
    deliveries.start(),
  ]);
  log.info(
    { group: config.DISPATCHER_GROUP, retrySchedule: schedule, concurrency: config.DISPATCHER_CONCURRENCY },
    'dispatcher started',
  );
}

runProcess(main, { logger: () => logger! });
