// Consumer-group behaviour with real processes: two members split the
// partitions; when one stops (SIGTERM) it commits and leaves, and the other
// takes its partitions over.
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consumerGroup } from '../../services/runtime/kafka/topics.ts';
import { openTestTopic, sampleArticle, type TopicFixture } from './support/kafka.ts';
import { assignedPartitions, startRecordingConsumer, type ConsumerProcess } from './support/process.ts';
import { stack } from './support/stack.ts';
import { waitFor } from './support/wait.ts';

describe('consumer group', () => {
  let redis: Redis;
  let fixture: TopicFixture;
  const key = `test:group:${randomUUID()}`;
  const group = `group-${randomUUID()}`;
  const running: ConsumerProcess[] = [];

  const produce = async (from: number, count: number) => {
    await fixture.sendArticles(Array.from({ length: count }, (_, i) => sampleArticle(from + i)));
  };

  beforeAll(async () => {
    redis = new Redis(stack.REDIS_URL);
    fixture = await openTestTopic('group', 'news.articles.discovered.v1', 6);
  });

  afterAll(async () => {
    for (const p of running) p.child.kill('SIGKILL');
    const pidKeys = await redis.keys(`${key}:*`);
    if (pidKeys.length) await redis.del(...pidKeys);
    await redis?.quit();
    await fixture?.close();
  });

  it('splits the partitions between two processes, and hands them over when one stops', async () => {
    const env = { TEST_TOPIC: fixture.topic.name, TEST_GROUP: group, TEST_REDIS_KEY: key };
    const a = startRecordingConsumer(env);
    const b = startRecordingConsumer(env);
    running.push(a, b);

    const split = await waitFor(
      () => {
        const pa = assignedPartitions(a);
        const pb = assignedPartitions(b);
        return pa.length > 0 && pb.length > 0 && pa.length + pb.length === 6 ? { pa, pb } : undefined;
      },
      'both processes to own partitions',
      60_000,
    );
    expect([...split.pa, ...split.pb].sort()).toEqual([0, 1, 2, 3, 4, 5]);
    expect(split.pa.filter((p) => split.pb.includes(p))).toEqual([]);

    await produce(0, 120);
    await waitFor(async () => (await redis.hlen(`${key}:effect`)) === 120, 'first 120 messages');
    const pidA = String(a.child.pid);
    const pidB = String(b.child.pid);
    const byPid = await redis.hgetall(`${key}:by-pid`);
    expect(Number(byPid[pidA])).toBeGreaterThan(0);
    expect(Number(byPid[pidB])).toBeGreaterThan(0);

    // Graceful stop: finishes, commits and leaves; B must then own all six.
    a.child.kill('SIGTERM');
    expect(await a.exited).toBe(0);
    await waitFor(() => assignedPartitions(b).length === 6, 'the survivor to own all partitions', 60_000);

    await produce(120, 120);
    await waitFor(async () => (await redis.hlen(`${key}:effect`)) === 240, 'all 240 messages');
    const partitionsOfB = (await redis.smembers(`${key}:partitions:${pidB}`)).map(Number).sort();
    expect(partitionsOfB).toEqual([0, 1, 2, 3, 4, 5]);

    // A graceful stop commits what it handled, so nothing was handled twice.
    const handled = Object.values(await redis.hgetall(`${key}:handled`)).map(Number);
    expect(Math.max(...handled)).toBe(1);
  }, 150_000);

  it('commits the offsets of everything handled before leaving the group', async () => {
    const b = running[1]!;
    b.child.kill('SIGTERM');
    expect(await b.exited).toBe(0);
    // The group's id in this worker's namespace, as the processes joined it.
    const offsets = await fixture.admin.fetchOffsets({
      groupId: consumerGroup(group),
      topics: [fixture.topic.name],
    });
    const committed = offsets[0]!.partitions.reduce((sum, p) => sum + Number(p.offset), 0);
    expect(committed).toBe(240);
  }, 60_000);
});
