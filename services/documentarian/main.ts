// The documentary processor (`npm run documentarian`): a consumer-group member over news.documentaries.v1
// that takes each requested documentary through gathering, scripting, narrating and assembling to ready
// (documentarian.ts, make-documentary.ts). Speech comes from the same providers as the narrator's
// (SPEECH_PROVIDER); files go to the audio store the API serves them from (AUDIO_STORE, AUDIO_DIR).
import { audioAddress } from '../audio/audio-address.ts';
import { createAudioStore } from '../audio/config.ts';
import { ClickHouse, clickHouseSettings } from '../runtime/clickhouse/client.ts';
import { loadConfig } from '../runtime/config.ts';
import type { Documentary } from '../runtime/events/types.generated.ts';
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
import { requireOpenAiConfig } from '../intelligence/openai/config.ts';
import { createOpenAiScriptWriter } from '../documentaries/openai-script-writer.ts';
import { checkedScriptWriter, embeddedScriptWriter } from '../documentaries/script-writer.ts';
import { documentarianEnv } from './config.ts';
import { documentarianHandler } from './documentarian.ts';

let logger: Logger | undefined;

async function main({ onStop }: Lifecycle): Promise<void> {
  const config = loadConfig(documentarianEnv);
  logger = createLogger('documentarian', config.LOG_LEVEL);
  const log = logger;
  const metrics = await workerOps('documentarian', config, logger, onStop);
  const store = createAudioStore(config);
  const synthesis = createSynthesizer({
    providers: createSpeechProviders(config, { logger }),
    store,
    concurrency: config.SPEECH_CONCURRENCY,
    metrics,
    logger,
    // One line per provider request: an operator (or a test) can count what was really synthesized.
    onProviderCall: (provider, characters) => log.debug({ provider, characters }, 'speech provider call'),
  });
  onStop(() => synthesis.close());
  // Scripts by the enrichment provider; a model's script is checked, the embedded writer stands behind it.
  const writer =
    config.ENRICHMENT_PROVIDER === 'openai'
      ? createOpenAiScriptWriter({ config: requireOpenAiConfig(config), logger })
      : embeddedScriptWriter;
  const scriptWriter = checkedScriptWriter(writer, logger);
  const clickhouse = await ClickHouse.connect(clickHouseSettings(config), { logger });
  const kafka = createKafka({
    brokers: config.KAFKA_BROKERS,
    clientId: `${config.KAFKA_CLIENT_ID}-documentarian`,
    logger,
  });
  const codec = new EventCodec(createSchemaRegistry(config.SCHEMA_REGISTRY_URL));
  const producer = await EventProducer.connect(kafka, codec);
  onStop(async () => {
    await producer.disconnect();
    await clickhouse.close();
  });

  const runner = new ConsumerRunner<Documentary>({
    metrics,
    kafka,
    codec,
    producer,
    logger,
    groupId: config.DOCUMENTARIAN_GROUP,
    topics: [topicNames.documentaries],
    fromBeginning: config.DOCUMENTARIAN_FROM_BEGINNING,
    partitionsConcurrently: 2,
    // One documentary takes a minute or more: fetch a few events at a time.
    fetch: { maxBytesPerPartition: 64 * 1024, maxBytes: 256 * 1024 },
    batchHandler: documentarianHandler({
      clickhouse,
      producer,
      synthesis,
      scriptWriter,
      store,
      address: (key) => audioAddress(config.API_PUBLIC_URL, key),
      targetLufs: config.DOCUMENTARIAN_TARGET_LUFS,
      candidateLimit: config.DOCUMENTARIAN_CANDIDATES,
      readModelWaitMs: config.DOCUMENTARIAN_READ_MODEL_WAIT_MS,
      logger,
    }),
  });
  onStop(() => runner.stop());
  await runner.start();
  logger.info({ group: config.DOCUMENTARIAN_GROUP }, 'documentarian started');
}

runProcess(main, { logger: () => logger! });
