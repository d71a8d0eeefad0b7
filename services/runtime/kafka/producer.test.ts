// Every producer is idempotent with acks=all (issue 19): the factory's settings, KafkaJS's refusal of
// any other acks on such a producer, and EventProducer's sends.
import kafkajs, { type Kafka, type ProducerConfig, type ProducerRecord, type ProducerBatch } from 'kafkajs';
import { describe, expect, it } from 'vitest';
import { EventProducer, idempotentProducer, maxRequestBytes, producerSettings } from './producer.ts';
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

  it('splits what it appends into requests of at most maxRequestBytes, in order', async () => {
    const { kafka, requests } = recordingKafka();
    const producer = await EventProducer.connect(kafka, {} as EventCodec);
    // 40 articles of 150 kB: one request of 6 MB had been refused whole by the broker.
    const records = Array.from({ length: 40 }, (_, i) => ({
      topic: i % 2 ? 'a' : 'b',
      key: `k${i}`,
      value: Buffer.alloc(150_000, i),
      headers: {},
    }));
    await producer.sendRawBatch(records);
    const sent = (requests as ProducerBatch[]).map((r) =>
      r.topicMessages!.flatMap((t) => t.messages.map((m) => ({ topic: t.topic, key: m.key }))),
    );
    expect(sent.length).toBeGreaterThan(1);
    for (const request of sent) expect(request.length * 150_000).toBeLessThanOrEqual(maxRequestBytes);
    for (const topic of ['a', 'b'])
      expect(sent.flat().filter((m) => m.topic === topic)).toEqual(
        records.filter((r) => r.topic === topic).map((r) => ({ topic, key: r.key })),
      );
    // A record larger than a request goes alone.
    requests.length = 0;
    await producer.sendRaw('t', [
      { key: 'small', value: Buffer.alloc(10), headers: {} },
      { key: 'big', value: Buffer.alloc(maxRequestBytes + 1), headers: {} },
      { key: 'small2', value: Buffer.alloc(10), headers: {} },
    ]);
    expect((requests as ProducerRecord[]).map((r) => r.messages.map((m) => m.key))).toEqual([
      ['small'],
      ['big'],
      ['small2'],
    ]);
  });

  it('sends with a new producer after an answer that breaks the sequence numbers, not after others', async () => {
    const made: { failWith: Error | null; sent: number; disconnected: boolean }[] = [];
    const kafka = {
      producer: () => {
        const state = { failWith: null as Error | null, sent: 0, disconnected: false };
        made.push(state);
        return {
          connect: async () => undefined,
          disconnect: async () => void (state.disconnected = true),
          send: async () => {
            if (state.failWith) throw state.failWith;
            state.sent++;
          },
          sendBatch: async () => undefined,
        };
      },
    } as unknown as Kafka;
    const codec = { encode: async () => Buffer.from('avro') } as unknown as EventCodec;
    const producer = await EventProducer.connect(kafka, codec);
    const protocolError = (type: string) =>
      Object.assign(new Error(`broker says ${type}`), { name: 'KafkaJSProtocolError', type });

    // A retriable error (a leader moving) keeps the producer.
    made[0]!.failWith = protocolError('NOT_LEADER_FOR_PARTITION');
    await expect(producer.sendTo('t', [{ key: 'k', value: {} }])).rejects.toThrow(/NOT_LEADER/);
    expect(made).toHaveLength(1);
    // Out of order, even wrapped as KafkaJS's retrier wraps it: the next send goes through a new one.
    made[0]!.failWith = new Error('gave up', { cause: protocolError('OUT_OF_ORDER_SEQUENCE_NUMBER') });
    await expect(producer.sendTo('t', [{ key: 'k', value: {} }])).rejects.toThrow(/gave up/);
    await producer.sendTo('t', [{ key: 'k', value: {} }]);
    expect(made).toHaveLength(2);
    expect(made[0]!.disconnected).toBe(true);
    expect(made[1]!.sent).toBe(1);
    // So does a batch the broker found too large.
    made[1]!.failWith = protocolError('MESSAGE_TOO_LARGE');
    await expect(producer.sendTo('t', [{ key: 'k', value: {} }])).rejects.toThrow(/MESSAGE_TOO_LARGE/);
    await producer.sendTo('t', [{ key: 'k', value: {} }]);
    expect(made).toHaveLength(3);
    expect(made[2]!.sent).toBe(1);
  });
});
