import { describe, expect, it } from 'vitest';
import { isEnglishWord } from './common-words.ts';

describe('isEnglishWord', () => {
  it('knows the company names that are also English words', () => {
    for (const word of ['next', 'shell', 'apple', 'target', 'gap', 'ford', 'total', 'virgin', 'fox']) {
      expect(isEnglishWord(word), word).toBe(true);
    }
  });

  it('does not know invented company names', () => {
    for (const word of ['microsoft', 'rosneft', 'lvmh', 'bupa', 'adidas']) {
      expect(isEnglishWord(word), word).toBe(false);
    }
  });

  it('expects folded words: capitals are never in the lexicon', () => {
    expect(isEnglishWord('Shell')).toBe(false);
  });
});
