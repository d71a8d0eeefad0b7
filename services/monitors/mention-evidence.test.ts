import { describe, expect, it } from 'vitest';
import { isEnglishWord } from './common-words.ts';
import {
  endsAnotherName,
  isCapitalised,
  isFollowedByLegalForm,
  isProperNoun,
  opensASentenceAlone,
} from './mention-evidence.ts';
import { tokenize } from './tokens.ts';

/** The span of the first occurrence of `name` (words separated by single spaces) in `text`. */
function at(text: string, name: string) {
  const { tokens, sentences } = tokenize([text]);
  const words = name.split(' ');
  const first = tokens.findIndex((_, i) => words.every((w, k) => tokens[i + k]?.text === w));
  if (first < 0) throw new Error(`${name} not in ${text}`);
  return { tokens, sentences, span: { first, last: first + words.length - 1 } };
}
const proper = (text: string, name: string) => {
  const { tokens, sentences, span } = at(text, name);
  return isProperNoun(tokens, sentences, span, isEnglishWord);
};
const legalForm = (text: string, name: string) => {
  const { tokens, span } = at(text, name);
  return isFollowedByLegalForm(tokens, span, isEnglishWord);
};

describe('isCapitalised', () => {
  it('lets function words inside a name stay lower case', () => {
    const { tokens, span } = at('He works at Bank of America.', 'Bank of America');
    expect(isCapitalised(tokens, span)).toBe(true);
  });

  it('needs every other word capitalised', () => {
    const { tokens, span } = at('a Red bull charged', 'Red bull');
    expect(isCapitalised(tokens, span)).toBe(false);
  });
});

describe('isProperNoun', () => {
  it('accepts a capitalised name mid-sentence', () => {
    expect(proper('Analysts expect rival Shell to follow.', 'Shell')).toBe(true);
  });

  it('does not accept a one-word name at the start of a sentence on its own', () => {
    expect(proper('Shell said profits rose.', 'Shell')).toBe(false);
  });

  it('accepts a name of several capitalised words at the start of a sentence', () => {
    expect(proper('Red Bull said sales rose.', 'Red Bull')).toBe(true);
  });

  it('does not accept the second word of another name', () => {
    expect(proper('Tory co-chairman Liam Fox said so.', 'Fox')).toBe(false);
    expect(proper('He told BBC News on Monday.', 'News')).toBe(false);
    expect(proper('Dr Fox said so.', 'Fox')).toBe(false);
  });

  it('accepts a name after a possessive or after an ordinary first word', () => {
    expect(proper("The deal lifted France's Total on Monday.", 'Total')).toBe(true);
    expect(proper('Rival Shell fell.', 'Shell')).toBe(true);
  });

  it('does not accept the first word of a longer name', () => {
    expect(proper('He reads the News of the World daily.', 'News')).toBe(false);
    expect(proper('Its engine, Tara (Total Abstract Rendering Architecture), is new.', 'Total')).toBe(false);
    expect(proper('It uses Total Abstract Rendering Architecture (TARA) now.', 'Total')).toBe(false);
  });

  it('accepts a company name used before a product or event name', () => {
    expect(proper('He loved the Apple Powerbook most.', 'Apple')).toBe(true);
    expect(proper("This weekend's Spar European Indoor Championships start.", 'Spar')).toBe(true);
  });

  it('gives no weight to capitals in a Title Case headline', () => {
    expect(proper('Why Investors Love Shell Again', 'Shell')).toBe(false);
  });
});

describe('opensASentenceAlone', () => {
  it('is a one-word name at the start of a sentence, where its capital says nothing', () => {
    const { tokens, span } = at('Next reported a rise in sales.', 'Next');
    expect(opensASentenceAlone(tokens, span)).toBe(true);
  });

  it('is not a name of several words, nor one inside a sentence', () => {
    const red = at('Red Bull said sales rose.', 'Red Bull');
    expect(opensASentenceAlone(red.tokens, red.span)).toBe(false);
    const next = at('Shares in Next rose.', 'Next');
    expect(opensASentenceAlone(next.tokens, next.span)).toBe(false);
  });
});

describe('endsAnotherName', () => {
  const ends = (text: string, name: string) => {
    const { tokens, span } = at(text, name);
    return endsAnotherName(tokens, span, isEnglishWord);
  };

  it('finds a name written as the last word of another', () => {
    expect(ends('Tory co-chairman Liam Fox said so.', 'Fox')).toBe(true);
    expect(ends('He and Mr Fox disagreed.', 'Fox')).toBe(true);
  });

  it('does not after a possessive, an ordinary first word, or at the start of a sentence', () => {
    expect(ends("Shares in France's Total rose.", 'Total')).toBe(false);
    expect(ends('Rival Shell fell.', 'Shell')).toBe(false);
    expect(ends('Fox said so.', 'Fox')).toBe(false);
  });
});

describe('isFollowedByLegalForm', () => {
  it('finds a legal form after the name', () => {
    expect(legalForm('Next plc said so.', 'Next')).toBe(true);
    expect(legalForm('Gap, Inc. said so.', 'Gap')).toBe(true);
    expect(legalForm("Next plc's profits rose.", 'Next')).toBe(true);
    expect(legalForm('Shell & Co said so.', 'Shell')).toBe(true);
  });

  it('needs a capital on legal forms that are English words', () => {
    expect(legalForm('Shell Group said so.', 'Shell')).toBe(true);
    expect(legalForm('Apple group said so.', 'Apple')).toBe(false);
  });

  it('does not take the start of a hyphenated word for a legal form', () => {
    expect(legalForm('Shell co-founder left.', 'Shell')).toBe(false);
  });
});
