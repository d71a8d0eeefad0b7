import { describe, expect, it } from 'vitest';
import {
  indexedTerms,
  isUnspaced,
  lookupTerms,
  mayBeUnspacedCharacter,
  phrasePattern,
  searchWords,
  wordsPattern,
} from './search-words.ts';

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

  it('keep the combining vowel signs and viramas of Indic scripts, and Arabic harakat, inside the word', () => {
    expect(searchWords('हिन्दी समाचार')).toEqual(['हिन्दी', 'समाचार']);
    expect(searchWords('বাংলা খবর')).toEqual(['বাংলা', 'খবর']);
    expect(searchWords('தமிழ் செய்திகள்')).toEqual(['தமிழ்', 'செய்திகள்']);
    expect(searchWords('كَتَبَ الوَلَدُ')).toEqual(['كَتَبَ', 'الوَلَدُ']);
  });

  it('take a run of unspaced text (CJK, Thai, ...) as one piece, apart from spaced words next to it', () => {
    expect(searchWords('日本の首相が辞任を表明')).toEqual(['日本の首相が辞任を表明']);
    expect(searchWords('G7サミット、2024年に開催')).toEqual(['g7', 'サミット', '2024', '年に開催']);
    expect(searchWords('ข่าวไทย วันนี้')).toEqual(['ข่าวไทย', 'วันนี้']);
    expect(searchWords('서울에서 회의')).toEqual(['서울에서', '회의']);
    expect(searchWords('サーバー')).toEqual(['サーバー']);
    expect(['日本', 'ข่าว', '서울', 'សួស្តី', 'မြန်မာ', 'ລາວ', 'ー'].every(isUnspaced)).toBe(true);
    expect(['japan', 'हिन्दी', 'Привет', '2024'].some(isUnspaced)).toBe(false);
  });
});

describe('the quick test for unspaced text', () => {
  it('says "maybe" for every unspaced character, so no text with one takes the spaced words path', () => {
    const missed: string[] = [];
    for (let cp = 0; cp <= 0x10ffff; cp++) {
      if (cp >= 0xd800 && cp <= 0xdfff) continue;
      const c = String.fromCodePoint(cp);
      if (isUnspaced(c) && !mayBeUnspacedCharacter(c)) missed.push(cp.toString(16));
    }
    expect(missed).toEqual([]);
    // And "no" for the Latin letters and punctuation of most text.
    expect(['a', 'é', '“', '—', '€', 'ß', 'Я', 'ह'].some(mayBeUnspacedCharacter)).toBe(false);
  });

  it('only decides how fast the words are found, not which', () => {
    expect(searchWords('「Brexit」は、英国のEU離脱')).toEqual(['brexit', 'は', '英国の', 'eu', '離脱']);
    expect(searchWords('Emoji 😀 news')).toEqual(['emoji', 'news']);
  });
});

describe('index terms', () => {
  it('are the spaced words, and the characters and adjacent pairs of unspaced runs', () => {
    expect(indexedTerms('G7 首相が')).toEqual(['g7', '首', '首相', '相', '相が', 'が']);
    expect(indexedTerms('Rates rise')).toEqual(searchWords('Rates rise'));
  });

  it('looked up for a query hold every term a text with the query in it has', () => {
    expect(lookupTerms(['首相'])).toEqual(['首相']);
    expect(lookupTerms(['首'])).toEqual(['首']);
    expect(lookupTerms(['g7', 'サミット'])).toEqual(['g7', 'サミ', 'ミッ', 'ット']);
    const text = indexedTerms('日本の首相が辞任を表明、G7サミットで');
    for (const query of ['首相', '首相が辞任', '辞', 'G7サミット', '表明'])
      for (const term of lookupTerms(searchWords(query))) expect(text, `${query}: ${term}`).toContain(term);
  });

  it('count characters outside the basic plane as one', () => {
    expect(indexedTerms('𠮷野')).toEqual(['𠮷', '𠮷野', '野']);
  });
});

describe('the words pattern', () => {
  const matches = (query: string, text: string) =>
    new RegExp(wordsPattern(searchWords(query), 'js'), 'u').test(text.toLowerCase());

  it('matches spaced words whole, in order, with only punctuation between them', () => {
    expect(matches('interest rates', 'Interest rates rise')).toBe(true);
    expect(matches('interest rates', 'interest-rates')).toBe(true);
    expect(matches('interest rates', 'interest and rates')).toBe(false);
    expect(matches('rate', 'rates')).toBe(false);
    expect(matches('हिन्दी', 'यह हिन्दी समाचार')).toBe(true);
    expect(matches('हिन', 'यह हिन्दी समाचार')).toBe(false);
  });

  it('finds unspaced text anywhere, and a spaced word next to it as a whole word', () => {
    expect(matches('首相', '日本の首相が辞任')).toBe(true);
    expect(matches('首相', '日本の首長が')).toBe(false);
    expect(matches('กรุงเทพ', 'ข่าวกรุงเทพวันนี้')).toBe(true);
    expect(matches('서울', '서울에서 회의')).toBe(true);
    expect(matches('g7', 'サミットG7で')).toBe(true);
    expect(matches('g7', 'g77サミット')).toBe(false);
    expect(matches('G7サミット', 'G7・サミット')).toBe(true);
    expect(matches('G7サミット', 'G7 summit サミット')).toBe(false);
  });

  it('is written for re2 with script names re2 knows', () => {
    const re2 = wordsPattern(['g7', 'サミット'], 're2');
    expect(re2).toContain('\\p{Han}');
    expect(re2).not.toContain('sc=');
  });
});

describe('a webhook phrase', () => {
  it('is whole words in spaced text and anywhere in unspaced text', () => {
    expect(phrasePattern('rates').test('rates rise')).toBe(true);
    expect(phrasePattern('rates').test('pirates')).toBe(false);
    expect(phrasePattern('u.s. rates').test('the u.s.  rates')).toBe(true);
    expect(phrasePattern('首相').test('日本の首相が辞任')).toBe(true);
    expect(phrasePattern('g7').test('g7サミット')).toBe(true);
    expect(phrasePattern('g7').test('g7s')).toBe(false);
    expect(phrasePattern('(a+)+$').test('(a+)+$ x')).toBe(true);
  });
});
