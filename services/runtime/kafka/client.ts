// One place that turns config into a KafkaJS client, with KafkaJS's own logs
// routed into our structured logger.
import kafkajs, {
  type ConsumerConfig,
  type Kafka as KafkaClient,
  type LogEntry,
  type ProducerConfig,
} from 'kafkajs';
import { createRequire } from 'node:module';
import type { Logger } from '../logger.ts';

// KafkaJS is CommonJS: take its values from the default export (Node's ESM loader sees no named ones).
const { Kafka, logLevel } = kafkajs;

type Level = 'error' | 'warn' | 'info' | 'debug';
const levels: Record<number, Level> = {
  [logLevel.ERROR]: 'error',
  [logLevel.WARN]: 'warn',
  [logLevel.INFO]: 'info',
  [logLevel.DEBUG]: 'debug',
};

/**
 * The broker's answers KafkaJS retries on its own (a partition's leader moving, a group coordinator
 * loading, a rebalance), by the message KafkaJS logs them with. KafkaJS logs every error answer at
 * error level before it retries, so a healthy start (topics just created, a broker restarted) printed
 * errors that needed nothing from anyone; they are logged as warnings, and an answer it does not retry
 * is still an error. Which are retried is read from KafkaJS's own table of Kafka's error codes.
 */
export const retriedAnswers: ReadonlySet<string> = new Set(
  (
    createRequire(import.meta.url)('kafkajs/src/protocol/error.js') as {
      errorCodes: { message: string; retriable: boolean }[];
    }
  ).errorCodes
    .filter((code) => code.retriable)
    .map((code) => code.message),
);

/** The level a KafkaJS log entry is written at: its own, but a retried error answer is a warning. */
export function kafkaLogLevel(level: number, entry: { message: string; error?: unknown }): Level {
  const ours = levels[level] ?? 'info';
  if (
    ours === 'error' &&
    entry.message.startsWith('Response ') &&
    typeof entry.error === 'string' &&
    retriedAnswers.has(entry.error)
  )
    return 'warn';
  return ours;
}

/**
 * How old a client's view of the cluster (brokers, partition leaders) may get. KafkaJS's default is five
 * minutes, and it refreshes early only on some errors: when a broker dies, a consumer that fetched the
 * new metadata before the controller had moved the dead broker's partitions (it fences a broker 9 s
 * after its last heartbeat) keeps those partitions on a broker it no longer has a fetcher for, and reads
 * nothing from them until the next refresh (test/integration/three-brokers.test.ts saw it stall for
 * minutes). A metadata request for the client's own topics every 5 s is cheap next to that.
 */
export const metadataMaxAgeMs = 5_000;

export function createKafka(options: { brokers: string[]; clientId: string; logger: Logger }): KafkaClient {
  const log = options.logger.child({ component: 'kafkajs' });
  const kafka = new Kafka({
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
        log[kafkaLogLevel(level, entry)]({ ...rest, namespace: entry.namespace }, message);
      },
  });
  const consumer = kafka.consumer.bind(kafka);
  const producer = kafka.producer.bind(kafka);
  return Object.assign(kafka, {
    consumer: (config: ConsumerConfig) => consumer({ metadataMaxAge: metadataMaxAgeMs, ...config }),
    producer: (config?: ProducerConfig) => producer({ metadataMaxAge: metadataMaxAgeMs, ...config }),
  });
}
