// The scheduler's queue hands out entries earliest due first, whatever order they were pushed in, and
// compaction keeps exactly the entries still wanted.
import { describe, expect, it } from 'vitest';
import { DueQueue } from './due-queue.ts';

function drain<T>(queue: DueQueue<T>): [number, T][] {
  const out: [number, T][] = [];
  for (let next = queue.pop(); next; next = queue.pop()) out.push([next.at, next.item]);
  return out;
}

describe('DueQueue', () => {
  it('gives entries back earliest due first', () => {
    const queue = new DueQueue<string>();
    let seed = 7;
    const random = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
    const pushed: number[] = [];
    for (let i = 0; i < 1_000; i++) {
      const at = Math.floor(random() * 500); // many equal times too
      pushed.push(at);
      queue.push(at, `s${i}`);
    }
    expect(queue.size).toBe(1_000);
    expect(queue.peekTime()).toBe(Math.min(...pushed));
    const times = drain(queue).map(([at]) => at);
    expect(times).toEqual([...pushed].sort((a, b) => a - b));
    expect(queue.size).toBe(0);
    expect(queue.peekTime()).toBe(Infinity);
    expect(queue.pop()).toBeUndefined();
  });

  it('keeps the order across pushes made while taking', () => {
    const queue = new DueQueue<string>();
    queue.push(30, 'c');
    queue.push(10, 'a');
    expect(queue.pop()).toEqual({ at: 10, item: 'a' });
    queue.push(20, 'b');
    queue.push(40, 'd');
    expect(drain(queue)).toEqual([
      [20, 'b'],
      [30, 'c'],
      [40, 'd'],
    ]);
  });

  it('compacts to the entries still wanted, still earliest first', () => {
    const queue = new DueQueue<number>();
    for (let i = 0; i < 100; i++) queue.push(100 - i, i);
    queue.compact((_at, item) => item % 3 === 0);
    expect(queue.size).toBe(34);
    const left = drain(queue);
    expect(left.every(([, item]) => item % 3 === 0)).toBe(true);
    expect(left.map(([at]) => at)).toEqual(left.map(([at]) => at).sort((a, b) => a - b));
  });
});
