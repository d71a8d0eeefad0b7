// The projector: a consumer-group member over the topics the read models are
// built from; the batches fetched while an insert is in flight go together as
// the next insert (group commit, group-insert.ts), and a batch's offsets are
// committed only after ClickHouse accepted the insert that carried it (the
// consumer runner's deferred commits). Applies pending migrations
// at start so that it never inserts into a table that does not exist yet.
//
//   tsx services/projector/main.ts                        the live projector
//   tsx services/projector/main.ts rebuild [--drop-old]   rebuild every read model from the topics and
//                                                         switch over (rebuild.ts); --drop-old drops the
//                                                         replaced tables instead of keeping them
import { parseArgs } from 'node:util';
import { ClickHouse, clickHouseSettings } from '../runtime/clickhouse/client.ts';
import { migrate, readMigrations } from '../runtime/clickhouse/migrations.ts';
import { infrastructureEnv, loadConfig } from '../runtime/config.ts';
import { createKafka } from '../runtime/kafka/client.ts';
import { ConsumerRunner } from '../runtime/kafka/consumer.ts';
import { EventProducer } from '../runtime/kafka/producer.ts';
import { createSchemaRegistry, EventCodec } from '../runtime/kafka/registry.ts';
import { runProcess, type Lifecycle } from '../runtime/lifecycle.ts';
import { workerOps } from '../runtime/ops-server.ts';
import { createLogger, type Logger } from '../runtime/logger.ts';
import { projectorEnv } from './config.ts';
import { projectorTypes } from './article-batch.ts';
import { formatDuration } from './progress.ts';
import {
  groupedProjection,
  projectorConcurrency,
  projectorFetch,
  projectorInsertLimits,
} from './projector.ts';
import { rebuild } from './rebuild.ts';
import { projectedTables } from './rows.ts';

const usage = 'usage: tsx services/projector/main.ts [rebuild [--drop-old]]';

let logger: Logger | undefined;

async function projectLive({ onStop }: Lifecycle): Promise<void> {
  const config = loadConfig(projectorEnv);
  logger = createLogger('projector', config.LOG_LEVEL);
  const metrics = await workerOps('projector', config, logger, onStop);
  const clickhouse = await ClickHouse.connect(clickHouseSettings(config), { logger });
  await migrate(clickhouse, readMigrations(), logger);

  const kafka = createKafka({
    brokers: config.KAFKA_BROKERS,
    clientId: `${config.KAFKA_CLIENT_ID}-projector`,
    logger,
  });
  const registry = createSchemaRegistry(config.SCHEMA_REGISTRY_URL);
  const producer = await EventProducer.connect(kafka, new EventCodec(registry));
  const projection = groupedProjection(clickhouse, {
    ...projectorInsertLimits,
    maxRows: config.PROJECTOR_INSERT_MAX_EVENTS,
    maxBytes: config.PROJECTOR_INSERT_MAX_MIB * 1024 * 1024,
  });
  const runner = new ConsumerRunner({
    metrics,
    kafka,
    // The article events' copied fields read as their bytes (article-batch.ts).
    codec: new EventCodec(registry, projectorTypes()),
    producer,
    logger,
    groupId: config.PROJECTOR_GROUP,
    topics: Object.keys(projectedTables),
    fromBeginning: true,
    partitionsConcurrently: projectorConcurrency,
    fetch: projectorFetch,
    handOver: projection.handOver,
    idle: projection.idle,
  });
  onStop(async () => {
    await producer.disconnect();
    await clickhouse.close();
  });
  onStop(() => runner.stop());
  await runner.start();
  logger.info({ group: config.PROJECTOR_GROUP, database: config.CLICKHOUSE_DATABASE }, 'projector started');
}

async function rebuildReadModels({ onStop }: Lifecycle, dropOld: boolean): Promise<void> {
  const config = loadConfig(infrastructureEnv);
  logger = createLogger('projector-rebuild', config.LOG_LEVEL);
  const kafka = createKafka({
    brokers: config.KAFKA_BROKERS,
    clientId: `${config.KAFKA_CLIENT_ID}-projector-rebuild`,
    logger,
  });
  // A stop signal abandons the rebuild: before the switch-over the live tables stay as they were;
  // during the catch-up the error says what the new tables may miss.
  const interrupt = new AbortController();
  onStop(async () => interrupt.abort());
  try {
    const summary = await rebuild({
      kafka,
      codec: new EventCodec(createSchemaRegistry(config.SCHEMA_REGISTRY_URL), projectorTypes()),
      logger,
      connect: (database) => ClickHouse.connect(clickHouseSettings(config, database), { logger }),
      database: config.CLICKHOUSE_DATABASE,
      migrations: readMigrations(),
      dropOld,
      progress: process.stderr,
      signal: interrupt.signal,
    });
    const { replayed, caughtUp, databases } = summary;
    const rate = Math.round(replayed.events / Math.max(replayed.ms / 1_000, 0.001));
    logger.info({ ...summary, eventsPerSecond: rate }, 'rebuild done');
    process.stderr.write(
      `rebuilt ${summary.tables.join(', ')} in ${databases.live}: ${replayed.events.toLocaleString('en-US')} events ` +
        `in ${formatDuration(replayed.ms)} (${rate.toLocaleString('en-US')} events/s), then ` +
        `${caughtUp.events.toLocaleString('en-US')} appended meanwhile; ` +
        (dropOld ? 'the old tables were dropped.\n' : `the old tables are in ${databases.retired}.\n`),
    );
  } catch (error) {
    logger.error({ err: error }, 'rebuild failed');
    process.stderr.write(`rebuild failed: ${(error as Error).message}\n`);
    process.exitCode = 1;
  }
}

/** The command line, or undefined when it is not one this program knows. */
function commandLine(args: string[]): { rebuild: false } | { rebuild: true; dropOld: boolean } | undefined {
  try {
    const { positionals, values } = parseArgs({
      args,
      allowPositionals: true,
      options: { 'drop-old': { type: 'boolean', default: false } },
    });
    if (positionals.length === 0 && !values['drop-old']) return { rebuild: false };
    if (positionals.length === 1 && positionals[0] === 'rebuild')
      return { rebuild: true, dropOld: values['drop-old'] };
  } catch {
    // an unknown option: fall through to the usage line
  }
  return undefined;
}

const command = commandLine(process.argv.slice(2));
if (!command) {
  process.stderr.write(`${usage}\n`);
  process.exitCode = 2;
} else if (command.rebuild) {
  runProcess((lifecycle) => rebuildReadModels(lifecycle, command.dropOld), { logger: () => logger! });
} else {
  runProcess(projectLive, { logger: () => logger! });
}
