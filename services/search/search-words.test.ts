import { describe, expect, it } from 'vitest';
import { searchWords } from './search-words.ts';

describe('search words', () => {
  it('are runs of letters and digits, lowercased', () => {
    expect(searchWords('Brexit: the UK’s 2nd vote, «Élysée»')).toEqual([
      'brexit',
      'the',
      'uk',
      's',
      '2nd',
      'vote',
      'élysée',
    ]);
  });

  it('are the same words whether the text came composed or decomposed', () => {
    const composed = 'simula\u00e7\u00f5es em S\u00e3o Paulo';
    const decomposed = composed.normalize('NFD');
    expect(decomposed).not.toBe(composed);
    expect(searchWords(decomposed)).toEqual(searchWords(composed));
    expect(searchWords(decomposed)).toEqual(['simulações', 'em', 'são', 'paulo']);
  });
});
