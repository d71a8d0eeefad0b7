import { describe, expect, it } from 'vitest';
import { createLogger } from '../logger.ts';
import { LiveTable } from './live-table.ts';

const logger = createLogger('test', 'silent');

describe('LiveTable', () => {
  it('keeps the latest state per key, drops tombstones, and ignores a re-read of older offsets', () => {
    const table = new LiveTable<{ n: number }>('t', new Map([[0, 10n]]), logger);
    table.apply(0, '0', 'a', { n: 1 });
    table.apply(0, '1', 'b', { n: 2 });
    table.apply(0, '2', 'a', { n: 3 });
    table.apply(0, '3', 'b', null);
    table.apply(0, '1', 'b', { n: 2 }); // a redelivery of an older record
    expect(table.get('a')).toEqual({ n: 3 });
    expect(table.get('b')).toBeUndefined();
    expect(table.size).toBe(1);
  });

  it('is ready once every partition has been read to where it ended at start', async () => {
    const table = new LiveTable<number>(
      't',
      new Map([
        [0, 2n],
        [1, 0n],
      ]),
      logger,
    );
    let ready = false;
    const waiting = table.ready(1_000).then(() => (ready = true));
    table.apply(0, '0', 'a', 1);
    await Promise.resolve();
    expect(ready).toBe(false);
    table.apply(0, '1', 'b', 2);
    await waiting;
    expect(ready).toBe(true);
  });

  it('tells listeners about every change', () => {
    const table = new LiveTable<number>('t', new Map(), logger);
    const seen: unknown[] = [];
    table.onChange((change) => seen.push(change));
    table.apply(0, '0', 'a', 1);
    table.apply(0, '1', 'a', null);
    expect(seen).toEqual([
      { key: 'a', value: 1, previous: undefined },
      { key: 'a', value: null, previous: 1 },
    ]);
  });

  it('keeps a held state a policy says the incoming one does not replace, and ignores states under another key', () => {
    const table = new LiveTable<{ id: string; version: number }>('t', new Map(), logger, {
      keyOf: (v) => v.id,
      replaces: (held, incoming) => incoming.version >= held.version,
    });
    table.remember('a', { id: 'a', version: 3 });
    table.apply(0, '0', 'a', { id: 'a', version: 2 });
    expect(table.get('a')?.version).toBe(3);
    table.apply(0, '1', 'a', { id: 'a', version: 3 });
    table.apply(0, '2', 'b', { id: 'c', version: 1 });
    expect(table.get('b')).toBeUndefined();
  });

  it('catches up at once without a topic to follow, and times out ready() when the topic is not read', async () => {
    const table = new LiveTable<number>('t', new Map([[0, 5n]]), logger);
    expect(await table.catchUp()).toBe(true);
    await expect(table.ready(20)).rejects.toThrow('t was not read to its end within 20 ms');
  });
});
