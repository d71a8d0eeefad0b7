// A consumer killed with SIGKILL mid-batch loses nothing: after a restart
// every message is handled, and the idempotent effect equals one run.
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestTopic, sampleArticle, type TopicFixture } from './support/kafka.ts';
import { startRecordingConsumer, type ConsumerProcess } from './support/process.ts';
import { stack } from './support/stack.ts';
import { waitFor } from './support/wait.ts';

const total = 600;

describe('crash recovery', () => {
  let redis: Redis;
  let fixture: TopicFixture;
  const key = `test:crash:${randomUUID()}`;
  const running: ConsumerProcess[] = [];

  beforeAll(async () => {
    redis = new Redis(stack.REDIS_URL);
    fixture = await openTestTopic('crash');
    await fixture.sendArticles(Array.from({ length: total }, (_, i) => sampleArticle(i)));
  });

  afterAll(async () => {
    for (const p of running) p.child.kill('SIGKILL');
    await redis?.del(`${key}:effect`, `${key}:handled`, `${key}:by-pid`);
    await redis?.quit();
    await fixture?.close();
  });

  it('handles every message after a SIGKILL mid-batch, with the effect of a single run', async () => {
    const { name } = fixture.topic;
    const env = { TEST_TOPIC: name, TEST_GROUP: `crash-${name}`, TEST_REDIS_KEY: key };
    const first = startRecordingConsumer({ ...env, TEST_HANDLER_DELAY_MS: '5' });
    running.push(first);

    // Kill it while it is in the middle of the work: some handled, most not.
    await waitFor(
      async () => (await redis.hlen(`${key}:handled`)) >= 100,
      'the first consumer to handle 100 messages',
    );
    first.child.kill('SIGKILL');
    await first.exited;
    const handledBeforeKill = await redis.hlen(`${key}:handled`);
    expect(handledBeforeKill).toBeLessThan(total);

    const second = startRecordingConsumer({ ...env, TEST_HANDLER_DELAY_MS: '0' });
    running.push(second);
    await waitFor(async () => (await redis.hlen(`${key}:effect`)) === total, `all ${total} effects`, 60_000);

    const effect = await redis.hgetall(`${key}:effect`);
    for (let i = 0; i < total; i++) expect(effect[`article-${i}`]).toBe(sampleArticle(i).title);

    // At-least-once: some messages handled before the kill were handled again
    // (their offsets were not yet committed) and none was handled zero times.
    const handled = Object.values(await redis.hgetall(`${key}:handled`)).map(Number);
    expect(handled).toHaveLength(total);
    expect(Math.min(...handled)).toBe(1);
    expect(handled.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(total);
  }, 120_000);
});
