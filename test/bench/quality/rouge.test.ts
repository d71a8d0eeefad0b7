import { describe, expect, it } from 'vitest';
import { rougeL, rougeLsum, rougeN, rougeTokens } from './rouge.ts';

describe('rouge', () => {
  it('tokenises lowercase on anything that is not a letter or digit', () => {
    expect(rougeTokens("Profits rose 76% to $1.13bn, AOL's")).toEqual([
      'profits',
      'rose',
      '76',
      'to',
      '1',
      '13bn',
      'aol',
      's',
    ]);
  });

  it('scores unigram and bigram overlap (hand-computed)', () => {
    // the cat sat on the mat / the cat lay on the mat: 5 of 6 unigrams, 3 of 5 bigrams.
    const r1 = rougeN('The cat sat on the mat.', 'the cat lay on the mat', 1);
    expect(r1.precision).toBeCloseTo(5 / 6);
    expect(r1.recall).toBeCloseTo(5 / 6);
    expect(r1.f1).toBeCloseTo(5 / 6);
    expect(rougeN('the cat sat on the mat', 'the cat lay on the mat', 2).f1).toBeCloseTo(3 / 5);
  });

  it('clips repeated n-grams to the count in the reference', () => {
    // candidate "the the the" against "the cat": 1 match, P = 1/3, R = 1/2.
    const r = rougeN('the the the', 'the cat', 1);
    expect(r.precision).toBeCloseTo(1 / 3);
    expect(r.recall).toBeCloseTo(1 / 2);
    expect(r.f1).toBeCloseTo(0.4);
  });

  it('scores the longest common subsequence for ROUGE-L', () => {
    expect(rougeL('the cat sat on the mat', 'the cat lay on the mat').f1).toBeCloseTo(5 / 6);
    // a b c d / d c b a: LCS 1 of 4.
    expect(rougeL('a b c d', 'd c b a').f1).toBeCloseTo(1 / 4);
    // P = 2/2, R = 2/4 -> F = 2/3.
    expect(rougeL('a c', 'a b c d').f1).toBeCloseTo(2 / 3);
  });

  it('takes the union of LCS hits per reference sentence for ROUGE-Lsum (Lin 2004 example)', () => {
    // r = w1..w5; c1 shares w1 w2, c2 shares w1 w3 w5: union 4 of 5, candidate has 10 tokens.
    const r = rougeLsum(['w1 w2 w6 w7 w8', 'w1 w3 w8 w9 w5'], ['w1 w2 w3 w4 w5']);
    expect(r.recall).toBeCloseTo(4 / 5);
    expect(r.precision).toBeCloseTo(4 / 10);
    expect(r.f1).toBeCloseTo((2 * 0.8 * 0.4) / 1.2);
  });

  it('does not punish reordered sentences in ROUGE-Lsum, unlike flat ROUGE-L', () => {
    const ref = ['one two three', 'four five six'];
    const cand = ['four five six', 'one two three'];
    expect(rougeLsum(cand, ref).f1).toBeCloseTo(1);
    expect(rougeL(cand.join(' '), ref.join(' ')).f1).toBeCloseTo(0.5);
  });

  it('is zero, not NaN, for empty text', () => {
    expect(rougeN('', 'the cat', 1).f1).toBe(0);
    expect(rougeL('the cat', '').f1).toBe(0);
  });
});
