import { describe, expect, it } from 'vitest';
import { integerWords, spokenWords } from './spoken-words.ts';

describe('spokenWords', () => {
  it('counts written words one each', () => {
    expect(spokenWords('Ad sales boost Time Warner profit.')).toBe(6);
  });

  it('counts numbers as they are read out, with their symbols and units', () => {
    expect(integerWords('7')).toBe(1);
    expect(integerWords('76')).toBe(2); // seventy six
    expect(integerWords('2003')).toBe(3); // two thousand three
    expect(integerWords('464,000')).toBe(5); // four hundred sixty four thousand
    expect(spokenWords('$1.13bn')).toBe(6); // one point one three billion dollars
    expect(spokenWords('rose 76% to')).toBe(5);
    expect(spokenWords('(£600m)')).toBe(4); // six hundred million pounds
  });
});
