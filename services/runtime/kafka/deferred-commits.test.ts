import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DeferredCommits } from './deferred-commits.ts';

const topic = 'news.articles.discovered.v1';

function tracker() {
  const commits: string[] = [];
  const deferred = new DeferredCommits((t, p, offset) =>
    commits.push(`${t === topic ? '' : t}${p}@${offset}`),
  );
  return { commits, deferred };
}

describe('DeferredCommits', () => {
  it('commits a batch only once it and every batch of its partition handed over before it were written', () => {
    const { commits, deferred } = tracker();
    const a = deferred.handedOver(topic, 0, 0n, 99n);
    const b = deferred.handedOver(topic, 0, 100n, 199n);
    const c = deferred.handedOver(topic, 0, 200n, 299n);
    deferred.written(b);
    deferred.written(c);
    expect(commits).toEqual([]); // a is not written yet
    deferred.written(a);
    expect(commits).toEqual(['0@300']); // the next offset to read
    expect(deferred.uncommitted).toBe(0);
  });

  it('keeps partitions apart', () => {
    const { commits, deferred } = tracker();
    const a0 = deferred.handedOver(topic, 0, 0n, 9n);
    const a1 = deferred.handedOver(topic, 1, 50n, 59n);
    deferred.written(a1);
    expect(commits).toEqual(['1@60']);
    deferred.written(a0);
    expect(commits).toEqual(['1@60', '0@10']);
  });

  it('after a failed write commits nothing more of the range and says where to read again', () => {
    const { commits, deferred } = tracker();
    const a = deferred.handedOver(topic, 0, 0n, 99n);
    deferred.written(a);
    const b = deferred.handedOver(topic, 0, 100n, 199n);
    const c = deferred.handedOver(topic, 0, 200n, 299n);
    const d = deferred.handedOver(topic, 0, 300n, 399n);
    deferred.written(d);
    expect(deferred.failed(c)).toBe(100n); // the first offset not committed, not c's own
    deferred.written(b); // b's insert succeeded after all: still nothing, its range is read again
    expect(commits).toEqual(['0@100']);
    // Everything handed over up to the failure is handled one fetch at a time when read again.
    expect(deferred.replaying(topic, 0, 100n)).toBe(true);
    expect(deferred.replaying(topic, 0, 399n)).toBe(true);
    expect(deferred.replaying(topic, 1, 0n)).toBe(false);
    // Read again: committed in order as each is written.
    deferred.written(deferred.handedOver(topic, 0, 100n, 249n));
    deferred.written(deferred.handedOver(topic, 0, 250n, 399n));
    expect(commits).toEqual(['0@100', '0@250', '0@400']);
    expect(deferred.replaying(topic, 0, 400n)).toBe(false); // past the range: handed over again
  });

  it('does not commit a batch past a gap (fetched before the partition was sought back)', () => {
    const { commits, deferred } = tracker();
    const a = deferred.handedOver(topic, 0, 0n, 99n);
    expect(deferred.failed(a)).toBe(0n);
    const stale = deferred.handedOver(topic, 0, 100n, 199n);
    deferred.written(stale);
    expect(commits).toEqual([]);
    deferred.written(deferred.handedOver(topic, 0, 0n, 99n));
    expect(commits).toEqual(['0@100']);
  });

  it('a second failure of the same range reports nothing new', () => {
    const { deferred } = tracker();
    const a = deferred.handedOver(topic, 0, 0n, 99n);
    const b = deferred.handedOver(topic, 0, 100n, 199n);
    expect(deferred.failed(a)).toBe(0n);
    expect(deferred.failed(b)).toBeUndefined(); // forgotten with a: read again already
  });

  it('forgets every batch in hand on a rebalance: their writes commit nothing', () => {
    const { commits, deferred } = tracker();
    const a = deferred.handedOver(topic, 0, 0n, 99n);
    const b = deferred.handedOver(topic, 1, 0n, 99n);
    deferred.reset();
    deferred.written(a);
    expect(deferred.failed(b)).toBeUndefined();
    expect(commits).toEqual([]);
    // Read again from the committed offsets after the rebalance.
    deferred.written(deferred.handedOver(topic, 0, 0n, 99n));
    expect(commits).toEqual(['0@100']);
  });

  it('never commits an offset whose batches were not all written, whatever the order of writes and failures', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: 5 }), { minLength: 1, maxLength: 12 }),
        fc.array(fc.tuple(fc.nat(), fc.boolean()), { maxLength: 30 }),
        (sizes, outcomes) => {
          const committed: bigint[] = [];
          const deferred = new DeferredCommits((_t, _p, offset) => committed.push(offset));
          const written = new Set<bigint>(); // offsets whose write succeeded
          let offset = 0n;
          const open = sizes.map((size) => {
            const batch = deferred.handedOver(topic, 0, offset, offset + BigInt(size) - 1n);
            offset += BigInt(size);
            return batch;
          });
          for (const [pick, ok] of outcomes) {
            if (open.length === 0) break;
            const [batch] = open.splice(pick % open.length, 1);
            if (ok) {
              for (let o = batch!.first; o <= batch!.last; o++) written.add(o);
              deferred.written(batch!);
            } else deferred.failed(batch!);
          }
          for (const next of committed) for (let o = 0n; o < next; o++) expect(written.has(o)).toBe(true);
          expect([...committed].sort((x, y) => (x < y ? -1 : 1))).toEqual(committed); // only forward
        },
      ),
      { numRuns: 500 },
    );
  });
});
