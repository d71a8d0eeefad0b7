import { describe, expect, it } from 'vitest';
import { segmentsInPieces } from './dictionary-words.ts';

const words = new Intl.Segmenter('zh', { granularity: 'word' });
const segments = (text: string, piece?: number) =>
  Array.from(segmentsInPieces(words, text, piece), ({ segment, index }) => ({ segment, index }));

describe('segmentsInPieces', () => {
  it('gives what the segmenter gives when the text fits one piece', () => {
    const text = '中国半导体产业发展迅速。日本銀行は利上げを決めた。';
    expect(segments(text)).toEqual(
      Array.from(words.segment(text), ({ segment, index }) => ({ segment, index })),
    );
  });

  it('cuts a long text after a mark or space, with indices into the whole text', () => {
    const sentence = '中国半导体产业发展迅速，';
    const text = sentence.repeat(50);
    const found = segments(text, 100);
    expect(found.map((s) => s.segment).join('')).toBe(text);
    for (const { segment, index } of found) expect(text.slice(index, index + segment.length)).toBe(segment);
    // Cut only at the commas: every word is whole.
    expect(new Set(found.map((s) => s.segment))).toEqual(
      new Set(Array.from(words.segment(sentence), (s) => s.segment)),
    );
  });

  it('cuts a run with no break at the piece size, never inside a surrogate pair', () => {
    const text = '𠀀'.repeat(300);
    const found = segments(text, 101);
    expect(found.map((s) => s.segment).join('')).toBe(text);
    expect(found.every((s) => !/[\ud800-\udbff]$/.test(s.segment))).toBe(true);
  });
});
