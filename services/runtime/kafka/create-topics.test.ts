import type { Admin } from 'kafkajs';
import { describe, expect, it } from 'vitest';
import { createTopicsAndWait } from './create-topics.ts';

// A broker as the admin sees it: metadata that names a leader at once, and offsets that the leader
// serves only after `notServedFor` reads (a KRaft broker's partitions take a new leadership a moment
// after its metadata shows it).
function fakeAdmin({ notServedFor, error }: { notServedFor: number; error: string }) {
  const calls = { metadata: 0, offsets: 0 };
  const admin = {
    createTopics: async () => true,
    fetchTopicMetadata: async ({ topics }: { topics: string[] }) => {
      calls.metadata++;
      return { topics: topics.map((name) => ({ name, partitions: [{ partitionId: 0, leader: 1 }] })) };
    },
    fetchTopicOffsets: async () => {
      calls.offsets++;
      if (calls.offsets <= notServedFor) throw new Error(error);
      return [{ partition: 0, offset: '0', high: '0', low: '0' }];
    },
  } as unknown as Admin;
  return { admin, calls };
}

describe('createTopicsAndWait', () => {
  it('returns only once the leaders named in the metadata serve their partitions', async () => {
    const { admin, calls } = fakeAdmin({
      notServedFor: 2,
      error: 'This server is not the leader for that topic-partition',
    });
    await createTopicsAndWait(admin, [{ topic: 'a', numPartitions: 1 }]);
    expect(calls.offsets).toBe(3);
    expect(calls.metadata).toBe(3);
  });

  it('passes on an answer that does not mean "not yet"', async () => {
    const { admin, calls } = fakeAdmin({ notServedFor: 1, error: 'Not authorized to access topics' });
    await expect(createTopicsAndWait(admin, [{ topic: 'a', numPartitions: 1 }])).rejects.toThrow(
      /Not authorized/,
    );
    expect(calls.offsets).toBe(1);
  });

  it('gives up at its deadline', async () => {
    const { admin } = fakeAdmin({
      notServedFor: Infinity,
      error: 'This server is not the leader for that topic-partition',
    });
    await expect(
      createTopicsAndWait(admin, [{ topic: 'a', numPartitions: 1 }], { timeoutMs: 300 }),
    ).rejects.toThrow(/not the leader/);
  });
});
