import { createRequire } from 'node:module';
import { runInThisContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import {
  encodeRecord,
  encodeRecordBatch,
  installRecordEncoding,
  kafkajsModules,
  kafkajsOriginals,
  type RecordInput,
} from './record-encoding.ts';
import { randomText, seeded } from '../../../test/support/random-text.ts';

const require = createRequire(import.meta.url);

// The references ours must equal, loaded before anything is installed.
const kafkajs = kafkajsOriginals();
type ProduceRequest = (args: Record<string, unknown>) => { encode: () => Promise<{ buffer: Buffer }> };
const kafkajsProduceV3 = require(kafkajsModules.produceRequests[0]!) as ProduceRequest;

/**
 * Date.now stands still (records without a timestamp are stamped with it), both here and in KafkaJS,
 * which Node loads outside the test's context (its own Date).
 */
function freezeDateNow(now: number): () => void {
  const dates = [Date, runInThisContext('Date') as DateConstructor];
  const saved = dates.map((d) => d.now);
  for (const d of dates) d.now = () => now;
  return () => dates.forEach((d, i) => (d.now = saved[i]!));
}

function randomBytesField(random: () => number, max: number): string | Buffer | null | undefined {
  const pick = random();
  if (pick < 0.1) return null;
  if (pick < 0.15) return undefined;
  if (pick < 0.2) return '';
  if (pick < 0.25) return Buffer.alloc(0);
  const text = randomText(random, max);
  return pick < 0.6 ? text : Buffer.from(text);
}

function randomRecord(random: () => number, i: number): RecordInput {
  const headers: Record<string, unknown> = {};
  const count = random() < 0.4 ? 0 : Math.floor(random() * 5);
  for (let h = 0; h < count; h++) {
    const value = () => (random() < 0.5 ? randomText(random, 40) : Buffer.from(randomText(random, 40)));
    headers[randomText(random, 12)] = random() < 0.2 ? [value(), value()] : value();
  }
  const record: RecordInput = {
    key: randomBytesField(random, 60),
    value: randomBytesField(random, random() < 0.05 ? 40_000 : 2_000),
    offsetDelta: i,
    timestampDelta: Math.floor((random() - 0.2) * 10 ** Math.floor(random() * 14)),
  };
  if (count > 0 || random() < 0.5) record.headers = headers;
  return record;
}

const edgeRecords: RecordInput[] = [
  {},
  { key: null, value: null },
  { key: '', value: '', headers: {} },
  { key: Buffer.alloc(0), value: Buffer.alloc(0), headers: { '': '' } },
  { key: 'k', value: 'v', headers: { a: [] } },
  { key: 'ü€😀', value: 'naïve 😀 \ud800 text', headers: { ключ: 'значение', x: Buffer.from([0, 255]) } },
  { key: 'big', value: Buffer.alloc(300_000, 7), offsetDelta: 63, timestampDelta: 64 },
  { key: 'x'.repeat(127), value: 'y'.repeat(128), offsetDelta: 8191, timestampDelta: -1 },
  { key: 'ts', value: 'v', timestampDelta: 2 ** 40 + 3, offsetDelta: 1_000_000 },
  { key: 'neg', value: 'v', timestampDelta: -(2 ** 45), offsetDelta: 0 },
  { key: 'many', value: 'v', headers: { a: ['1', '2', Buffer.from('3')], b: 'x', c: Buffer.alloc(200, 1) } },
];

describe('encodeRecord', () => {
  it('writes what KafkaJS writes for edge cases', () => {
    for (const record of edgeRecords)
      expect(encodeRecord(record).buffer.equals(kafkajs.Record(record).buffer), JSON.stringify(record)).toBe(
        true,
      );
  });

  it('writes what KafkaJS writes for varied records', () => {
    const random = seeded(18);
    for (let i = 0; i < 2_000; i++) {
      const record = randomRecord(random, i);
      const ours = encodeRecord(record);
      const theirs = kafkajs.Record(record);
      expect(ours.size()).toBe(theirs.size());
      expect(ours.buffer.equals(theirs.buffer)).toBe(true);
    }
  });

  it("leaves what it does not expect to KafkaJS's encoder, which throws alike", () => {
    for (const odd of [{ value: 12 }, { key: 'k', headers: { h: null } }, { timestampDelta: 1.5 }]) {
      expect(() => kafkajs.Record(odd as RecordInput)).toThrow();
      expect(() => encodeRecord(odd as RecordInput)).toThrow();
    }
    const fallback = { key: 'k', value: 'v', timestampDelta: 2 ** 60 };
    expect(encodeRecord(fallback).buffer.equals(kafkajs.Record(fallback).buffer)).toBe(true);
  });
});

describe('encodeRecordBatch', () => {
  it('writes what KafkaJS writes', async () => {
    const random = seeded(7);
    for (let batch = 0; batch < 40; batch++) {
      const inputs = Array.from({ length: 1 + Math.floor(random() * 60) }, (_, i) => randomRecord(random, i));
      const args = {
        firstTimestamp: 1_764_000_000_000 + batch,
        maxTimestamp: String(1_764_000_000_500 + batch),
        producerId: batch % 2 ? 4_000 + batch : kafkajs.Long.fromValue(-1),
        producerEpoch: batch % 3,
        firstSequence: batch * 1_000,
        transactional: batch % 5 === 0,
        lastOffsetDelta: inputs.length - 1,
        partitionLeaderEpoch: batch % 4,
      };
      const ours = await encodeRecordBatch({ ...args, records: inputs.map(encodeRecord) });
      const theirs = await kafkajs.RecordBatch({ ...args, records: inputs.map(kafkajs.Record) });
      expect(ours.size()).toBe(theirs.size());
      expect(ours.buffer.equals(theirs.buffer)).toBe(true);
    }
  });
});

describe('installRecordEncoding', () => {
  it('finds the KafkaJS modules it replaces (if this fails, KafkaJS moved them: check record-encoding.ts)', () => {
    for (const id of [
      kafkajsModules.record,
      kafkajsModules.recordBatch,
      kafkajsModules.encoder,
      kafkajsModules.long,
      kafkajsModules.compression,
      ...kafkajsModules.produceRequests,
    ])
      expect(() => require.resolve(id), id).not.toThrow();
  });

  it('makes the produce requests (v3 to v7) write the same bytes through its encoders', async () => {
    const random = seeded(99);
    const topicData = (timestamps: boolean) =>
      [0, 1].map((t) => ({
        topic: `news.topic-${t}`,
        partitions: [0, 3].map((partition) => ({
          partition,
          firstSequence: 10 * partition,
          messages: Array.from({ length: 25 }, (_, i) => ({
            ...randomRecord(random, i),
            ...(timestamps && i % 3 !== 0 ? { timestamp: String(1_764_000_000_000 + (i % 7) * 13) } : {}),
          })),
        })),
      }));
    const cases = [
      { topicData: topicData(true), producerId: kafkajs.Long.fromValue(12), producerEpoch: 1 },
      { topicData: topicData(false), producerId: 77, producerEpoch: 0 },
      { topicData: topicData(false), transactionalId: 'tx-ü' },
      { topicData: topicData(false), compression: 1 }, // gzip: KafkaJS's own encoding
      { topicData: [{ topic: 'empty', partitions: [] }] },
    ];
    const encode = async (produce: ProduceRequest, args: Record<string, unknown>) => {
      const thaw = freezeDateNow(1_764_000_000_321);
      try {
        return (await produce({ acks: -1, timeout: 30_000, ...args }).encode()).buffer;
      } finally {
        thaw();
      }
    };
    const before = await Promise.all(cases.map((args) => encode(kafkajsProduceV3, args)));

    installRecordEncoding();
    installRecordEncoding(); // idempotent
    expect(require(kafkajsModules.record)).toBe(encodeRecord);
    const produceV3 = require(kafkajsModules.produceRequests[0]!) as ProduceRequest;
    expect(produceV3).not.toBe(kafkajsProduceV3); // replaced
    for (const [i, args] of cases.entries()) {
      const after = await encode(produceV3, args);
      if (args.compression) continue; // gzip output carries no fixed bytes to compare
      expect(after.equals(before[i]!), `case ${i}`).toBe(true);
    }
    const produceV7 = require(kafkajsModules.produceRequests[4]!) as (args: Record<string, unknown>) => {
      apiVersion: number;
      encode: () => Promise<{ buffer: Buffer }>;
    };
    const v7 = produceV7({ acks: -1, timeout: 30_000, ...cases[1] });
    expect(v7.apiVersion).toBe(7);
    const thaw = freezeDateNow(1_764_000_000_321);
    try {
      expect((await v7.encode()).buffer.equals(before[1]!)).toBe(true);
    } finally {
      thaw();
    }
  });
});
