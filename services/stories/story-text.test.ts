import { describe, expect, it } from 'vitest';
import { entityKey, storyWords } from './story-text.ts';

describe('story words', () => {
  it('stem English and drop its stop words', () => {
    expect(storyWords('The talks on mergers said', 'en')).toEqual(['talk', 'merger']);
  });

  it('stem the languages Snowball stems, before folding, and drop their stop words', () => {
    // Stemmed before folding: Russian's "й" is a letter of its endings, folded it would be "и".
    expect(storyWords('Новый закон, новые законы', 'ru')).toEqual(['нов', 'закон', 'нов', 'закон']);
    expect(storyWords('Die Straßen, der Straße', 'de')).toEqual(['strass', 'strass']);
    expect(storyWords('Las elecciones y la elección', 'es')).toEqual(['eleccion', 'eleccion']);
    // "dois" is a stop word, "um" too.
    expect(storyWords('As eleições e a eleição; um milhão, dois milhões', 'pt')).toEqual([
      'eleic',
      'eleic',
      'milh',
      'milh',
    ]);
  });

  it("take an elided article off the word it is written against, and Arabic's particles", () => {
    expect(storyWords("L'élection et d’autres élections", 'fr')).toEqual(['elect', 'autr', 'elect']);
    expect(storyWords("dell'accordo, gli accordi", 'it')).toEqual(['accord', 'accord']);
    expect(storyWords('والانتخابات الانتخابات انتخابات', 'ar')).toEqual(['انتخابات', 'انتخابات', 'انتخابات']);
  });

  it('keep the words of a language without a stemmer whole, vowel signs and all, then folded', () => {
    // Hindi's vowel signs are marks: a word is not cut at them (folding then drops them, as before).
    expect(storyWords('सरकार ने घोषणा की', 'hi')).toEqual(['सरकर', 'घषण']);
    expect(storyWords('Οι εκλογές', 'el')).toEqual(['εκλογες']);
  });

  it('take text written without spaces as its pairs of adjacent characters, beside the spaced words', () => {
    expect(storyWords('G7サミット開幕', 'ja')).toEqual(['g7', 'サミ', 'ミッ', 'ット', 'ト開', '開幕']);
    expect(storyWords('首相、辞任', 'ja')).toEqual(['首相', '辞任']);
    // Folding takes Hangul syllables apart; the pairs are of syllables again.
    expect(storyWords('서울 회담', 'ko')).toEqual(['서울', '회담']);
  });

  it('key an entity without the case ending its language gives a name, as the enrichment does', () => {
    expect(entityKey('Москве', 'ru')).toBe(entityKey('Москва', 'ru'));
    expect(entityKey('Emmanuelem Macronem', 'pl')).toBe(entityKey('Emmanuel Macron', 'pl'));
    expect(entityKey('Apple Inc.', 'en')).toBe('apple inc');
    expect(entityKey('Москве', null)).not.toBe(entityKey('Москва', null));
  });
});
