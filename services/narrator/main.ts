// The narrator: a consumer-group member over news.articles.enriched.v1 that narrates every article in a
// voice of its language and appends the outcome to news.articles.narrated.v1 (narrator.ts). Speech comes
// from the embedded engines unless SPEECH_PROVIDER says otherwise (services/speech/provider-factory.ts);
// files go to the audio store the API serves them from (AUDIO_STORE, AUDIO_DIR: the same as the API's).
import { audioAddress } from '../audio/audio-address.ts';
import { createAudioStore } from '../audio/config.ts';
import { ClickHouse, clickHouseSettings } from '../runtime/clickhouse/client.ts';
import { loadConfig } from '../runtime/config.ts';
import type { ArticleEnriched } from '../runtime/events/types.generated.ts';
import { createKafka } from '../runtime/kafka/client.ts';
import { ConsumerRunner } from '../runtime/kafka/consumer.ts';
import { EventProducer } from '../runtime/kafka/producer.ts';
import { createSchemaRegistry, EventCodec } from '../runtime/kafka/registry.ts';
import { topicNames } from '../runtime/kafka/topics.ts';
import { runProcess, type Lifecycle } from '../runtime/lifecycle.ts';
import { workerOps } from '../runtime/ops-server.ts';
import { createLogger, type Logger } from '../runtime/logger.ts';
import { createSpeechProviders } from '../speech/provider-factory.ts';
import { createSynthesizer } from '../speech/synthesizer.ts';
import { narratorEnv } from './config.ts';
import { maxNarrationCharacters } from '../narration/narrate-article.ts';
import { narratorHandler } from './narrator.ts';

let logger: Logger | undefined;

async function main({ onStop }: Lifecycle): Promise<void> {
  const config = loadConfig(narratorEnv);
  logger = createLogger('narrator', config.LOG_LEVEL);
  const log = logger;
  const metrics = await workerOps('narrator', config, logger, onStop);
  const providers = createSpeechProviders(config, { logger });
  const synthesis = createSynthesizer({
    providers,
    store: createAudioStore(config),
    maxCharacters: maxNarrationCharacters,
    concurrency: config.SPEECH_CONCURRENCY,
    metrics,
    logger,
    // One line per provider request: an operator (or a test) can count what was really synthesized.
    onProviderCall: (provider, characters) => log.debug({ provider, characters }, 'speech provider call'),
  });
  onStop(() => synthesis.close());
  const clickhouse = await ClickHouse.connect(clickHouseSettings(config), { logger });
  const kafka = createKafka({
    brokers: config.KAFKA_BROKERS,
    clientId: `${config.KAFKA_CLIENT_ID}-narrator`,
    logger,
  });
  const codec = new EventCodec(createSchemaRegistry(config.SCHEMA_REGISTRY_URL));
  const producer = await EventProducer.connect(kafka, codec);
  onStop(async () => {
    await producer.disconnect();
    await clickhouse.close();
  });

  const runner = new ConsumerRunner<ArticleEnriched>({
    kafka,
    codec,
    producer,
    logger,
    groupId: config.NARRATOR_GROUP,
    topics: [topicNames.articlesEnriched],
    fromBeginning: config.NARRATOR_FROM_BEGINNING,
    partitionsConcurrently: 2,
    // Small fetches: a batch is narrated before its offsets are committed, so it should take seconds.
    fetch: { maxBytesPerPartition: 64 * 1024, maxBytes: 256 * 1024 },
    batchHandler: narratorHandler({
      clickhouse,
      producer,
      synthesis,
      audioAddress: (key) => audioAddress(config.API_PUBLIC_URL, key),
      format: config.NARRATOR_FORMAT,
      text: config.NARRATOR_TEXT,
      retry: { maxAttempts: config.NARRATOR_ATTEMPTS, initialBackoffMs: 1_000, maxBackoffMs: 8_000 },
      defaultProvider: providers[0]!.name,
      concurrency: config.NARRATOR_CONCURRENCY,
      articleWaitMs: config.NARRATOR_ARTICLE_WAIT_MS,
      maxAgeMs: config.NARRATOR_MAX_AGE_HOURS * 3_600_000,
      logger,
      metrics,
    }),
  });
  onStop(() => runner.stop());
  await runner.start();
  logger.info(
    { group: config.NARRATOR_GROUP, provider: providers[0]!.name, text: config.NARRATOR_TEXT },
    'narrator started',
  );
}

runProcess(main, { logger: () => logger! });
