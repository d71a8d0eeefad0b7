// With a *_FROM_BEGINNING=false setting, a group that never committed a partition starts it at the end.
// KafkaJS would look the end up at its first fetch, some time after the group was joined, so a record
// appended in between (by a test that waited for the start) could be skipped. Committing the end offsets
// before the real consumers start fixes the starting point at the moment the process started.
//
// (KafkaJS's admin.setOffsets does the same but costs a full fetch wait, five seconds, per topic.)
import type { Admin, Kafka } from 'kafkajs';
import type { Logger } from '../logger.ts';
import { consumerGroup } from './topics.ts';

/** `groupId` as the consumer runner is given it: the namespace (TOPIC_PREFIX) is added here, as there. */
export async function startAtEndIfNew(
  kafka: Kafka,
  admin: Admin,
  groupId: string,
  topics: readonly string[],
  logger: Logger,
): Promise<void> {
  groupId = consumerGroup(groupId);
  const committed = await admin.fetchOffsets({ groupId, topics: [...topics] });
  const ends: { topic: string; partition: number; offset: string }[] = [];
  for (const { topic, partitions } of committed) {
    const fresh = new Set(partitions.filter((p) => Number(p.offset) < 0).map((p) => p.partition));
    if (fresh.size === 0) continue;
    for (const p of await admin.fetchTopicOffsets(topic)) {
      if (fresh.has(p.partition)) ends.push({ topic, partition: p.partition, offset: p.high });
    }
  }
  if (ends.length === 0) return;

  // Offsets are committed by a member of the group: join briefly, fetch nothing, commit, leave.
  const consumer = kafka.consumer({ groupId, allowAutoTopicCreation: false, maxWaitTimeInMs: 100 });
  await consumer.connect();
  try {
    const { state } = await consumer.describeGroup();
    if (state !== 'Empty' && state !== 'Dead') {
      // Another instance is running the group: its commits decide, as they should.
      logger.warn({ groupId, state }, 'group already running; not setting its start offsets');
      return;
    }
    await consumer.subscribe({ topics: [...topics] });
    await consumer.run({ autoCommit: false, eachBatchAutoResolve: false, eachBatch: async () => undefined });
    consumer.pause(topics.map((topic) => ({ topic })));
    await consumer.commitOffsets(ends);
  } finally {
    await consumer.disconnect();
  }
}
