import { describe, expect, it } from 'vitest';
import { isEnglishWord } from './common-words.ts';
import { companyName, namesACompany, organizationKey } from './company-names.ts';

const name = (term: string) => companyName(term, isEnglishWord)!;
const variant = (term: string) => name(term).variants[0]!;

describe('companyName', () => {
  it('looks for the name without its legal form or a leading "The"', () => {
    expect(variant('Nissan Motor Co., Ltd.').keys).toEqual(['nissan', 'motor']);
    expect(variant('The Walt Disney Company').keys).toEqual(['walt', 'disney']);
    expect(name('Altria Group, Inc.').key).toBe('altria');
  });

  it('also looks for a name of several words written as one', () => {
    expect(name('Time Warner Inc.').variants.map((v) => v.keys)).toEqual([
      ['time', 'warner'],
      ['timewarner'],
    ]);
  });

  it('does not join words into an English word', () => {
    expect(name('Sun Set Ltd').variants.map((v) => v.keys)).toEqual([['sun', 'set']]);
  });

  it('treats short all-capital names that are not words as acronyms', () => {
    for (const term of ['BT Group plc', '3M Company', 'H&M', 'AT&T Inc.', 'LVMH', 'IBM']) {
      expect(variant(term).acronym, term).toBe(true);
      expect(variant(term).ambiguous, term).toBe(false);
    }
  });

  it('treats all-capital English words as ambiguous words, not acronyms', () => {
    expect(variant('BA')).toMatchObject({ acronym: false, ambiguous: true });
    expect(variant('NEXT plc')).toMatchObject({ acronym: false, ambiguous: true });
  });

  it('marks names made of English words, and very short names, as ambiguous', () => {
    for (const term of [
      'Next plc',
      'Shell',
      'Apple Computer, Inc.',
      'Red Bull GmbH',
      'Bank of America',
      'Zyx',
    ]) {
      expect(variant(term).ambiguous, term).toBe(true);
    }
    for (const term of ['Microsoft Corporation', 'Allied Domecq plc', 'British Airways', 'adidas AG']) {
      expect(variant(term).ambiguous, term).toBe(false);
    }
  });

  it('requires punctuation the monitor writes inside a name, but not a full stop followed by a space', () => {
    expect(variant('E*Trade').gaps).toEqual(['', '*']);
    expect(variant('R.J. Reynolds Tobacco').gaps).toEqual(['', '', '']);
    expect(variant('F-Secure').gaps).toEqual(['', '']);
  });

  it('compiles nothing from a name without words, or with function words only', () => {
    expect(companyName(' -- ', isEnglishWord)).toBeNull();
    expect(companyName('The', isEnglishWord)).toBeNull();
    expect(companyName('of the', isEnglishWord)).toBeNull();
  });
});

describe('organizationKey', () => {
  it('compares extracted organisation names folded and without legal form', () => {
    expect(organizationKey('Nestlé S.A.')).toBe('nestle');
    expect(organizationKey('Royal Dutch Shell plc')).toBe('royal dutch shell');
  });

  it('keeps a leading "The": "The Sun" is not "Sun"', () => {
    expect(organizationKey('The Sun')).toBe('the sun');
  });
});

describe('namesACompany', () => {
  it('refuses a legal form, or words like "the", alone', () => {
    for (const term of [
      'Inc.',
      'PLC',
      'GmbH & Co. KG',
      'The',
      'Co',
      'AG',
      'Ltd',
      'S.A.',
      'Group plc',
      '& Co.',
      'ПАО',
      'PT Tbk',
    ])
      expect(namesACompany(term), term).toBe(false);
  });

  it('takes any name with a word of its own, with or without its legal form', () => {
    for (const term of [
      'Gap Inc.',
      'Next plc',
      'ПАО Газпром',
      'The Economist',
      'Siemens AG',
      '3M',
      'Bank of America',
      'BP',
      'Nestlé S.A.',
    ])
      expect(namesACompany(term), term).toBe(true);
  });
});
