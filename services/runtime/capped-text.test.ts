import { describe, expect, it } from 'vitest';
import { capped } from './capped-text.ts';

describe('capped text', () => {
  it('leaves text within the cap alone', () => {
    expect(capped('short text', 100)).toBe('short text');
    expect(capped('x'.repeat(100), 100)).toBe('x'.repeat(100));
  });

  it('cuts at a word near the cap, marks the cut, and never splits a surrogate pair', () => {
    const words = Array.from({ length: 50 }, (_, i) => `word${i}`).join(' ');
    const cut = capped(words, 100);
    expect(cut.length).toBeLessThanOrEqual(100);
    expect(cut.endsWith('…')).toBe(true);
    expect(words.startsWith(cut.slice(0, -1))).toBe(true);
    expect(cut.at(-2)).not.toBe(' ');
    // No space near the cap: cut at the cap; an emoji across it goes whole or not at all.
    const emoji = '😀'.repeat(60);
    const cutEmoji = capped(emoji, 101);
    expect(cutEmoji.length).toBeLessThanOrEqual(101);
    expect([...cutEmoji.slice(0, -1)].every((c) => c === '😀')).toBe(true);
  });

  it('never cuts inside a grapheme: joined emoji, a flag, a skin tone, a letter and its accents', () => {
    for (const grapheme of ['👨\u200d👩\u200d👧\u200d👦', '🇬🇧', '👍🏽', 'e\u0301\u0323', 'नि']) {
      // Unspaced text (as Chinese and Japanese are), so the cut is not at a space; at every offset.
      for (let at = 90; at < 100; at++) {
        const text = `${'字'.repeat(at)}${grapheme}${'字'.repeat(50)}`;
        const cut = capped(text, 100);
        expect(cut.length, `${grapheme} at ${at}`).toBeLessThanOrEqual(100);
        expect(cut.endsWith('…')).toBe(true);
        const kept = cut.slice(0, -1);
        expect(text.startsWith(kept)).toBe(true);
        // At the cap, or before the grapheme when the cap is inside it: it is kept whole or not at all.
        const across = at < 99 && 99 < at + grapheme.length;
        expect(kept.length, `${grapheme} at ${at}`).toBe(across ? at : 99);
      }
    }
  });

  it('cuts inside a run of stacked accents longer than a grapheme can be read, never between surrogates', () => {
    const zalgo = `a${'\u0301'.repeat(300)}`;
    expect(capped(zalgo, 100)).toHaveLength(100);
    expect(capped(`${'𝒜'.repeat(60)}`, 101)).toBe(`${'𝒜'.repeat(50)}…`);
  });
});
