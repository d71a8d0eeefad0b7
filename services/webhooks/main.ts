// `npm run webhooks -- <command>`: the operator's side of webhook delivery.
//   dead-letters [--limit N] [--json]   deliveries that used up the retry schedule, newest first
//   resend <delivery-id>                 send a dead-lettered delivery again: the same payload and the
//                                        same webhook-id, from attempt 1 of the schedule
// The same re-send customers have at POST /api/v1/webhooks/{id}/deliveries/{delivery_id}/resend.
import { parseArgs } from 'node:util';
import { DeliveryLog, resendJob, whyNotResend } from './delivery-log.ts';
import { ClickHouse, clickHouseSettings } from '../runtime/clickhouse/client.ts';
import { infrastructureEnv, loadConfig } from '../runtime/config.ts';
import { createKafka } from '../runtime/kafka/client.ts';
import { EventProducer } from '../runtime/kafka/producer.ts';
import { createSchemaRegistry, EventCodec } from '../runtime/kafka/registry.ts';
import { topicNames } from '../runtime/kafka/topics.ts';
import { runProcess } from '../runtime/lifecycle.ts';
import { createLogger } from '../runtime/logger.ts';

const usage = `usage: npm run webhooks -- <command>
  dead-letters [--limit N] [--json]   dead-lettered deliveries, newest first (default 50)
  resend <delivery-id>                 send a dead-lettered delivery again (same payload, same webhook-id)`;

class UsageError extends Error {}

function commandLine(args: string[]) {
  try {
    const { positionals, values } = parseArgs({
      args,
      allowPositionals: true,
      strict: true,
      options: { limit: { type: 'string' }, json: { type: 'boolean', default: false } },
    });
    const [command, ...rest] = positionals;
    if (command === 'dead-letters' && rest.length === 0) {
      const limit = values.limit === undefined ? 50 : Number(values.limit);
      if (!Number.isInteger(limit) || limit < 1 || limit > 10_000)
        throw new UsageError('--limit: an integer from 1 to 10000');
      return { command, limit, json: values.json } as const;
    }
    if (command === 'resend' && rest.length === 1) return { command, deliveryId: rest[0]! } as const;
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError((error as Error).message);
  }
  throw new UsageError('unknown command');
}

runProcess(async () => {
  let parsed;
  try {
    parsed = commandLine(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n${usage}\n`);
    process.exitCode = 2;
    return;
  }
  const config = loadConfig(infrastructureEnv);
  const logger = createLogger('webhooks-admin', config.LOG_LEVEL === 'info' ? 'warn' : config.LOG_LEVEL);
  const clickhouse = await ClickHouse.connect(clickHouseSettings(config), { createDatabase: false, logger });
  const log = new DeliveryLog(clickhouse);
  try {
    if (parsed.command === 'dead-letters') {
      const dead = await log.deadLetters(parsed.limit);
      if (parsed.json) process.stdout.write(`${JSON.stringify(dead, null, 2)}\n`);
      else if (dead.length === 0) process.stdout.write('no dead-lettered deliveries\n');
      else
        for (const d of dead)
          process.stdout.write(
            `${d.id}  ${d.updated_at}  webhook ${d.webhook_id}  tenant ${d.tenant_id}  ${d.event_type}  ` +
              `${d.attempts} attempts, last: ${d.last_error ?? `HTTP ${d.last_http_status}`}\n`,
          );
      return;
    }
    const delivery = await log.get(null, parsed.deliveryId);
    if (!delivery) {
      process.stderr.write(`no delivery "${parsed.deliveryId}"\n`);
      process.exitCode = 1;
      return;
    }
    const refusal = whyNotResend(delivery);
    if (refusal) {
      process.stderr.write(`${parsed.deliveryId}: ${refusal}\n`);
      process.exitCode = 1;
      return;
    }
    const kafka = createKafka({
      brokers: config.KAFKA_BROKERS,
      clientId: `${config.KAFKA_CLIENT_ID}-webhooks-admin`,
      logger,
    });
    const producer = await EventProducer.connect(
      kafka,
      new EventCodec(createSchemaRegistry(config.SCHEMA_REGISTRY_URL)),
    );
    try {
      const job = resendJob(delivery, Date.now());
      await producer.send(topicNames.webhookDeliveries, [{ key: job.webhook_id, value: job }]);
    } finally {
      await producer.disconnect();
    }
    process.stdout.write(`${parsed.deliveryId}: queued again for webhook ${delivery.webhookId}\n`);
  } finally {
    await clickhouse.close();
  }
});
