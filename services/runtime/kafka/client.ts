// One place that turns config into a KafkaJS client, with KafkaJS's own logs
// routed into our structured logger.
import kafkajs, { type Kafka as KafkaClient, type LogEntry } from 'kafkajs';
import type { Logger } from '../logger.ts';

// KafkaJS is CommonJS: take its values from the default export (Node's ESM loader sees no named ones).
const { Kafka, logLevel } = kafkajs;

const levels: Record<number, 'error' | 'warn' | 'info' | 'debug'> = {
  [logLevel.ERROR]: 'error',
  [logLevel.WARN]: 'warn',
  [logLevel.INFO]: 'info',
  [logLevel.DEBUG]: 'debug',
};

export function createKafka(options: { brokers: string[]; clientId: string; logger: Logger }): KafkaClient {
  const log = options.logger.child({ component: 'kafkajs' });
  return new Kafka({
    clientId: options.clientId,
    brokers: options.brokers,
    connectionTimeout: 5_000,
    retry: { initialRetryTime: 300, retries: 8 },
    logLevel: logLevel.WARN,
    logCreator:
      () =>
      ({ level, log: entry }: LogEntry) => {
        const { message, ...rest } = entry;
        // We use idempotence for ordering and no-duplicates on retry, not transactions; retries stay
        // bounded so that a send fails (and its caller backs off) instead of hanging while Kafka is down.
        if (message.startsWith('Limiting retries for the idempotent producer')) return;
        log[levels[level] ?? 'info']({ ...rest, namespace: entry.namespace }, message);
      },
  });
}
