// Reads a compacted topic from the beginning up to its current end into a
// map (key -> latest value; a tombstone removes the key). Used by commands
// that need the current state of sources, monitors or webhooks.
import { randomUUID } from 'node:crypto';
import type { Kafka } from 'kafkajs';
import type { EventCodec } from './registry.ts';
import { consumerGroup } from './topics.ts';

export async function readTable<V>(
  kafka: Kafka,
  codec: EventCodec,
  topic: string,
  timeoutMs = 30_000,
): Promise<Map<string, V>> {
  const admin = kafka.admin();
  await admin.connect();
  const ends = new Map((await admin.fetchTopicOffsets(topic)).map((p) => [p.partition, BigInt(p.high)]));
  await admin.disconnect();
  const table = new Map<string, V>();
  const pending = new Set([...ends].filter(([, high]) => high > 0n).map(([p]) => p));
  if (pending.size === 0) return table;

  // A throwaway group that never commits: nothing of it outlives this read.
  const consumer = kafka.consumer({
    groupId: consumerGroup(`table-reader-${randomUUID()}`),
    allowAutoTopicCreation: false,
  });
  await consumer.connect();
  try {
    await consumer.subscribe({ topic, fromBeginning: true });
    let finish!: () => void;
    const done = new Promise<void>((resolve) => (finish = resolve));
    let failure: Error | undefined;
    await consumer.run({
      autoCommit: false,
      eachMessage: async ({ partition, message }) => {
        try {
          const key = message.key?.toString('utf8');
          if (key !== undefined) {
            const value = (await codec.decode(topic, message.value)) as V | null;
            if (value === null) table.delete(key);
            else table.set(key, value);
          }
        } catch (error) {
          failure = error instanceof Error ? error : new Error(`reading ${topic} failed`);
          finish();
        }
        if (BigInt(message.offset) + 1n >= (ends.get(partition) ?? 0n)) {
          pending.delete(partition);
          if (pending.size === 0) finish();
        }
      },
    });
    const timer = setTimeout(() => {
      failure = new Error(`reading ${topic} did not reach its end within ${timeoutMs} ms`);
      finish();
    }, timeoutMs);
    await done;
    clearTimeout(timer);
    if (failure) throw failure;
    return table;
  } finally {
    await consumer.disconnect();
  }
}
