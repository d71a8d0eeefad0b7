import avro from 'avsc';
import type { SchemaRegistry } from '@kafkajs/confluent-schema-registry';
import { describe, expect, it } from 'vitest';
import { EventCodec } from './registry.ts';

const type = avro.Type.forSchema({
  type: 'record',
  name: 'Thing',
  fields: [
    { name: 'id', type: 'string' },
    { name: 'count', type: 'long' },
    { name: 'note', type: ['null', 'string'], default: null },
  ],
});
const topic = 'test.things.v1';
const registry = {
  getRegistryIdBySchema: async () => 0x01020304,
  getSchema: async () => type,
} as unknown as SchemaRegistry;
const codec = () => new EventCodec(registry, new Map([[topic, { type, file: 'things.avsc' }]]));

describe('EventCodec.encode', () => {
  it('writes the Confluent wire format: magic byte 0, the schema id, the Avro body', async () => {
    const value = { id: 'a', count: 42, note: 'héllo' };
    const bytes = await codec().encode(topic, value);
    expect([...bytes.subarray(0, 5)]).toEqual([0, 1, 2, 3, 4]);
    expect(bytes.subarray(5).equals(type.toBuffer(value))).toBe(true);
    expect(await codec().decode(topic, bytes)).toEqual(value);
  });

  it('gives every event bytes of its own, larger ones than its scratch buffer too', async () => {
    const events = codec();
    const first = await events.encode(topic, { id: 'first', count: 1, note: null });
    const copy = Buffer.from(first);
    const large = { id: 'large', count: 2, note: 'x'.repeat(200_000) };
    const bytes = await events.encode(topic, large);
    expect(bytes.length).toBe(5 + type.toBuffer(large).length);
    expect(await events.decode(topic, bytes)).toEqual(large);
    const after = await events.encode(topic, { id: 'after', count: 3, note: 'y' });
    expect(first.equals(copy)).toBe(true);
    expect(await events.decode(topic, after)).toEqual({ id: 'after', count: 3, note: 'y' });
  });

  it('refuses an invalid value, naming the field', async () => {
    await expect(codec().encode(topic, { id: 'a', count: 'many' })).rejects.toThrow(/count/);
  });

  it('refuses invalid values after a valid one too (checked as they are written), naming the field', async () => {
    const events = codec();
    await events.encode(topic, { id: 'a', count: 1, note: null });
    const invalid = [
      [{ id: 'a', count: 'many' }, /count/],
      [{ id: 'a', count: 1.5 }, /count/],
      [{ id: 7, count: 1 }, /id/],
      [{ count: 1 }, /id/],
      [{ id: 'a', count: 1, note: 3 }, /note/],
      [null, /invalid test.things.v1 event/],
    ] as const;
    for (const [value, field] of invalid) await expect(events.encode(topic, value)).rejects.toThrow(field);
    expect(await events.decode(topic, await events.encode(topic, { id: 'b', count: 2 }))).toEqual({
      id: 'b',
      count: 2,
      note: null,
    });
  });
});
