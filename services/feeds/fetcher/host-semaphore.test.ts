import { describe, expect, it } from 'vitest';
import { HostSemaphore } from './host-semaphore.ts';

const settled = () => new Promise((resolve) => setImmediate(resolve));

describe('HostSemaphore', () => {
  it('lets `limit` holders in per host and queues the rest first come, first served', async () => {
    const slots = new HostSemaphore(2);
    const order: string[] = [];
    const a = await slots.acquire('h');
    const b = await slots.acquire('h');
    const waiting = ['c', 'd', 'e'].map((name) =>
      slots.acquire('h').then((release) => {
        order.push(name);
        return release;
      }),
    );
    const other = await slots.acquire('elsewhere'); // another host is not held up
    await settled();
    expect(order).toEqual([]);
    a();
    a(); // releasing twice must not free a second slot
    await settled();
    expect(order).toEqual(['c']);
    b();
    await settled();
    expect(order).toEqual(['c', 'd']);
    const c = await waiting[0]!;
    const d = await waiting[1]!;
    c();
    await settled();
    expect(order).toEqual(['c', 'd', 'e']);
    (await waiting[2]!)();
    d();
    other();
    expect(slots.trackedHosts).toBe(0);
  });

  it('forgets a host once nothing runs or waits for it', async () => {
    const slots = new HostSemaphore(1);
    const releases = await Promise.all(Array.from({ length: 50 }, (_, i) => slots.acquire(`host-${i}`)));
    expect(slots.trackedHosts).toBe(50);
    for (const release of releases) release();
    expect(slots.trackedHosts).toBe(0);
  });

  it('drops a waiter whose signal aborts, and hands the slot to the next one', async () => {
    const slots = new HostSemaphore(1);
    const held = await slots.acquire('h');
    const controller = new AbortController();
    const abandoned = slots.acquire('h', controller.signal);
    const next = slots.acquire('h');
    controller.abort(new Error('deadline'));
    await expect(abandoned).rejects.toThrow('deadline');
    held();
    (await next)();
    expect(slots.trackedHosts).toBe(0);
  });

  it('refuses a limit below 1', () => {
    expect(() => new HostSemaphore(0)).toThrow('per-host concurrency must be ≥ 1, got 0');
  });
});
