import { describe, expect, it } from 'vitest';
import { categoryParam, categoryValue, enumInAnyCase, languageParam, sourceParam } from './params.ts';

describe('list parameters', () => {
  it('reads a source name that holds a comma as it is, besides its parts', () => {
    expect(sourceParam.parse('Demo: Medium: Invironment, food')).toEqual([
      'Demo: Medium: Invironment',
      'food',
      'Demo: Medium: Invironment, food',
    ]);
    expect(sourceParam.parse('src_1')).toEqual(['src_1']);
  });

  it('reads every run of neighbouring pieces as a name too: a list of names that hold commas', () => {
    const read = sourceParam.parse('Demo: BBC Sport (live, RSS),Demo: BBC Business (live, RSS)');
    expect(read).toContain('Demo: BBC Sport (live, RSS)');
    expect(read).toContain('Demo: BBC Business (live, RSS)');
    expect(sourceParam.parse('A (live, RSS),The Guardian')).toEqual(
      expect.arrayContaining(['A (live, RSS)', 'The Guardian']),
    );
  });

  it('reads a name as names are stored: accents composed, single spaces', () => {
    expect(sourceParam.parse('Le  Monde\u0301, src_1')).toEqual(['Le Mondé', 'src_1', 'Le Mondé, src_1']);
    expect(languageParam.parse('zh-Hant-TW,pt_BR')).toEqual(['zh', 'pt']);
  });

  it('reads other lists by their items only', () => {
    expect(categoryParam.parse('world, tech')).toEqual(['world', 'technology']);
  });

  it('reads an enumerated value in any case, and leaves an absent one absent', () => {
    const gender = enumInAnyCase(['female', 'male', 'neutral']).optional();
    expect(gender.parse('Female')).toBe('female');
    expect(gender.parse(undefined)).toBeUndefined();
    expect(gender.safeParse('other').error?.issues[0]?.message).toBe('must be one of female, male, neutral');
  });

  it('reads a category in a body as the category parameter reads it', () => {
    expect(['Tech', ' sport ', 'economy', 'world'].map((c) => categoryValue.parse(c))).toEqual([
      'technology',
      'sports',
      'business',
      'world',
    ]);
    expect(categoryValue.safeParse('cooking').error?.issues[0]?.message).toMatch(
      /^must be one of general, .*\(sport, tech, economy, finance, climate, international are read as theirs\)$/,
    );
    expect(categoryValue.safeParse(3).success).toBe(false);
  });
});
