import { describe, expect, it } from 'vitest';
import { isEnglishWord } from './common-words.ts';
import { companyName } from './company-names.ts';
import { addName, findNames, type NameIndex } from './name-index.ts';
import { tokenize } from './tokens.ts';

/** Occurrences as [monitor, term, text] for monitors given as lists of names. */
function occurrences(monitors: string[][], blocks: string[]): [number, number, string][] {
  const index: NameIndex = new Map();
  monitors.forEach((terms, monitor) =>
    terms.forEach((term, t) => {
      for (const variant of companyName(term, isEnglishWord)!.variants)
        addName(index, { monitor, term: t, variant });
    }),
  );
  const { tokens } = tokenize(blocks);
  return [...findNames(tokens, index).values()].flat().map(({ name, first, last }) => [
    name.monitor,
    name.term,
    tokens
      .slice(first, last + 1)
      .map((t) => t.text)
      .join(' '),
  ]);
}

describe('findNames', () => {
  it('finds names of one and of several words, by monitor and in text order', () => {
    expect(
      occurrences([['Microsoft'], ['Bank of America']], ['', 'Microsoft and Bank of America met. Microsoft']),
    ).toEqual([
      [0, 0, 'Microsoft'],
      [0, 0, 'Microsoft'],
      [1, 0, 'Bank of America'],
    ]);
  });

  it('finds a two-word name whose second word is possessive', () => {
    expect(occurrences([['Time Warner']], ['', "Time Warner's profits"])).toEqual([[0, 0, "Time Warner's"]]);
  });

  it('finds many names sharing a first word, each only where its second word follows', () => {
    const monitors = Array.from({ length: 500 }, (_, i) => [`New Zorvex${i} Bank`]);
    expect(occurrences(monitors, ['', 'New figures from New Zorvex42 Bank.'])).toEqual([
      [42, 0, 'New Zorvex42 Bank'],
    ]);
  });

  it('hides a name inside a longer name of the same monitor, not of another monitor', () => {
    expect(occurrences([['Royal Dutch Shell', 'Shell'], ['Shell']], ['', 'Royal Dutch Shell rose.'])).toEqual(
      [
        [0, 0, 'Royal Dutch Shell'],
        [1, 0, 'Shell'],
      ],
    );
  });

  it('keeps a name within the title or within the text', () => {
    expect(occurrences([['Allied Domecq']], ['Shares in Allied', 'Domecq rose.'])).toEqual([]);
  });

  it('does not let a line break or other punctuation come between the words of a name', () => {
    expect(occurrences([['Allied Domecq']], ['', 'Allied\nDomecq; Allied, Domecq; Allied-Domecq'])).toEqual([
      [0, 0, 'Allied Domecq'],
    ]);
  });

  it('finds acronyms only in capitals', () => {
    expect(occurrences([['LVMH']], ['', 'lvmh Lvmh LVMH'])).toEqual([[0, 0, 'LVMH']]);
  });

  it('finds a name hyphenated to a lower-case word, never half of a hyphenated name', () => {
    expect(occurrences([['Zorvex'], ['Royce']], ['', 'Zorvex-owned Rolls-Royce, Zorvex-Benz'])).toEqual([
      [0, 0, 'Zorvex'],
    ]);
  });
});
