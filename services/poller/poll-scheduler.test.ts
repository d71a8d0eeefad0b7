// When the scheduler starts polls: due sources, earliest first, never more than its concurrency at once,
// and a slot that frees up taken by the next due source at once rather than at the next tick.
import { describe, expect, it } from 'vitest';
import { createLogger } from '../runtime/logger.ts';
import { sourceState } from '../sources/source.ts';
import type { Source } from '../runtime/events/types.generated.ts';
import { PollScheduler } from './poll-scheduler.ts';
import type { SourceLocking } from './poll-scheduler.ts';
import { SeenMemoryLost } from './seen-articles.ts';

const sourceNamed = (n: number): Source =>
  sourceState(
    {
      name: `S${n}`,
      feed_url: `https://feeds${n}.example/rss`,
      category: 'general',
      language: 'en',
      country: 'gb',
      poll_interval_seconds: 60,
    },
    null,
    0,
  );

const openLock: SourceLocking = {
  acquire: async () => ({ etag: null, lastModified: null, consecutiveFailures: 0 }),
  release: async () => undefined,
};

function scheduler(concurrency: number, poll: (source: Source) => Promise<number>) {
  return new PollScheduler({
    concurrency,
    poll,
    lock: openLock,
    logger: createLogger('test', 'silent'),
    clock: () => 1_000_000,
    random: () => 0, // every source due at once
    tickMs: 3_600_000, // one tick in the test: whatever starts later starts without one
  });
}

describe('PollScheduler', () => {
  it('waits for ready() before a poll: no poll runs until it resolves, then each does', async () => {
    const order: string[] = [];
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const polls = new PollScheduler({
      concurrency: 2,
      poll: async (source) => {
        order.push(source.name);
        return 2_000_000;
      },
      ready: () => gate,
      lock: openLock,
      logger: createLogger('test', 'silent'),
      clock: () => 1_000_000,
      random: () => 0,
      tickMs: 3_600_000,
    });
    for (let n = 0; n < 3; n++) polls.upsert(0, sourceNamed(n));
    polls.start();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(order).toEqual([]);
    open();
    await expect.poll(() => order.length, { timeout: 2_000 }).toBe(3);
    await polls.stop();
  });

  it('retries a poll refused for a lost memory once ready() allows, other failures after the error delay', async () => {
    const attempts = new Map<string, number>();
    const polls = new PollScheduler({
      concurrency: 2,
      poll: async (source) => {
        const n = (attempts.get(source.name) ?? 0) + 1;
        attempts.set(source.name, n);
        if (n === 1) throw source.name === 'S0' ? new SeenMemoryLost() : new Error('Kafka is down');
        return Date.now() + 3_600_000;
      },
      // The rebuild the lost memory started: the retry waits on it rather than on a timer.
      ready: () => Promise.resolve(),
      lock: openLock,
      logger: createLogger('test', 'silent'),
      random: () => 0,
      tickMs: 10,
      retryAfterErrorMs: 3_600_000,
      retryAfterLostMemoryMs: 20,
    });
    polls.upsert(0, sourceNamed(0));
    polls.upsert(0, sourceNamed(1));
    polls.start();
    await expect.poll(() => attempts.get('S0'), { timeout: 2_000 }).toBe(2);
    expect(attempts.get('S1')).toBe(1);
    await polls.stop();
  });

  it('starts the next due source as soon as a poll ends, never more than its concurrency at once', async () => {
    let running = 0;
    let most = 0;
    const order: string[] = [];
    const polls = scheduler(2, async (source) => {
      running++;
      most = Math.max(most, running);
      order.push(source.name);
      await new Promise((resolve) => setTimeout(resolve, 5));
      running--;
      return 2_000_000; // not due again during the test
    });
    for (let n = 0; n < 6; n++) polls.upsert(0, sourceNamed(n));
    polls.start();
    await expect.poll(() => order.length, { timeout: 2_000 }).toBe(6);
    expect(most).toBe(2);
    expect([...order].sort()).toEqual(['S0', 'S1', 'S2', 'S3', 'S4', 'S5']);
    await polls.stop();
  });

  it('does not start a source removed after the tick found it due', async () => {
    const order: string[] = [];
    let finishFirst!: () => void;
    const polls = scheduler(1, async (source) => {
      order.push(source.name);
      if (order.length === 1) await new Promise<void>((resolve) => (finishFirst = resolve));
      return 2_000_000;
    });
    const sources = [0, 1, 2].map(sourceNamed);
    for (const source of sources) polls.upsert(0, source);
    polls.start();
    await expect.poll(() => order.length).toBe(1);
    // The two waiting behind the first: one goes away before a slot frees up.
    const removed = sources.find((s) => s.name !== order[0])!;
    polls.remove(removed.source_id);
    finishFirst();
    await expect.poll(() => order.length).toBe(2);
    await polls.stop();
    expect(order).not.toContain(removed.name);
  });

  it('hands each poll the state its lock read, and leaves a source whose lock another poller holds', async () => {
    const held = new Set(['S1']);
    const polled: [string, string | null][] = [];
    const polls = new PollScheduler({
      concurrency: 4,
      poll: async (source, state) => {
        polled.push([source.name, state.etag]);
        return 2_000_000;
      },
      lock: {
        acquire: async (id) => {
          const name = sources.find((s) => s.source_id === id)!.name;
          return held.has(name) ? null : { etag: `"${name}"`, lastModified: null, consecutiveFailures: 0 };
        },
        release: async () => undefined,
      },
      logger: createLogger('test', 'silent'),
      clock: () => 1_000_000,
      random: () => 0,
      tickMs: 3_600_000,
    });
    const sources = [0, 1, 2].map(sourceNamed);
    for (const source of sources) polls.upsert(0, source);
    polls.start();
    await expect.poll(() => polled.length).toBe(2);
    await polls.stop();
    expect(polled.sort()).toEqual([
      ['S0', '"S0"'],
      ['S2', '"S2"'],
    ]);
  });

  it('starts due sources earliest first, a rescheduled one at its new time and once', async () => {
    let now = 0;
    const randoms = [0.9, 0.1, 0.5, 0.7];
    const order: string[] = [];
    const polls = new PollScheduler({
      concurrency: 1,
      poll: async (source) => {
        order.push(source.name);
        return now + 1_000_000_000;
      },
      lock: openLock,
      logger: createLogger('test', 'silent'),
      clock: () => now,
      random: () => randoms.shift()!,
      tickMs: 5,
    });
    // First polls 9 s, 1 s, 5 s and 7 s from now (spread over the first 10 s).
    const sources = [0, 1, 2, 3].map(sourceNamed);
    for (const source of sources) polls.upsert(0, source);
    // S3's interval drops to 2 s: due at 2 s now, not 7 s.
    polls.upsert(0, { ...sources[3]!, poll_interval_seconds: 2 });
    polls.start();
    now = 3_000;
    await expect.poll(() => order.length).toBe(2);
    now = 10_000;
    await expect.poll(() => order.length).toBe(4);
    await new Promise((resolve) => setTimeout(resolve, 30)); // a few more ticks: nothing else is due
    await polls.stop();
    expect(order).toEqual(['S1', 'S3', 'S2', 'S0']);
  });

  it('brings a poll forward, never back, and after a running poll its next comes no later', async () => {
    let now = 0;
    const polled: { name: string; at: number }[] = [];
    let release: (() => void) | undefined;
    const polls = new PollScheduler({
      concurrency: 2,
      poll: async (source) => {
        polled.push({ name: source.name, at: now });
        // S1's first poll waits for the test: it is running when its next poll is brought forward.
        if (source.name === 'S1' && polled.length <= 2) await new Promise<void>((r) => (release = r));
        return now + 3_600_000; // hourly
      },
      lock: openLock,
      logger: createLogger('test', 'silent'),
      clock: () => now,
      random: () => 0,
      tickMs: 5,
    });
    const [s0, s1] = [0, 1].map(sourceNamed);
    polls.upsert(0, s0!);
    polls.upsert(0, s1!);
    polls.start();
    await expect.poll(() => polled.length).toBe(2);
    await expect.poll(() => release).toBeDefined();
    // S0 is idle, due in an hour: brought forward to 20 s; a later time changes nothing.
    polls.bringForward(s0!.source_id, 20_000);
    polls.bringForward(s0!.source_id, 1_800_000);
    // S1 is running: its next poll (an hour after it ends, by its own account) no later than 30 s.
    polls.bringForward(s1!.source_id, 30_000);
    polls.bringForward('not ours', 1_000);
    release!();
    now = 19_000;
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(polled).toHaveLength(2);
    now = 20_000;
    await expect.poll(() => polled.length).toBe(3);
    now = 30_000;
    await expect.poll(() => polled.length).toBe(4);
    now = 1_800_000;
    await new Promise((resolve) => setTimeout(resolve, 30)); // a few more ticks: nothing else is due
    await polls.stop();
    expect(polled.map((p) => `${p.name}@${p.at}`)).toEqual(['S0@0', 'S1@0', 'S0@20000', 'S1@30000']);
  });

  it('paces the starts of sources all due in the same second instead of sending them at once', async () => {
    const startedAt: number[] = [];
    const polls = new PollScheduler({
      concurrency: 1_000,
      poll: async () => {
        startedAt.push(Date.now());
        return Date.now() + 3_600_000;
      },
      lock: openLock,
      logger: createLogger('test', 'silent'),
      random: () => 0, // every source due at once
      startsPerSecond: 100,
      startBurst: 5,
    });
    for (let n = 0; n < 40; n++) polls.upsert(0, sourceNamed(n));
    const begin = Date.now();
    polls.start();
    await expect.poll(() => startedAt.length, { timeout: 5_000 }).toBe(40);
    await polls.stop();
    // A busy machine can only make the pace slower, never faster: at most the burst plus one start per
    // 10 ms elapsed, at every moment.
    for (const [i, at] of startedAt.entries())
      expect(i + 1).toBeLessThanOrEqual(5 + 1 + ((at - begin) * 100) / 1000);
    expect(startedAt.at(-1)! - begin).toBeGreaterThanOrEqual(340);
  });
});
