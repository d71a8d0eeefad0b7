// The one way events enter Kafka: idempotent, acks=all, Avro through the
// registry. Keys are the entity id as a string, so every event of one entity lands on one partition, in
// order (docs/architecture.md, "Topics").
//
// Every KafkaJS producer of the code base (EventProducer's, and the raw ones of tests and benchmarks) is
// made by idempotentProducer() below; test/architecture/producers.test.ts fails on a `.producer(` call
// anywhere else. Idempotence is what makes acks=all hold: KafkaJS refuses any other acks on an
// idempotent producer, so a write is acknowledged only once every in-sync replica has it (at least
// min.insync.replicas of them, replication.ts), and a retry after a lost answer writes nothing twice.
import kafkajs, { type IHeaders, type Kafka, type Producer, type ProducerConfig } from 'kafkajs';
import type { EventsByTopic } from '../events/types.generated.ts';
import type { RawRecord } from './append-batcher.ts';
import { DefaultPartitioner } from './partitioner.ts';
import type { EventCodec } from './registry.ts';

const { CompressionTypes } = kafkajs;

export interface OutgoingEvent<V> {
  key: string;
  /** null writes a tombstone (deletes the key from a compacted topic). */
  value: V | null;
  headers?: IHeaders;
}

type KafkaMessage = ReturnType<typeof kafkaMessage>;

/**
 * A message for KafkaJS, with the two fields KafkaJS adds itself already there. It encodes each message
 * from a copy, `{ ...message, offsetDelta, timestampDelta }`, and V8 builds a spread that adds keys the
 * source lacks several times slower than one that only overwrites them: with the keys present, KafkaJS
 * encodes a record of 1 kB in about 40% less time (its own values replace these zeros).
 */
function kafkaMessage(key: string | null, value: Buffer | null, headers: IHeaders | undefined) {
  return { key, value, headers, offsetDelta: 0, timestampDelta: 0 };
}

/**
 * The settings every producer of ours is made with. Exported for the test that pins them; make
 * producers with idempotentProducer().
 */
export const producerSettings = {
  // Named explicitly: the murmur2 partitioner Java clients use, so a key lands
  // on the same partition whoever produces it (KafkaJS's DefaultPartitioner, cheaper: partitioner.ts).
  createPartitioner: DefaultPartitioner,
  // Exactly once per partition across retries; acks=all follows (KafkaJS rejects acks other than -1).
  idempotent: true,
  // Idempotence in KafkaJS requires one in-flight request per connection to keep order.
  maxInFlightRequests: 1,
  // Topics are provisioned; a typo must fail, not create a topic with the broker's defaults.
  allowAutoTopicCreation: false,
} as const satisfies ProducerConfig;

/** A KafkaJS producer, idempotent with acks=all: the only place the code base calls `kafka.producer(`. */
export function idempotentProducer(kafka: Kafka): Producer {
  return kafka.producer({ ...producerSettings });
}

/**
 * The most bytes (keys and values) one produce request carries; more is split into requests sent one
 * after another, so order per key holds. The broker refuses a record batch over its message.max.bytes
 * (1 MiB by default), and a partition's batch is at most one request's records: a poll of a feed of
 * large articles (40 of 150 KB) had gone as one request and been refused whole.
 */
export const maxRequestBytes = 512 * 1024;

/**
 * Broker answers after which an idempotent producer's sequence numbers no longer match the broker's.
 * KafkaJS takes back a failed request's sequence numbers for every partition in it, even those the
 * broker wrote: after one refused batch beside accepted ones, every later write to those partitions was
 * refused as out of order, for every source of a poller, until the process restarted. A producer that
 * meets one is replaced by a new one (a new producer id, sequences from 0).
 */
const sequenceBreaking = new Set([
  'OUT_OF_ORDER_SEQUENCE_NUMBER',
  'DUPLICATE_SEQUENCE_NUMBER',
  'UNKNOWN_PRODUCER_ID',
  'INVALID_PRODUCER_EPOCH',
  'MESSAGE_TOO_LARGE',
  'RECORD_LIST_TOO_LARGE',
  'INVALID_RECORD',
  'CORRUPT_MESSAGE',
]);

/** The protocol error type of a send's failure, looked for along the causes KafkaJS wraps it in. */
function protocolErrorType(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && typeof current === 'object' && current !== null; depth++) {
    const type = (current as { type?: unknown }).type;
    if (typeof type === 'string') return type;
    current =
      (current as { cause?: unknown; originalError?: unknown }).cause ??
      (current as { originalError?: unknown }).originalError;
  }
  return undefined;
}

const sizeOf = (message: { key: string | Buffer | null; value: Buffer | null }) =>
  (message.value?.length ?? 0) +
  (message.key === null
    ? 0
    : typeof message.key === 'string'
      ? Buffer.byteLength(message.key)
      : message.key.length) +
  70; // a record's own framing and headers, about

/** `items` in runs of at most `maxRequestBytes` (a single larger item goes alone). */
function byRequest<T>(items: readonly T[], size: (item: T) => number): T[][] {
  const runs: T[][] = [];
  let run: T[] = [];
  let bytes = 0;
  for (const item of items) {
    const itemBytes = size(item);
    if (run.length > 0 && bytes + itemBytes > maxRequestBytes) {
      runs.push(run);
      run = [];
      bytes = 0;
    }
    run.push(item);
    bytes += itemBytes;
  }
  if (run.length > 0) runs.push(run);
  return runs;
}

export class EventProducer {
  /** The producer sends go through; null after one broke, until the next send connects a new one. */
  private producer: Producer | null;
  private connecting: Promise<Producer> | null = null;

  private constructor(
    private readonly kafka: Kafka,
    producer: Producer,
    private readonly codec: EventCodec,
  ) {
    this.producer = producer;
  }

  static async connect(kafka: Kafka, codec: EventCodec): Promise<EventProducer> {
    const producer = idempotentProducer(kafka);
    await producer.connect();
    return new EventProducer(kafka, producer, codec);
  }

  /** Appends events to one of our primary topics, typed by the topic's schema. */
  async send<T extends keyof EventsByTopic>(
    topic: T,
    events: readonly OutgoingEvent<EventsByTopic[T]>[],
  ): Promise<void> {
    await this.sendTo(topic, events);
  }

  /**
   * Appends events to any catalogued topic that has a schema (retry topics
   * share the schema of their primary topic, so they are not in EventsByTopic).
   */
  async sendTo(topic: string, events: readonly OutgoingEvent<unknown>[]): Promise<void> {
    if (events.length === 0) return;
    const messages = await Promise.all(
      events.map(async (e) =>
        kafkaMessage(e.key, e.value === null ? null : await this.codec.encode(topic, e.value), e.headers),
      ),
    );
    for (const run of byRequest(messages, sizeOf)) {
      await this.using((p) => p.send({ topic, acks: -1, compression: CompressionTypes.None, messages: run }));
    }
  }

  /** Appends raw bytes unchanged (dead-letter topics keep the original message). */
  async sendRaw(
    topic: string,
    messages: { key: Buffer | string | null; value: Buffer | null; headers: IHeaders }[],
  ) {
    for (const run of byRequest(messages, sizeOf)) {
      await this.using((p) => p.send({ topic, acks: -1, messages: run }));
    }
  }

  /** Appends already-encoded records to several topics in one request, in order per topic. */
  async sendRawBatch(records: readonly RawRecord[]): Promise<void> {
    for (const run of byRequest(records, sizeOf)) {
      const byTopic = new Map<string, KafkaMessage[]>();
      for (const { topic, key, value, headers } of run) {
        const messages = byTopic.get(topic) ?? [];
        messages.push(kafkaMessage(key, value, headers));
        byTopic.set(topic, messages);
      }
      await this.using((p) =>
        p.sendBatch({
          acks: -1,
          compression: CompressionTypes.None,
          topicMessages: [...byTopic].map(([topic, messages]) => ({ topic, messages })),
        }),
      );
    }
  }

  async disconnect(): Promise<void> {
    const producer = this.producer ?? (await this.connecting?.catch(() => null));
    await producer?.disconnect();
  }

  /** Runs a send; after an answer that breaks the producer's sequence numbers, the next send gets a new one. */
  private async using<T>(send: (producer: Producer) => Promise<T>): Promise<T> {
    const producer = this.producer ?? (await this.reconnect());
    try {
      return await send(producer);
    } catch (error) {
      if (this.producer === producer && sequenceBreaking.has(protocolErrorType(error) ?? '')) {
        this.producer = null;
        void producer.disconnect().catch(() => undefined);
      }
      throw error;
    }
  }

  /** A new producer (a new producer id, sequences from 0); a failed connect is tried again by the next send. */
  private reconnect(): Promise<Producer> {
    this.connecting ??= this.connectNew().finally(() => {
      this.connecting = null;
    });
    return this.connecting;
  }

  private async connectNew(): Promise<Producer> {
    const producer = idempotentProducer(this.kafka);
    await producer.connect();
    this.producer = producer;
    return producer;
  }
}
