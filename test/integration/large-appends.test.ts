// Appends of large records on the real broker (message.max.bytes 1 MiB, its default): a poll's worth of
// large articles is split into requests the broker takes, and a record the broker refuses leaves the
// producer able to append what follows. Before, a 6 MB poll went as one request, was refused, and every
// later append of the poller to the partitions of that request was refused as out of order.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { maxRequestBytes } from '../../services/runtime/kafka/producer.ts';
import { openTestTopic, type TopicFixture } from './support/kafka.ts';

describe('large appends', () => {
  let fixture: TopicFixture;

  beforeAll(async () => {
    fixture = await openTestTopic('large-appends');
  }, 60_000);

  afterAll(async () => {
    await fixture?.close();
  }, 60_000);

  const written = async () =>
    (await fixture.admin.fetchTopicOffsets(fixture.topic.name)).reduce((sum, p) => sum + Number(p.high), 0);

  const records = (count: number, bytes: number, prefix: string) =>
    Array.from({ length: count }, (_, i) => ({
      topic: fixture.topic.name,
      key: `${prefix}-${i}`,
      value: Buffer.alloc(bytes, i),
      headers: {},
    }));

  it('appends 40 records of 150 kB (6 MB) in requests the broker takes', async () => {
    const before = await written();
    await fixture.producer.sendRawBatch(records(40, 150_000, 'large'));
    expect((await written()) - before).toBe(40);
    expect(maxRequestBytes).toBeLessThan(1024 * 1024);
  });

  it('after a record the broker refuses, appends the next ones to every partition', async () => {
    await expect(
      fixture.producer.sendRawBatch([
        ...records(5, 100, 'beside'),
        { topic: fixture.topic.name, key: 'too-large', value: Buffer.alloc(1_200_000), headers: {} },
      ]),
    ).rejects.toThrow(/larger than the max message size/);
    const before = await written();
    // Keys over all six partitions, the refused record's among them.
    await fixture.producer.sendRawBatch(records(30, 100, 'after'));
    await fixture.producer.sendRawBatch(records(30, 100, 'after-again'));
    expect((await written()) - before).toBe(60);
  }, 60_000);
});
