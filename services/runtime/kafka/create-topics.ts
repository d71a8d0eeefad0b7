// Creates topics and returns once every partition has a leader that serves it. KafkaJS's
// `waitForLeaders` retries only LEADER_NOT_AVAILABLE; a broker that has just started (or just created the
// topic) can also answer UNKNOWN_TOPIC_OR_PARTITION for a moment, which then failed the caller. And the
// metadata can name a partition's leader before that broker acts as one: a KRaft broker updates the
// metadata it answers with before its partitions take the change, so a read of the offsets just after
// was answered NOT_LEADER_OR_FOLLOWER (seen in CI: "This server is not the leader for that
// topic-partition", from the admin's fetchTopicOffsets a test called next; the admin does not retry it).
// So the topics are ready once their offsets can be read, and each of these answers means "not yet", up
// to a deadline.
import type { Admin, ITopicConfig } from 'kafkajs';

const notYet =
  /does not host this topic-partition|leader(ship)? (is )?not available|There is no leader|is not the leader for that topic-partition/i;

/** Whether a broker's error means a partition is not served yet (just created, or its leader just moved). */
export function partitionNotServedYet(error: unknown): boolean {
  return notYet.test((error as Error)?.message ?? '');
}

export async function createTopicsAndWait(
  admin: Admin,
  topics: ITopicConfig[],
  { timeoutMs = 30_000 }: { timeoutMs?: number } = {},
): Promise<void> {
  if (topics.length === 0) return;
  const deadline = Date.now() + timeoutMs;
  await admin.createTopics({ waitForLeaders: false, topics });
  const names = topics.map((t) => t.topic);
  for (;;) {
    try {
      const { topics: described } = await admin.fetchTopicMetadata({ topics: names });
      const ready = described.every(
        (t) => t.partitions.length > 0 && t.partitions.every((p) => p.leader >= 0),
      );
      // Every partition's leader answers for it: throws a "not yet" while one does not.
      if (ready) {
        for (const name of names) await admin.fetchTopicOffsets(name);
        return;
      }
      if (Date.now() > deadline)
        throw new Error(`topics ${names.join(', ')} have no leader after ${timeoutMs} ms`);
    } catch (error) {
      if (!partitionNotServedYet(error) || Date.now() > deadline) throw error;
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
