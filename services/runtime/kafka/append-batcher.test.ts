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
});
