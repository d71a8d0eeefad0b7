// `npm run provision`: makes the stack ready for the services. Idempotent:
// creates missing topics (and fixes drifted topic configs), registers every
// Avro schema under `<topic>-value` with FULL_TRANSITIVE compatibility, and applies
// pending ClickHouse migrations. Fails with a clear message if a schema change
// is incompatible or a migration was edited after it was applied.
import { runProcess } from '../runtime/lifecycle.ts';
import { createLogger, type Logger } from '../runtime/logger.ts';
import { createKafka } from '../runtime/kafka/client.ts';
import { topicCatalog } from '../runtime/kafka/topics.ts';
import { provisionTopics } from '../runtime/kafka/provision-topics.ts';
import { createSchemaRegistry, localTypes, registerSchemas } from '../runtime/kafka/registry.ts';
import { ClickHouse, clickHouseSettings } from '../runtime/clickhouse/client.ts';
import { migrate, readMigrations } from '../runtime/clickhouse/migrations.ts';
import { loadProvisionConfig } from './config.ts';

let logger: Logger | undefined;

runProcess(
  async () => {
    const config = loadProvisionConfig();
    logger = createLogger('provision', config.LOG_LEVEL);
    const catalog = topicCatalog(config.WEBHOOK_RETRY_SCHEDULE);

    if (!config.PROVISION_SKIP.includes('topics')) {
      const kafka = createKafka({ brokers: config.KAFKA_BROKERS, clientId: config.KAFKA_CLIENT_ID, logger });
      const admin = kafka.admin();
      await admin.connect();
      try {
        await provisionTopics(
          admin,
          catalog,
          // Unset TOPIC_REPLICATION_FACTOR: from the cluster's size (replication.ts).
          { partitions: config.TOPIC_PARTITIONS, replicationFactor: config.TOPIC_REPLICATION_FACTOR },
          logger,
        );
      } finally {
        await admin.disconnect();
      }
    }

    if (!config.PROVISION_SKIP.includes('schemas')) {
      const ids = await registerSchemas(
        createSchemaRegistry(config.SCHEMA_REGISTRY_URL),
        localTypes(catalog),
      );
      logger.info({ subjects: ids.size }, 'schemas registered');
    }

    if (!config.PROVISION_SKIP.includes('migrations')) {
      const clickhouse = await ClickHouse.connect(clickHouseSettings(config), { logger });
      try {
        const result = await migrate(clickhouse, readMigrations(), logger);
        logger.info({ applied: result.applied, alreadyApplied: result.skipped.length }, 'migrations done');
      } finally {
        await clickhouse.close();
      }
    }
  },
  { logger: () => logger! },
);
