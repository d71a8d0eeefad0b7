import { describe, expect, it } from 'vitest';
import { keyOf, tokenize } from './tokens.ts';

const words = (text: string) => tokenize([text]).tokens;
const keys = (text: string) => words(text).map((t) => t.key);

describe('tokenize', () => {
  it('keeps the punctuation inside names', () => {
    expect(words("AT&T, H&M and Sotheby's sold 3M shares.").map((t) => t.text)).toEqual([
      'AT&T',
      'H&M',
      'and',
      "Sotheby's",
      'sold',
      '3M',
      'shares',
    ]);
  });

  it('makes a lone "&" a word that compares as "and"', () => {
    expect(keys('Procter & Gamble')).toEqual(['procter', 'and', 'gamble']);
  });

  it('splits at hyphens and other punctuation, and records what separated the words', () => {
    const tokens = words('Acme-owned (Shell), Yahoo!');
    expect(tokens.map((t) => t.text)).toEqual(['Acme', 'owned', 'Shell', 'Yahoo']);
    expect(tokens.map((t) => t.gap)).toEqual(['', '-', ' (', '), ']);
  });

  it('makes each character of text written without spaces a word, with nothing between them', () => {
    const tokens = words('G7サミット、東京');
    expect(tokens.map((t) => t.text)).toEqual(['G7', 'サ', 'ミ', 'ッ', 'ト', '東', '京']);
    expect(tokens.map((t) => t.gap)).toEqual(['', '', '', '', '', '、', '']);
    // A Thai consonant keeps its vowel and tone marks.
    expect(words('หุ้นไทย').map((t) => t.text)).toEqual(['หุ้', 'น', 'ไ', 'ท', 'ย']);
  });

  it('folds keys, drops initialism dots and web domains', () => {
    expect(keys('Nestlé S.A. Amazon.com R.J. Reynolds')).toEqual([
      'nestle',
      'sa',
      'amazon',
      'rj',
      'reynolds',
    ]);
    expect(keyOf('U.S.')).toBe('us');
  });

  it('gives a possessive its base, curly apostrophe or straight', () => {
    expect(words("Acme's Acme’s Acme").map((t) => t.base)).toEqual(['acme', 'acme', 'acme']);
    expect(words("Acme's")[0]!.key).toBe("acme's");
  });

  it('marks capitalised and all-capital words', () => {
    const [shell, ba, iPod, three] = words("Shell BA's iPod 3M");
    expect([shell!.capitalised, shell!.upper]).toEqual([true, false]);
    expect([ba!.capitalised, ba!.upper]).toEqual([true, true]);
    expect(iPod!.capitalised).toBe(false);
    expect(three!.upper).toBe(true);
  });

  it('starts sentences after full stops, line breaks and opening quotes', () => {
    const initial = (text: string) =>
      words(text)
        .filter((t) => t.initial)
        .map((t) => t.text);
    expect(initial('Profits rose. Shell said so.\nNext came "Apple is big," he said.')).toEqual([
      'Profits',
      'Shell',
      'Next',
      'Apple',
    ]);
  });

  it('does not end a sentence at a full stop or exclamation mark before a lower-case word', () => {
    const tokens = words('Shares in Yahoo! rose. Executives of Yahoo! executives met.');
    expect(tokens.filter((t) => t.initial).map((t) => t.text)).toEqual(['Shares', 'Executives']);
  });

  it('numbers sentences across blocks', () => {
    const { tokens, sentences } = tokenize(['A headline', 'First one. Second one.']);
    expect(sentences.map((s) => s.block)).toEqual([0, 1, 1]);
    expect(tokens.map((t) => t.sentence)).toEqual([0, 0, 1, 1, 2, 2]);
  });

  it('tells a Title Case headline from prose', () => {
    const { sentences } = tokenize(['Shell Profits Beat City Forecasts', 'Profits at Shell beat forecasts.']);
    expect(sentences.map((s) => s.proseCase)).toEqual([false, true]);
  });
});
