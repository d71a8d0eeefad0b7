import { describe, expect, it } from 'vitest';
import { characterCount } from './character-count.ts';

describe('characterCount', () => {
  it('counts code points, as JSON Schema maxLength does', () => {
    expect(characterCount('')).toBe(0);
    expect(characterCount('news')).toBe(4);
    expect(characterCount('😀')).toBe(1);
    expect(characterCount('Markets 😀😀 rose')).toBe(15);
    expect(characterCount('𠮷野家')).toBe(3); // a CJK character outside the BMP
    expect(characterCount('e\u0301')).toBe(2); // e and a combining accent: two code points
  });

  it('counts a lone surrogate as one character, wherever it is', () => {
    expect(characterCount('\ud83d')).toBe(1);
    expect(characterCount('a\ude00b')).toBe(3);
    expect(characterCount('\ud83d\ud83d\ude00')).toBe(2);
  });

  it('agrees with iterating the string on long mixed text', () => {
    const text = 'Märkte 😀 стали 𠮷 '.repeat(5_000);
    expect(characterCount(text)).toBe([...text].length);
  });
});
