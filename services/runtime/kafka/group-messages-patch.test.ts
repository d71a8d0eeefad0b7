// Pins the patch of KafkaJS's groupMessagesPerPartition (patches/kafkajs+2.2.4.patch, applied by `npm ci`):
// the messages of a send are grouped by the partition the partitioner names, in the order given, each
// pushed onto its partition's array. Unpatched, each message copied its partition's array so far, so a
// send of n messages to one partition allocated n arrays and copied n²/2 elements.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';

const require = createRequire(import.meta.url);
const modulePath = require.resolve('kafkajs/src/producer/groupMessagesPerPartition.js');
type Group = (options: {
  topic: string;
  partitionMetadata: unknown[];
  messages: { key: string }[];
  partitioner: (args: { message: { key: string } }) => number;
}) => Record<string, { key: string }[]>;
const groupMessagesPerPartition = require(modulePath) as Group;

describe("KafkaJS's groupMessagesPerPartition, patched", () => {
  const partitionMetadata = [{ partitionId: 0 }, { partitionId: 1 }, { partitionId: 2 }];
  const partitioner = ({ message }: { message: { key: string } }) => Number(message.key.split('-')[0]);

  it('groups the messages by partition, in the order they were given', () => {
    const messages = ['2-a', '0-b', '2-c', '1-d', '0-e', '2-f'].map((key) => ({ key }));
    const grouped = groupMessagesPerPartition({ topic: 't', partitionMetadata, messages, partitioner });
    expect(Object.keys(grouped)).toEqual(['0', '1', '2']);
    expect(grouped['0']!.map((m) => m.key)).toEqual(['0-b', '0-e']);
    expect(grouped['1']!.map((m) => m.key)).toEqual(['1-d']);
    expect(grouped['2']!.map((m) => m.key)).toEqual(['2-a', '2-c', '2-f']);
    // The messages themselves, not copies.
    expect(grouped['1']![0]).toBe(messages[3]);
  });

  it('returns nothing for a topic without partition metadata', () => {
    const messages = [{ key: '0-a' }];
    expect(groupMessagesPerPartition({ topic: 't', partitionMetadata: [], messages, partitioner })).toEqual(
      {},
    );
  });

  it('pushes onto the partition arrays instead of copying them (the patch is applied)', () => {
    const source = readFileSync(modulePath, 'utf8');
    expect(source).toContain('Patched (patches/kafkajs+2.2.4.patch)');
    expect(source).not.toContain('[...current, message]');
  });
});
