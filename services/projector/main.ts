// The projector: a consumer-group member over the topics the read models are
// built from; each fetched batch becomes one ClickHouse insert, and its offsets
// are committed only after ClickHouse accepted it. Applies pending migrations
// at start so that it never inserts into a table that does not exist yet.
import { ClickHouse } from '../runtime/clickhouse/client.ts';
import { migrate, readMigrations } from '../runtime/clickhouse/migrations.ts';
import { infrastructureEnv, loadConfig, text } from '../runtime/config.ts';
import { createKafka } from '../runtime/kafka/client.ts';
import { ConsumerRunner } from '../runtime/kafka/consumer.ts';
import { EventProducer } from '../runtime/kafka/producer.ts';
import { createSchemaRegistry, EventCodec } from '../runtime/kafka/registry.ts';
import { runProcess } from '../runtime/lifecycle.ts';
import { createLogger, type Logger } from '../runtime/logger.ts';
import { projectBatch } from './projector.ts';
import { projectedTables } from './rows.ts';

let logger: Logger | undefined;

runProcess(
  async ({ onStop }) => {
    const config = loadConfig({ ...infrastructureEnv, PROJECTOR_GROUP: text('projector') });
    logger = createLogger('projector', config.LOG_LEVEL);
    const clickhouse = await ClickHouse.connect({
      url: config.CLICKHOUSE_URL,
      user: config.CLICKHOUSE_USER,
      password: config.CLICKHOUSE_PASSWORD,
      database: config.CLICKHOUSE_DATABASE,
    });
    await migrate(clickhouse, readMigrations(), logger);

    const kafka = createKafka({
      brokers: config.KAFKA_BROKERS,
      clientId: `${config.KAFKA_CLIENT_ID}-projector`,
      logger,
    });
    const codec = new EventCodec(createSchemaRegistry(config.SCHEMA_REGISTRY_URL));
    const producer = await EventProducer.connect(kafka, codec);
    const runner = new ConsumerRunner({
      kafka,
      codec,
      producer,
      logger,
      groupId: config.PROJECTOR_GROUP,
      topics: Object.keys(projectedTables),
      fromBeginning: true,
      partitionsConcurrently: 3,
      batchHandler: async (events) => void (await projectBatch(clickhouse, events)),
    });
    onStop(async () => {
      await producer.disconnect();
      await clickhouse.close();
    });
    onStop(() => runner.stop());
    await runner.start();
    logger.info({ group: config.PROJECTOR_GROUP, database: config.CLICKHOUSE_DATABASE }, 'projector started');
  },
  { logger: () => logger! },
);
