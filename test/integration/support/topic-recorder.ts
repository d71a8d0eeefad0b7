// Keeps every event appended to some topics from now on, decoded, for a test to look at. The group's
// offsets are committed at the topics' current ends before it joins, so nothing appended after
// recordTopics() returns can be missed (a new group told "from the end" only fixes its position at its
// first fetch, which may come after the test's first append).
import { randomUUID } from 'node:crypto';
import type { Kafka } from 'kafkajs';
import type { EventCodec } from '../../../services/runtime/kafka/registry.ts';
import { consumerGroup } from '../../../services/runtime/kafka/topics.ts';

export interface RecordedEvent<V> {
  topic: string;
  partition: number;
  offset: string;
  key: string | null;
  value: V;
}

export interface TopicRecorder {
  /** Everything appended since recording began, in arrival order (tombstones left out). */
  readonly events: RecordedEvent<unknown>[];
  /** The events of one topic, typed as the caller knows them. */
  of<V>(topic: string): RecordedEvent<V>[];
  stop(): Promise<void>;
}

/** The current end offset of every partition of `topic`: where a group that starts "now" begins. */
export async function topicEnds(
  kafka: Kafka,
  topic: string,
): Promise<{ partition: number; offset: string }[]> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    return (await admin.fetchTopicOffsets(topic)).map((p) => ({ partition: p.partition, offset: p.high }));
  } finally {
    await admin.disconnect();
  }
}

/**
 * Commits `offsets` for a group that has no members yet: it will start exactly there. `groupId` as a
 * service is given it (its *_GROUP setting): the namespace is added here, as the consumer runner does.
 */
export async function placeGroup(
  kafka: Kafka,
  groupId: string,
  topic: string,
  offsets: { partition: number; offset: string }[],
): Promise<void> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    await admin.setOffsets({ groupId: consumerGroup(groupId), topic, partitions: offsets });
  } finally {
    await admin.disconnect();
  }
}

export async function recordTopics(
  kafka: Kafka,
  codec: EventCodec,
  topics: string[],
): Promise<TopicRecorder> {
  const groupId = `test-recorder-${randomUUID()}`;
  for (const topic of topics) await placeGroup(kafka, groupId, topic, await topicEnds(kafka, topic));
  const events: RecordedEvent<unknown>[] = [];
  const consumer = kafka.consumer({ groupId: consumerGroup(groupId), allowAutoTopicCreation: false });
  await consumer.connect();
  await consumer.subscribe({ topics, fromBeginning: true });
  await consumer.run({
    eachMessage: async ({ topic, partition, message }) => {
      const value = await codec.decode(topic, message.value);
      if (value === null) return;
      events.push({ topic, partition, offset: message.offset, key: message.key?.toString() ?? null, value });
    },
  });
  return {
    events,
    of: <V>(topic: string) => events.filter((e) => e.topic === topic) as RecordedEvent<V>[],
    stop: () => consumer.disconnect(),
  };
}
