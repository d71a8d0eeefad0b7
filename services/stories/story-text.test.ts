import { describe, expect, it } from 'vitest';
import { storyWords } from './story-text.ts';

describe('story words', () => {
  it('stem English and drop its stop words', () => {
    expect(storyWords('The talks on mergers said', 'en')).toEqual(['talk', 'merger']);
  });

  it('take text written without spaces as its pairs of adjacent characters, beside the spaced words', () => {
    expect(storyWords('G7サミット開幕', 'ja')).toEqual(['g7', 'サミ', 'ミッ', 'ット', 'ト開', '開幕']);
    expect(storyWords('首相、辞任', 'ja')).toEqual(['首相', '辞任']);
    // Folding takes Hangul syllables apart; the pairs are of syllables again.
    expect(storyWords('서울 회담', 'ko')).toEqual(['서울', '회담']);
  });
});
