import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../test/support/mulberry32.ts';
import {
  fitsLimits,
  normaliseWhitespace,
  splitText,
  UnsplittableTextError,
  type TextLimits,
} from './text-chunks.ts';

const graphemeSegmenter = new Intl.Segmenter('en', { granularity: 'grapheme' });
const utf8 = (text: string) => new TextEncoder().encode(text).length;

/** Walks the normalised text piece by piece: each piece must come next, after at most one space. */
function reassembles(pieces: string[], text: string): boolean {
  const normalised = normaliseWhitespace(text);
  let at = 0;
  for (const piece of pieces) {
    if (normalised[at] === ' ') at++;
    if (!normalised.startsWith(piece, at)) return false;
    at += piece.length;
  }
  return at === normalised.length;
}

/** Every place a piece ends is a grapheme boundary of the normalised text. */
function cutsAtGraphemes(pieces: string[], text: string): boolean {
  const normalised = normaliseWhitespace(text);
  const boundaries = new Set(Array.from(graphemeSegmenter.segment(normalised), (s) => s.index));
  boundaries.add(normalised.length);
  let at = 0;
  for (const piece of pieces) {
    at = normalised.indexOf(piece, at) + piece.length;
    if (!boundaries.has(at)) return false;
  }
  return true;
}

// A seeded generator, so a failing case can be reproduced from its seed.
const random = mulberry32;

const vocabulary = [
  'the',
  'minister',
  'said',
  'Mr.',
  'Smith',
  'U.S.',
  '3.5',
  'million...',
  'really?',
  'e.g.',
  'café',
  'e\u0301te\u0301',
  'naïve',
  '<b>bold</b>',
  '&amp;',
  '"quoted."',
  'Straße',
  'Привет',
  'мир.',
  'مرحبا',
  '東京は晴れ。',
  '大阪は雨！',
  '本当？',
  '😀',
  '👨‍👩‍👧',
  '🇧🇷',
  'नमस्ते',
  'a,',
  'b;',
  'c:',
  '3,000',
  'https://example.com/a/very/long/path/that/goes/on/and/on/for/quite/a/while?query=string&x=1',
  '一二三四五六七八九十一二三四五六七八九十一二三四五六七八九十一二三四五六七八九十',
];
const spaces = [' ', ' ', ' ', '  ', '\n', '\t', '\u00a0', ' \n\n '];

function randomText(next: () => number, words: number): string {
  const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)]!;
  let text = next() < 0.3 ? pick(spaces) : '';
  for (let i = 0; i < words; i++) text += pick(vocabulary) + pick(spaces);
  return text;
}

describe('splitText', () => {
  it('keeps text that fits in one piece, whitespace normalised', () => {
    expect(splitText('  Hello\n\tworld.  ', { maxChars: 100 })).toEqual(['Hello world.']);
    expect(splitText(' \n\t ', { maxChars: 100 })).toEqual([]);
  });

  it('cuts between sentences first, packing as many as fit', () => {
    const text = 'One two three. Four five six. Seven eight nine.';
    expect(splitText(text, { maxChars: 30 })).toEqual(['One two three. Four five six.', 'Seven eight nine.']);
  });

  it('does not end a sentence at titles, initials, acronyms, decimals or ellipses inside a sentence', () => {
    const text =
      'Mr. Smith met Dr. Jones in the U.S. Army base. J. R. R. Tolkien earned $3.5 million. ' +
      'It was, e.g. in No. 5, odd... but true. Then it ended.';
    const pieces = splitText(text, { maxChars: 50 });
    expect(pieces).toEqual([
      'Mr. Smith met Dr. Jones in the U.S. Army base.',
      'J. R. R. Tolkien earned $3.5 million.',
      'It was, e.g. in No. 5, odd... but true.',
      'Then it ended.',
    ]);
  });

  it('cuts CJK text at its full stops', () => {
    expect(splitText('東京は晴れ。大阪は雨！本当？はい。', { maxChars: 8 })).toEqual([
      '東京は晴れ。',
      '大阪は雨！本当？',
      'はい。',
    ]);
  });

  it('cuts a long sentence at clauses, then at words', () => {
    const sentence =
      'The council met on Monday, and after a long debate about the budget it voted to adjourn.';
    expect(splitText(sentence, { maxChars: 40 })).toEqual([
      'The council met on Monday,',
      'and after a long debate about the budget',
      'it voted to adjourn.',
    ]);
    // "3,000" and "10:30" are not clause breaks.
    expect(splitText('About 3,000 people at 10:30 today', { maxChars: 20 })).toEqual([
      'About 3,000 people',
      'at 10:30 today',
    ]);
  });

  it('cuts an over-long token between graphemes, never inside a combining sequence or emoji', () => {
    const token = 'e\u0301'.repeat(10) + '👨‍👩‍👧'.repeat(3);
    const pieces = splitText(token, { maxChars: 9 });
    expect(pieces.every((p) => p.length <= 9)).toBe(true);
    expect(pieces.join('')).toBe(token);
    expect(cutsAtGraphemes(pieces, token)).toBe(true);
  });

  it('counts UTF-8 bytes when the limit is in bytes', () => {
    const text = 'Привет мир. '.repeat(20);
    const pieces = splitText(text, { maxBytes: 50 });
    expect(pieces.every((p) => utf8(p) <= 50)).toBe(true);
    expect(pieces.length).toBeGreaterThan(text.length / 50);
    expect(reassembles(pieces, text)).toBe(true);
  });

  it('leaves markup as text', () => {
    expect(splitText('<speak>Hi <b>x</b> &amp; y</speak>', { maxChars: 100 })).toEqual([
      '<speak>Hi <b>x</b> &amp; y</speak>',
    ]);
  });

  it('refuses a single grapheme longer than the limit rather than breaking it', () => {
    expect(() => splitText('👨‍👩‍👧', { maxBytes: 4 })).toThrow(UnsplittableTextError);
  });

  describe('on random text', () => {
    const cases: { seed: number; limits: TextLimits }[] = [];
    for (let seed = 1; seed <= 150; seed++) {
      const size = [12, 30, 80, 200, 500][seed % 5]!;
      cases.push({
        seed,
        limits:
          seed % 3 === 0
            ? { maxBytes: size * 2 }
            : seed % 3 === 1
              ? { maxChars: size }
              : { maxChars: size, maxBytes: size * 2 },
      });
    }

    it.each(cases)(
      'seed $seed: pieces fit, reassemble the input and cut only between graphemes',
      ({ seed, limits }) => {
        const text = randomText(random(seed), 5 + (seed % 60));
        const pieces = splitText(text, limits);
        expect(pieces.every((piece) => fitsLimits(piece, limits))).toBe(true);
        expect(pieces.every((piece) => piece.length > 0 && piece === piece.trim())).toBe(true);
        expect(reassembles(pieces, text)).toBe(true);
        expect(cutsAtGraphemes(pieces, text)).toBe(true);
      },
    );
  });
});
