// The partitioner every producer of ours uses: KafkaJS's DefaultPartitioner (the murmur2 of the Java
// clients, so a key lands on the same partition whoever produces it), same choices, at a fraction of
// its cost. KafkaJS computes murmur2 with a 64-bit Long object per step (several allocations per byte
// group) and filters the partition list on every message; a busy poller spent about 3% of its CPU
// there. Here the same arithmetic on 32-bit integers (Math.imul), the key's bytes written into a
// reused buffer, and the available partitions looked up only for a message without a key.
import { randomBytes } from 'node:crypto';
import type { ICustomPartitioner, PartitionerArgs } from 'kafkajs';

const seed = 0x9747b28c;
const m = 0x5bd1e995;

/** Murmur2 of the bytes, as org.apache.kafka.common.utils.Utils.murmur2 (a signed 32-bit integer). */
export function murmur2(data: Uint8Array, length = data.length): number {
  let h = seed ^ length;
  const length4 = length >>> 2;
  for (let i = 0; i < length4; i++) {
    const i4 = i * 4;
    let k = data[i4]! | (data[i4 + 1]! << 8) | (data[i4 + 2]! << 16) | (data[i4 + 3]! << 24);
    k = Math.imul(k, m);
    k ^= k >>> 24;
    k = Math.imul(k, m);
    h = Math.imul(h, m) ^ k;
  }
  // The last one to three bytes, as the Java switch that falls through its cases.
  const tail = length & ~3;
  const left = length & 3;
  if (left === 3) h ^= data[tail + 2]! << 16;
  if (left >= 2) h ^= data[tail + 1]! << 8;
  if (left >= 1) {
    h ^= data[tail]!;
    h = Math.imul(h, m);
  }
  h ^= h >>> 13;
  h = Math.imul(h, m);
  h ^= h >>> 15;
  return h | 0;
}

let scratch = Buffer.allocUnsafe(1024);

/** Murmur2 of a key as KafkaJS hashes it: a Buffer as it is, anything else as the UTF-8 of String(key). */
export function murmur2OfKey(key: Buffer | string): number {
  if (Buffer.isBuffer(key)) return murmur2(key);
  const text = String(key);
  // UTF-8 takes at most 3 bytes per UTF-16 unit.
  if (text.length * 3 > scratch.length) scratch = Buffer.allocUnsafe(text.length * 3);
  return murmur2(scratch, scratch.write(text, 0, 'utf8'));
}

const toPositive = (x: number) => x & 0x7fffffff;

/** KafkaJS's DefaultPartitioner, to the same partition for every message (partitioner.test.ts). */
export const DefaultPartitioner: ICustomPartitioner = () => {
  const counters = new Map<string, number>();
  return ({ topic, partitionMetadata, message }: PartitionerArgs) => {
    if (message.partition !== null && message.partition !== undefined) return message.partition;
    if (message.key !== null && message.key !== undefined)
      return toPositive(murmur2OfKey(message.key)) % partitionMetadata.length;
    // No key: round robin over the partitions that have a leader, from a random start per topic.
    const counter = (counters.get(topic) ?? randomBytes(4).readUInt32BE(0)) + 1;
    counters.set(topic, counter);
    const available = partitionMetadata.filter((p) => p.leader >= 0);
    if (available.length > 0) return available[toPositive(counter) % available.length]!.partitionId;
    return toPositive(counter) % partitionMetadata.length;
  };
};
