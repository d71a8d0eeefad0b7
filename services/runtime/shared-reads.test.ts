import { describe, expect, it } from 'vitest';
import { SharedReads } from './shared-reads.ts';

describe('shared reads', () => {
  it('gives overlapping callers of one key the same read, and starts a new one after it answered', async () => {
    const reads = new SharedReads<number>();
    let started = 0;
    let release!: (n: number) => void;
    const read = () => {
      started += 1;
      return new Promise<number>((resolve) => (release = resolve));
    };
    const first = reads.run('a', read);
    const second = reads.run('a', read);
    expect(started).toBe(1);
    release(7);
    expect(await Promise.all([first, second])).toEqual([7, 7]);
    expect(reads.sharedCount).toBe(1);
    const third = reads.run('a', read);
    expect(started).toBe(2);
    release(8);
    expect(await third).toBe(8);
  });

  it('keeps keys apart and does not keep a failure', async () => {
    const reads = new SharedReads<string>();
    const failed = reads.run('a', () => Promise.reject(new Error('down')));
    const other = reads.run('b', async () => 'b');
    await expect(failed).rejects.toThrow('down');
    expect(await other).toBe('b');
    expect(await reads.run('a', async () => 'again')).toBe('again');
  });
});
