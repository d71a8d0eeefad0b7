// Every producer is idempotent with acks=all (issue 19): the factory's settings, KafkaJS's refusal of
// any other acks on such a producer, and EventProducer's sends.
import kafkajs, { type Kafka, type ProducerConfig, type ProducerRecord, type ProducerBatch } from 'kafkajs';
import { describe, expect, it } from 'vitest';
import { EventProducer, idempotentProducer, producerSettings } from './producer.ts';
import type { EventCodec } from './registry.ts';

/** A Kafka whose producers record the config they were made with and the requests they were given. */
function recordingKafka() {
  const configs: ProducerConfig[] = [];
  const requests: (ProducerRecord | ProducerBatch)[] = [];
  const kafka = {
    producer: (config: ProducerConfig) => {
      configs.push(config);
      return {
        connect: async () => undefined,
        disconnect: async () => undefined,
        send: async (record: ProducerRecord) => void requests.push(record),
        sendBatch: async (batch: ProducerBatch) => void requests.push(batch),
      };
    },
  } as unknown as Kafka;
  return { kafka, configs, requests };
}

describe('idempotentProducer', () => {
  it('makes producers idempotent, one request in flight, no topic auto-creation, murmur2 keys', () => {
    const { kafka, configs } = recordingKafka();
    idempotentProducer(kafka);
    expect(configs).toEqual([
      {
        idempotent: true,
        maxInFlightRequests: 1,
        allowAutoTopicCreation: false,
        createPartitioner: producerSettings.createPartitioner,
      },
    ]);
  });

  it('gives a producer that KafkaJS refuses to send with acks other than all (-1)', async () => {
    // No broker is needed: KafkaJS checks acks before it connects.
    const kafka = new kafkajs.Kafka({ brokers: ['127.0.0.1:1'], logLevel: kafkajs.logLevel.NOTHING });
    const producer = idempotentProducer(kafka);
    for (const acks of [0, 1])
      await expect(producer.send({ topic: 't', acks, messages: [{ value: 'x' }] })).rejects.toThrow(
        /Not requiring ack for all messages/,
      );
    await expect(producer.send({ topic: 't', acks: -1, messages: [{ value: 'x' }] })).rejects.not.toThrow(
      /Not requiring ack for all messages/,
    );
  });
});

describe('EventProducer', () => {
  it('is made by the factory and sends every request with acks=all', async () => {
    const { kafka, configs, requests } = recordingKafka();
    const codec = { encode: async () => Buffer.from('avro') } as unknown as EventCodec;
    const producer = await EventProducer.connect(kafka, codec);
    await producer.sendTo('t', [{ key: 'k', value: { a: 1 } }]);
    await producer.sendRaw('t.dlq', [{ key: 'k', value: null, headers: {} }]);
    await producer.sendRawBatch([{ topic: 't', key: 'k', value: Buffer.from('v'), headers: {} }]);
    expect(configs).toHaveLength(1);
    expect(configs[0]).toMatchObject({ idempotent: true, maxInFlightRequests: 1 });
    expect(requests.map((r) => r.acks)).toEqual([-1, -1, -1]);
  });
});
