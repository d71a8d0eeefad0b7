import { describe, expect, it } from 'vitest';
import { scoreClustering } from './clustering-scores.ts';

const map = (entries: Record<string, string>) => new Map(Object.entries(entries));

describe('scoreClustering', () => {
  it('scores a perfect clustering 1 everywhere, whatever the cluster names', () => {
    const s = scoreClustering(map({ a: 'x', b: 'x', c: 'y' }), map({ a: '1', b: '1', c: '2' }));
    expect(s.bcubed).toEqual({ precision: 1, recall: 1, f1: 1 });
    expect(s.pairwise).toEqual({ precision: 1, recall: 1, f1: 1 });
  });

  it('computes BCubed and pairwise by hand on a mixed cluster', () => {
    // Cluster x = {a, b, c}: a, b of story 1, c of story 2. Cluster y = {d} of story 2.
    const s = scoreClustering(
      map({ a: 'x', b: 'x', c: 'x', d: 'y' }),
      map({ a: '1', b: '1', c: '2', d: '2' }),
    );
    // BCubed precision: a, b 2/3 each, c 1/3, d 1 -> (2/3 + 2/3 + 1/3 + 1) / 4 = 2/3.
    expect(s.bcubed.precision).toBeCloseTo(2 / 3, 10);
    // BCubed recall: a, b 1 each, c 1/2, d 1/2 -> 3/4.
    expect(s.bcubed.recall).toBeCloseTo(3 / 4, 10);
    // Pairs put together: ab, ac, bc (3); truly together: ab, cd (2); both: ab.
    expect(s.pairwise.precision).toBeCloseTo(1 / 3, 10);
    expect(s.pairwise.recall).toBeCloseTo(1 / 2, 10);
    expect(s.clusters).toBe(2);
    expect(s.stories).toBe(2);
  });

  it('gives all-singletons full precision and the recall of one article per story', () => {
    const s = scoreClustering(map({ a: 'p', b: 'q', c: 'r' }), map({ a: '1', b: '1', c: '1' }));
    expect(s.bcubed.precision).toBe(1);
    expect(s.bcubed.recall).toBeCloseTo(1 / 3, 10);
    expect(s.pairwise.recall).toBe(0);
  });
});
