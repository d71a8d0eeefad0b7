import { describe, expect, it } from 'vitest';
import { AppendBatcher, type RawRecord } from './append-batcher.ts';

const record = (topic: string, key: string): RawRecord => ({ topic, key, value: Buffer.from(key) });

describe('AppendBatcher', () => {
  it('sends the records of appends made together in one request, each caller’s in order', async () => {
    const sent: string[][] = [];
    const batcher = new AppendBatcher(
      async (records) => void sent.push(records.map((r) => `${r.topic}:${r.key}`)),
    );
    await Promise.all([
      batcher.append([record('a', '1'), record('b', '2')]),
      batcher.append([record('a', '3')]),
      batcher.append([record('a', '4'), record('a', '5')]),
    ]);
    expect(sent).toEqual([['a:1', 'b:2', 'a:3', 'a:4', 'a:5']]);
  });

  it('gathers what arrives during a request into the next one', async () => {
    const sent: number[] = [];
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const batcher = new AppendBatcher(async (records) => {
      sent.push(records.length);
      if (sent.length === 1) await gate;
    });
    const first = batcher.append([record('a', '1')]);
    await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setImmediate(resolve));
    const later = [2, 3, 4].map((n) => batcher.append([record('a', String(n))]));
    release();
    await Promise.all([first, ...later]);
    expect(sent).toEqual([1, 3]);
  });

  it('fails every append of a request that failed, and goes on with the next', async () => {
    let calls = 0;
    const batcher = new AppendBatcher(async () => {
      if (++calls === 1) throw new Error('broker gone');
    });
    const failed = await Promise.allSettled([
      batcher.append([record('a', '1')]),
      batcher.append([record('a', '2')]),
    ]);
    expect(failed.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    await expect(batcher.append([record('a', '3')])).resolves.toBeUndefined();
  });

  it('keeps a request within the record limit, never splitting one caller’s records', async () => {
    const sizes: number[] = [];
    const batcher = new AppendBatcher(async (records) => void sizes.push(records.length), 3);
    await Promise.all([
      batcher.append([record('a', '1'), record('a', '2')]),
      batcher.append([record('a', '3'), record('a', '4')]),
      batcher.append([record('a', '5')]),
    ]);
    expect(sizes).toEqual([2, 3]);
  });

  it('with a linger, holds a request back for appends made later, until the oldest has waited its time', async () => {
    const sent: number[] = [];
    // The batcher's own clock, moved by hand: on a busy machine five turns of the event loop can take
    // longer than the linger itself, which made a wall-clock version of this test flaky.
    const clock = { now: 0 };
    const batcher = new AppendBatcher(
      async (records) => void sent.push(records.length),
      1_000,
      { ms: 50, records: 100 },
      () => clock.now,
    );
    const turns = async (n: number) => {
      for (let i = 0; i < n; i++) await new Promise((resolve) => setImmediate(resolve));
    };
    const first = batcher.append([record('a', '1')]);
    await turns(5); // without a linger, the first record's request would be gone by now
    const second = batcher.append([record('a', '2'), record('a', '3')]);
    await turns(5);
    expect(sent).toEqual([]); // the oldest has not waited its 50 ms yet
    clock.now = 49;
    await new Promise((resolve) => setTimeout(resolve, 120)); // the linger's timer looks again
    expect(sent).toEqual([]);
    clock.now = 50;
    await Promise.all([first, second]);
    expect(sent).toEqual([3]);
  });

  it('with a linger, sends at once when enough records wait', async () => {
    const sent: number[] = [];
    const batcher = new AppendBatcher(async (records) => void sent.push(records.length), 1_000, {
      ms: 60_000, // the test would time out waiting for it
      records: 4,
    });
    const first = batcher.append([record('a', '1')]);
    await new Promise((resolve) => setImmediate(resolve));
    await Promise.all([first, batcher.append([record('a', '2'), record('a', '3'), record('a', '4')])]);
    expect(sent).toEqual([4]);
  });
});
