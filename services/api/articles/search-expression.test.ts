import { describe, expect, it } from 'vitest';
import { formatSearch, parseSearch, searchMatcher } from './search-expression.ts';

describe('the q syntax', () => {
  it.each([
    ['bank rates', '(bank AND rates)'],
    ['Bank  RATES', '(bank AND rates)'],
    ['"interest rates"', '"interest rates"'],
    ['anti-spyware', '"anti spyware"'],
    ['U.S. tariffs', '("u s" AND tariffs)'],
    ['fed OR ecb', '(fed OR ecb)'],
    ['fed or ecb', '(fed AND or AND ecb)'],
    ['rates NOT china', '(rates AND NOT china)'],
    ['rates -china', '(rates AND NOT china)'],
    ['rates -"trade war"', '(rates AND NOT "trade war")'],
    ['(fed OR ecb) AND rates', '((fed OR ecb) AND rates)'],
    ['fed OR ecb rates', '(fed OR (ecb AND rates))'],
    ['NOT NOT fed', null],
    ['((fed))', 'fed'],
    ['rates -(china OR japan)', '(rates AND NOT (china OR japan))'],
    ["' OR '1'='1", null],
    ['Über straße', '(über AND straße)'],
    ['fed || ecb', '(fed OR ecb)'],
    ['fed && rates', '(fed AND rates)'],
    ['rates !china', '(rates AND NOT china)'],
    ['rates ! china', '(rates AND NOT china)'],
    ['Yahoo! earnings', '(yahoo AND earnings)'],
    ['what next?', '(what AND next)'],
    ['"title:apple"', '"title apple"'],
    ['Update: markets', '(update AND markets)'],
    ['title: apple', '(title AND apple)'],
  ])('reads %j as %s', (query, expected) => {
    if (expected === null) expect(() => parseSearch(query)).toThrow();
    else expect(formatSearch(parseSearch(query))).toBe(expected);
  });

  it.each([
    ['', 'must contain at least one letter or digit'],
    ['&& !!', 'has only operators (AND, OR, NOT), no word to find'],
    ['.,; ...', 'must contain at least one letter or digit'],
    ['AND', 'has only operators (AND, OR, NOT), no word to find'],
    ['OR OR NOT', 'has only operators (AND, OR, NOT), no word to find'],
    ['econom*', '"econom*" at position 1: wildcards are not supported; q finds whole words'],
    ['rates wom?n', '"wom?n" at position 7: wildcards are not supported'],
    ['blair^2 brown', '"blair^2" at position 1: boosts (^) are not supported'],
    ['"blair brown"~3', '"~3" at position 14: fuzzy and proximity searches (~) are not supported'],
    ['blair~', '"blair~" at position 1: fuzzy and proximity searches'],
    ['blair|brown', '"blair|brown" at position 1: write OR between alternatives (blair OR brown), not |'],
    ['blair | brown', '"|" at position 7: write OR between alternatives'],
    ['title:apple', '"title:apple" at position 1: q does not take field names; search_in'],
    ['rates source:bbc', '"source:bbc" at position 7: q does not take field names; the source parameter'],
    ['fed ||', '|| at position 5 needs a term after it'],
    ['rates !', '! at position 7 needs a term after it'],
    ['"interest rates', 'the quote at position 1 is not closed'],
    ['(fed OR ecb', 'the parenthesis at position 1 is not closed'],
    ['fed) rates', 'the parenthesis at position 4 was not opened'],
    ['rates ()', 'the parentheses at position 7 are empty'],
    ['fed OR', 'OR at position 5 needs a term after it'],
    ['OR fed', 'OR at position 1 needs a term before it'],
    ['fed AND', 'AND at position 5 needs a term after it'],
    ['fed AND OR ecb', 'AND at position 5 needs a term after it'],
    ['rates NOT', 'NOT at position 7 needs a term after it'],
    ['rates -', '- at position 7 needs a term after it'],
    ['NOT china', 'needs a term to find, not only terms to leave out'],
    ['-china OR -japan', 'needs a term to find, not only terms to leave out'],
    ['fed OR -china', 'needs a term to find, not only terms to leave out'],
    [Array.from({ length: 21 }, (_, i) => `w${i}`).join(' '), 'at most 20 terms (this has 21)'],
    ['('.repeat(11) + 'x' + ')'.repeat(11), 'parentheses nest deeper than 10'],
    [
      `rates ${'x'.repeat(65)}`,
      'at position 7 has a word longer than 64 characters, which the index does not hold',
    ],
  ])('refuses %j: %s', (query, message) => {
    expect(() => parseSearch(query)).toThrow(message);
  });

  it('matches whole words, phrases in order, negation and alternatives', () => {
    const text = 'the fed held interest rates as china trade talks went on';
    const matches = (q: string) => searchMatcher(parseSearch(q))(text);
    expect(matches('fed rates')).toBe(true);
    expect(matches('"interest rates"')).toBe(true);
    expect(matches('"rates interest"')).toBe(false);
    expect(matches('rate')).toBe(false);
    expect(matches('fed -china')).toBe(false);
    expect(matches('(ecb OR fed) talks')).toBe(true);
    expect(matches('ecb OR boj')).toBe(false);
  });

  it('finds text of scripts written without spaces anywhere in it, however long the run', () => {
    const text = '日本の首相が辞任を表明、g7サミットへ';
    const matches = (q: string) => searchMatcher(parseSearch(q))(text);
    expect(matches('首相')).toBe(true);
    expect(matches('首相 辞任')).toBe(true);
    expect(matches('首相 -辞任')).toBe(false);
    expect(matches('"辞任 首相"')).toBe(false);
    expect(matches('G7サミット')).toBe(true);
    expect(matches('大統領 OR サミット')).toBe(true);
    // One piece of 70 characters: looked up by its pairs, so not refused as a word too long to index.
    expect(parseSearch('日本'.repeat(35))).toEqual({ kind: 'term', words: ['日本'.repeat(35)] });
  });
});
