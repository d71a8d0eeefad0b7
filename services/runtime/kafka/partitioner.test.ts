import { createRequire } from 'node:module';
import kafkajs, { type PartitionerArgs } from 'kafkajs';
import { describe, expect, it } from 'vitest';
import { DefaultPartitioner, murmur2, murmur2OfKey } from './partitioner.ts';
import { randomText, seeded } from '../../../test/support/random-text.ts';

// KafkaJS's own murmur2 (Long arithmetic), the reference ours must agree with.
const kafkajsMurmur2 = createRequire(import.meta.url)(
  'kafkajs/src/producer/partitioners/default/murmur2.js',
) as (key: Buffer | string) => number;

describe('murmur2', () => {
  it('gives known values', () => {
    // Pinned values, so that ours and KafkaJS's cannot drift together.
    expect(murmur2OfKey('21')).toBe(-973932308);
    expect(murmur2OfKey('foobar')).toBe(-790332482);
    expect(murmur2OfKey('a-little-bit-long-string')).toBe(-985981536);
    expect(murmur2OfKey('a-little-bit-longer-string')).toBe(-1486304829);
    expect(murmur2OfKey('lkjh234lh9fiuh90y23oiuhsafujhadof229phr9h19h89h8')).toBe(-58897971);
    expect(murmur2(Buffer.from('bar'))).toBe(kafkajsMurmur2('bar'));
  });

  it('agrees with KafkaJS on every key, strings of any script and buffers of any length', () => {
    const random = seeded(18);
    for (let n = 0; n < 5_000; n++) {
      const text = randomText(random, 90);
      expect(murmur2OfKey(text), JSON.stringify(text)).toBe(kafkajsMurmur2(text));
      const bytes = Buffer.from(Array.from({ length: n % 70 }, () => Math.floor(random() * 256)));
      expect(murmur2OfKey(bytes)).toBe(kafkajsMurmur2(bytes));
    }
    const long = 'x'.repeat(5_000) + 'é'.repeat(3_000); // longer than the scratch buffer
    expect(murmur2OfKey(long)).toBe(kafkajsMurmur2(long));
    expect(murmur2OfKey('')).toBe(kafkajsMurmur2(''));
  });
});

describe('DefaultPartitioner', () => {
  const metadata = (count: number, leaderless: number[] = []) =>
    Array.from({ length: count }, (_, partitionId) => ({
      partitionId,
      leader: leaderless.includes(partitionId) ? -1 : 1,
      replicas: [1],
      isr: [1],
      partitionErrorCode: 0,
    })) as unknown as PartitionerArgs['partitionMetadata'];

  it('puts every keyed message on the partition KafkaJS would', () => {
    const ours = DefaultPartitioner();
    const theirs = kafkajs.Partitioners.DefaultPartitioner();
    const random = seeded(3);
    for (const count of [1, 3, 6, 12, 50]) {
      for (let n = 0; n < 500; n++) {
        const key = n % 2 ? randomText(random, 90) : Buffer.from(randomText(random, 90));
        const args = { topic: 't', partitionMetadata: metadata(count), message: { key, value: null } };
        expect(ours(args)).toBe(theirs(args));
      }
    }
  });

  it('keeps an explicit partition, and spreads keyless messages over the partitions with a leader', () => {
    const partition = DefaultPartitioner();
    expect(
      partition({
        topic: 't',
        partitionMetadata: metadata(6),
        message: { key: 'k', partition: 4, value: null },
      }),
    ).toBe(4);
    const chosen = new Set<number>();
    for (let n = 0; n < 60; n++)
      chosen.add(partition({ topic: 't', partitionMetadata: metadata(6, [1, 4]), message: { value: null } }));
    expect([...chosen].sort()).toEqual([0, 2, 3, 5]);
    // With no leader anywhere it still names a partition, round robin over all of them.
    const any = new Set<number>();
    for (let n = 0; n < 30; n++)
      any.add(partition({ topic: 'u', partitionMetadata: metadata(3, [0, 1, 2]), message: { value: null } }));
    expect([...any].sort()).toEqual([0, 1, 2]);
  });
});
