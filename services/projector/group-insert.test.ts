import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { GroupInsert, type GroupLimits } from './group-insert.ts';

/** A write the test ends by hand: each call is recorded with the items it carried. */
function fakeWrites() {
  const calls: { items: number[]; end: (error?: Error) => void }[] = [];
  const write = (items: number[]) =>
    new Promise<void>((resolve, reject) =>
      calls.push({ items: [...items], end: (error) => (error ? reject(error) : resolve()) }),
    );
  return { calls, write };
}

/** Lets the promise callbacks queued so far run. */
const settle = () => new Promise((r) => setTimeout(r, 0));

const limits: GroupLimits = { maxRows: 10, maxBytes: 1_000, maxInFlight: 2 };
/** Item n: n rows, 10 bytes a row. */
const sized = (n: number) => ({ rows: n, bytes: 10 * n });

/** Whether a promise has settled, and how. */
function watch(promise: Promise<unknown>) {
  const state = { settled: false, error: undefined as unknown };
  promise.then(
    () => (state.settled = true),
    (error: unknown) => Object.assign(state, { settled: true, error }),
  );
  return state;
}

describe('GroupInsert', () => {
  it('writes a lone item at once: a quiet topic waits for nothing', async () => {
    const { calls, write } = fakeWrites();
    const group = new GroupInsert({ ...limits, write, size: sized });
    const { written } = await group.add(3);
    expect(calls.map((c) => c.items)).toEqual([[3]]);
    const state = watch(written);
    await settle();
    expect(state.settled).toBe(false);
    calls[0]!.end();
    await settle();
    expect(state).toEqual({ settled: true, error: undefined });
  });

  it('gathers what is handed over while an insert is in flight into ONE insert when it ends', async () => {
    const { calls, write } = fakeWrites();
    const group = new GroupInsert({ ...limits, write, size: sized });
    const first = await group.add(1);
    const second = await group.add(2);
    const third = await group.add(3);
    expect(calls.map((c) => c.items)).toEqual([[1]]);
    expect(second.written).toBe(third.written); // one group, one outcome
    calls[0]!.end();
    await first.written;
    expect(calls.map((c) => c.items)).toEqual([[1], [2, 3]]);
    calls[1]!.end();
    await third.written;
  });

  it('sends a full group as a second insert, then makes add() wait while both slots are busy and the group is full', async () => {
    const { calls, write } = fakeWrites();
    const group = new GroupInsert({ ...limits, write, size: sized });
    await group.add(5); // in flight at once
    await group.add(6); // gathering
    await group.add(4); // 6 + 4 = 10 rows: the group is full and a slot is free, so it goes
    expect(calls.map((c) => c.items)).toEqual([[5], [6, 4]]);
    await group.add(7); // gathering again
    const blocked = watch(group.add(8)); // 7 + 8 > 10, both slots busy: waits for room
    await settle();
    expect(blocked.settled).toBe(false);
    expect(calls).toHaveLength(2);
    calls[0]!.end();
    await settle();
    // A slot freed: the gathered group went, and 8 now waits in a new group.
    expect(blocked.settled).toBe(true);
    expect(calls.map((c) => c.items)).toEqual([[5], [6, 4], [7]]);
    calls[1]!.end();
    await settle();
    // [8] is not full: it gathers until nothing is in flight.
    expect(calls.map((c) => c.items)).toEqual([[5], [6, 4], [7]]);
    calls[2]!.end();
    await settle();
    expect(calls.map((c) => c.items)).toEqual([[5], [6, 4], [7], [8]]);
  });

  it('counts bytes as well as rows', async () => {
    const { calls, write } = fakeWrites();
    const group = new GroupInsert({
      ...limits,
      maxInFlight: 1,
      write,
      size: (n: number) => ({ rows: 1, bytes: n }),
    });
    await group.add(1);
    await group.add(600);
    const blocked = watch(group.add(500)); // 600 + 500 bytes > 1,000
    await settle();
    expect(blocked.settled).toBe(false);
    calls[0]!.end();
    await settle();
    expect(calls.map((c) => c.items)).toEqual([[1], [600]]);
    expect(blocked.settled).toBe(true);
  });

  it('writes an item bigger than the caps alone rather than never', async () => {
    const { calls, write } = fakeWrites();
    const group = new GroupInsert({ ...limits, write, size: sized });
    await group.add(1);
    await group.add(25);
    await group.add(2);
    expect(calls.map((c) => c.items)).toEqual([[1], [25]]);
    calls[0]!.end();
    calls[1]!.end();
    await settle();
    expect(calls.map((c) => c.items)).toEqual([[1], [25], [2]]);
  });

  it('fails every item of a failed insert, and only those', async () => {
    const { calls, write } = fakeWrites();
    const group = new GroupInsert({ ...limits, write, size: sized });
    const a = await group.add(1);
    const b = await group.add(2);
    const c = await group.add(3);
    calls[0]!.end();
    await a.written;
    const d = await group.add(4); // gathers while [2, 3] is in flight
    calls[1]!.end(new Error('ClickHouse refused the insert'));
    await expect(b.written).rejects.toThrow('ClickHouse refused the insert');
    await expect(c.written).rejects.toThrow('ClickHouse refused the insert');
    expect(calls.map((x) => x.items)).toEqual([[1], [2, 3], [4]]);
    calls[2]!.end();
    await expect(d.written).resolves.toBeUndefined();
  });

  it('fails the items of a write that throws before it returns a promise', async () => {
    const group = new GroupInsert({
      ...limits,
      write: () => {
        throw new Error('could not encode');
      },
      size: sized,
    });
    const { written } = await group.add(1);
    await expect(written).rejects.toThrow('could not encode');
    await group.idle();
  });

  it('is idle once everything handed over was written', async () => {
    const { calls, write } = fakeWrites();
    const group = new GroupInsert({ ...limits, write, size: sized });
    await group.idle();
    await group.add(1);
    await group.add(2);
    const idle = watch(group.idle());
    calls[0]!.end();
    await settle();
    expect(idle.settled).toBe(false); // [2] went next
    calls[1]!.end();
    await settle();
    expect(idle.settled).toBe(true);
    expect(group.stats).toMatchObject({ groups: 2, items: 2, rows: 3 });
  });

  it('writes every item once, in order, within the caps and the in-flight limit, however the writes end', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 1, max: 12 }), { minLength: 1, maxLength: 40 }),
        fc.array(fc.nat(), { maxLength: 80 }),
        fc.integer({ min: 1, max: 3 }),
        async (items, endOrder, maxInFlight) => {
          const calls: { items: number[]; end: () => void; ended: boolean }[] = [];
          let inFlight = 0;
          let maxSeen = 0;
          const group = new GroupInsert({
            ...limits,
            maxInFlight,
            size: sized,
            write: (batch: number[]) =>
              new Promise<void>((resolve) => {
                inFlight++;
                maxSeen = Math.max(maxSeen, inFlight);
                const call = {
                  items: [...batch],
                  ended: false,
                  end: () => {
                    call.ended = true;
                    inFlight--;
                    resolve();
                  },
                };
                calls.push(call);
              }),
          });
          // Items are added one after another (as the runner hands batches over) while writes end in a
          // random order.
          let adding = true;
          const adder = (async () => {
            for (const item of items) await group.add(item);
            adding = false;
          })();
          let pick = 0;
          for (;;) {
            await settle();
            const open = calls.filter((c) => !c.ended);
            if (!adding && open.length === 0) break;
            if (open.length > 0) open[(endOrder[pick++] ?? 0) % open.length]!.end();
          }
          await adder;
          await group.idle();
          expect(calls.flatMap((c) => c.items)).toEqual(items);
          for (const call of calls)
            if (call.items.length > 1) expect(call.items.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(10);
          expect(maxSeen).toBeLessThanOrEqual(maxInFlight);
        },
      ),
      { numRuns: 150 },
    );
  });
});
