import { describe, expect, it } from 'vitest';
import { KeyedSlots } from './keyed-slots.ts';

function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('KeyedSlots', () => {
  it('runs at most `limit` tasks at once', async () => {
    const slots = new KeyedSlots(2);
    const gates = [gate(), gate(), gate()];
    const started: number[] = [];
    const runs = gates.map((g, i) =>
      slots.run(`key-${i}`, async () => {
        started.push(i);
        await g.opened;
      }),
    );
    await settle();
    expect(started).toEqual([0, 1]);
    gates[0]!.open();
    await settle();
    expect(started).toEqual([0, 1, 2]);
    gates[1]!.open();
    gates[2]!.open();
    await Promise.all(runs);
    expect(slots.running).toBe(0);
    expect(slots.busyKeys).toBe(0);
  });

  it('runs the tasks of one key one at a time, in order, without holding a slot while waiting', async () => {
    const slots = new KeyedSlots(2);
    const slow = gate();
    const order: string[] = [];
    const first = slots.run('slow', async () => {
      order.push('slow-1');
      await slow.opened;
    });
    const second = slots.run('slow', async () => {
      order.push('slow-2');
    });
    const other = slots.run('fast', async () => {
      order.push('fast');
    });
    await other;
    expect(order).toEqual(['slow-1', 'fast']);
    slow.open();
    await Promise.all([first, second]);
    expect(order).toEqual(['slow-1', 'fast', 'slow-2']);
  });

  it('goes on with a key after one of its tasks failed', async () => {
    const slots = new KeyedSlots(1);
    const failed = slots.run('k', async () => {
      throw new Error('boom');
    });
    await expect(failed).rejects.toThrow('boom');
    await expect(slots.run('k', async () => 'next')).resolves.toBe('next');
  });

  it('never starts a task whose signal was aborted while it waited', async () => {
    const slots = new KeyedSlots(1);
    const busy = gate();
    const running = slots.run('a', () => busy.opened);
    const abort = new AbortController();
    let ran = false;
    const waiting = slots.run(
      'b',
      async () => {
        ran = true;
      },
      abort.signal,
    );
    abort.abort(new Error('revoked'));
    busy.open();
    await running;
    await expect(waiting).rejects.toThrow('revoked');
    expect(ran).toBe(false);
  });

  it('lets a task hand its slot back early while its key stays held until it ends', async () => {
    const slots = new KeyedSlots(1);
    const appending = gate();
    const order: string[] = [];
    const first = slots.run('a', async (lease) => {
      order.push('a-1 request');
      lease.releaseSlot();
      lease.releaseSlot(); // twice frees one slot, not two
      await appending.opened;
      order.push('a-1 appended');
    });
    const sameKey = slots.run('a', async () => {
      order.push('a-2 request');
    });
    const others = [1, 2].map((i) =>
      slots.run(`b${i}`, async () => {
        order.push(`b${i} request`);
        await settle();
        expect(slots.running).toBe(1);
      }),
    );
    await Promise.all(others);
    expect(order).toEqual(['a-1 request', 'b1 request', 'b2 request']);
    appending.open();
    await Promise.all([first, sameKey]);
    expect(order).toEqual(['a-1 request', 'b1 request', 'b2 request', 'a-1 appended', 'a-2 request']);
    expect(slots.running).toBe(0);
  });

  it("lets a task hand its key back early: the key's next task starts before it settles", async () => {
    const slots = new KeyedSlots(2);
    const appending = gate();
    const order: string[] = [];
    const first = slots.run('a', async (lease) => {
      order.push('a-1 request');
      lease.releaseKey();
      lease.releaseKey(); // twice frees one slot and the key once
      await appending.opened;
      order.push('a-1 appended');
    });
    const second = slots.run('a', async (lease) => {
      order.push('a-2 request');
      expect(slots.running).toBe(1);
      lease.releaseKey();
      await settle();
    });
    const third = slots.run('a', async () => {
      order.push('a-3 request');
    });
    await Promise.all([second, third]);
    expect(order).toEqual(['a-1 request', 'a-2 request', 'a-3 request']);
    appending.open();
    await first;
    expect(order).toEqual(['a-1 request', 'a-2 request', 'a-3 request', 'a-1 appended']);
    expect(slots.running).toBe(0);
    expect(slots.busyKeys).toBe(0);
  });

  it('passes its argument to the task', async () => {
    const slots = new KeyedSlots(1);
    await expect(slots.run('k', async (_lease, n: number) => n * 2, undefined, 21)).resolves.toBe(42);
  });
});
