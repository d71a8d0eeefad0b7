// Pins the patch of KafkaJS's record decoder (patches/kafkajs+2.2.4.patch, applied by `npm ci`): every
// record decodes to what KafkaJS's own decoder made of it (its logic is kept below as the reference),
// while small deltas are added as numbers and headers gathered without a spread per header. Records are
// written by KafkaJS's own record encoder, with deltas and first offsets on both sides of the bounds the
// patch uses numbers within (7 varint bytes, 15 characters), and headers that repeat, are empty, or are
// named after Object.prototype's properties.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';

const require = createRequire(import.meta.url);
type Record = { [name: string]: unknown };
type DecoderLike = { buffer: Buffer; offset: number };
const decoderPath = require.resolve('kafkajs/src/protocol/recordBatch/record/v0/decoder.js');
const patched = require(decoderPath) as (decoder: DecoderLike, context: Record) => Record;
const Decoder = require('kafkajs/src/protocol/decoder.js') as new (buffer: Buffer) => DecoderLike & {
  readInt8(): number;
  readVarLong(): unknown;
  readVarInt(): number;
  readVarIntBytes(): Buffer | null;
  readVarIntArray<T>(reader: (d: unknown) => T): T[];
};
const Long = require('kafkajs/src/utils/long.js') as {
  fromValue(value: unknown): { add(delta: unknown): { toString(): string } };
  fromString(text: string): unknown;
};
const HeaderDecoder = require('kafkajs/src/protocol/recordBatch/header/v0/decoder.js') as (d: unknown) => {
  key: string;
  value: Buffer | null;
};
const recordEncoder = require('kafkajs/src/protocol/recordBatch/record/v0/index.js') as (record: {
  offsetDelta?: number;
  timestampDelta?: unknown;
  key: Buffer | string | null;
  value: Buffer | string | null;
  headers?: Record;
}) => { buffer: Buffer };
const LOG_APPEND_TIME = 1;

/** KafkaJS 2.2.4's record decoder, as it was before the patch. */
function reference(decoder: InstanceType<typeof Decoder>, context: Record): Record {
  const {
    firstOffset,
    firstTimestamp,
    magicByte,
    isControlBatch = false,
    timestampType,
    maxTimestamp,
  } = context;
  const attributes = decoder.readInt8();
  const timestampDelta = decoder.readVarLong();
  const timestamp =
    timestampType === LOG_APPEND_TIME && maxTimestamp
      ? maxTimestamp
      : Long.fromValue(firstTimestamp).add(timestampDelta).toString();
  const offsetDelta = decoder.readVarInt();
  const offset = Long.fromValue(firstOffset).add(offsetDelta).toString();
  const key = decoder.readVarIntBytes();
  const value = decoder.readVarIntBytes();
  const headers = decoder.readVarIntArray(HeaderDecoder).reduce(
    (obj: Record, { key, value }) => ({
      ...obj,
      [key]:
        obj[key] === undefined
          ? value
          : Array.isArray(obj[key])
            ? (obj[key] as unknown[]).concat([value])
            : [obj[key], value],
    }),
    {},
  );
  return {
    magicByte,
    attributes,
    timestamp,
    offset,
    key,
    value,
    headers,
    isControlRecord: isControlBatch,
    batchContext: context,
  };
}

/** The record's bytes after its length, as decodeRecord hands them to the record decoder. */
function recordBody(record: Parameters<typeof recordEncoder>[0]): Buffer {
  const framed = new Decoder(recordEncoder(record).buffer);
  return framed.readVarIntBytes()!;
}

/**
 * A header named after a property of Object.prototype (toString) is gathered with the inherited function
 * (KafkaJS's quirk, kept): the functions are those of the realm each module runs in, so compare names.
 * The headers become [name, value] pairs: an own `constructor` header would otherwise be taken for the
 * objects' constructors by the comparison.
 */
function comparable(record: Record): Record {
  const named = (v: unknown) => (typeof v === 'function' ? `function ${v.name}` : v);
  const headers = Object.entries(record.headers as Record).map(([name, value]) => [
    name,
    Array.isArray(value) ? value.map(named) : named(value),
  ]);
  return { ...record, headers };
}

function both(body: Buffer, context: Record) {
  const a = new Decoder(body);
  const b = new Decoder(body);
  const got = patched(a, context);
  const want = reference(b, context);
  return { got, want, consumed: [a.offset, b.offset] };
}

const deltas = [
  0,
  1,
  -1,
  63,
  -64,
  1_000,
  -86_400_000,
  2 ** 31,
  2 ** 40,
  2 ** 48 - 1,
  -(2 ** 48),
  2 ** 48,
  2 ** 52,
];
const bases = [
  '0',
  '17',
  '1764650000000',
  '999999999999999',
  '-99999999999999',
  '1000000000000000',
  '9007199254740993',
];
const headerSets: Record[] = [
  {},
  { 'event-type': 'news.alert' },
  { a: ['1', '2', '3'], b: 'x' },
  { toString: 'shadow', constructor: ['c1', 'c2'], valueOf: 'v' },
  { empty: '', 'with space': 'ü' },
];

describe("KafkaJS's record decoder, patched", () => {
  it('decodes every record as KafkaJS did, whatever its deltas, bases and headers', () => {
    let cases = 0;
    for (const timestampDelta of deltas)
      for (const base of bases)
        for (const headers of headerSets) {
          const body = recordBody({
            offsetDelta: Math.abs(timestampDelta) % 2 ** 31,
            timestampDelta: Long.fromString(String(timestampDelta)),
            key: cases % 3 === 0 ? null : `key-${cases}`,
            value: cases % 5 === 0 ? null : Buffer.from(`value-${cases}`),
            headers,
          });
          for (const timestampType of [0, LOG_APPEND_TIME]) {
            const context = {
              firstOffset: base,
              firstTimestamp: base,
              maxTimestamp: '1764650009999',
              timestampType,
              magicByte: 2,
              isControlBatch: cases % 7 === 0,
            };
            const { got, want, consumed } = both(body, context);
            expect(comparable(got)).toStrictEqual(comparable(want));
            expect(consumed[0]).toBe(consumed[1]);
            cases++;
          }
        }
    expect(cases).toBe(deltas.length * bases.length * headerSets.length * 2);
  });

  it('keeps a header named __proto__ as an own property, as the object literal did', () => {
    // The encoder's headers object cannot hold such a key as data; write the header array by hand.
    const body = recordBody({ key: 'k', value: 'v', headers: {} });
    // Replace the empty header array (last byte, varint 0) with one header: "__proto__" → "p".
    const header = Buffer.concat([
      Buffer.from([18]),
      Buffer.from('__proto__'),
      Buffer.from([2]),
      Buffer.from('p'),
    ]);
    const withHeader = Buffer.concat([body.subarray(0, body.length - 1), Buffer.from([2]), header]);
    const context = { firstOffset: '5', firstTimestamp: '1764650000000', magicByte: 2 };
    const { got, want } = both(withHeader, context);
    expect(comparable(got)).toStrictEqual(comparable(want));
    const headers = got.headers as Record;
    expect(Object.getPrototypeOf(headers)).toBe(Object.prototype);
    expect(Object.keys(headers)).toEqual(['__proto__']);
  });

  it('is the patched module', () => {
    expect(readFileSync(decoderPath, 'utf8')).toContain('Patched (patches/kafkajs+2.2.4.patch)');
  });
});
