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

export class EventProducer {
  private constructor(
    private readonly producer: Producer,
    private readonly codec: EventCodec,
  ) {}

  static async connect(kafka: Kafka, codec: EventCodec): Promise<EventProducer> {
    const producer = idempotentProducer(kafka);
    await producer.connect();
    return new EventProducer(producer, codec);
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
    await this.producer.send({ topic, acks: -1, compression: CompressionTypes.None, messages });
  }

  /** Appends raw bytes unchanged (dead-letter topics keep the original message). */
  async sendRaw(
    topic: string,
    messages: { key: Buffer | string | null; value: Buffer | null; headers: IHeaders }[],
  ) {
    await this.producer.send({ topic, acks: -1, messages });
  }

  /** Appends already-encoded records to several topics in one request, in order per topic. */
  async sendRawBatch(records: readonly RawRecord[]): Promise<void> {
    const byTopic = new Map<string, KafkaMessage[]>();
    for (const { topic, key, value, headers } of records) {
      const messages = byTopic.get(topic) ?? [];
      messages.push(kafkaMessage(key, value, headers));
      byTopic.set(topic, messages);
    }
    await this.producer.sendBatch({
      acks: -1,
      compression: CompressionTypes.None,
      topicMessages: [...byTopic].map(([topic, messages]) => ({ topic, messages })),
    });
  }

  async disconnect(): Promise<void> {
    await this.producer.disconnect();
  }
}
