import { describe, expect, it } from 'vitest';
import { isLegalSuffix, lengthWithoutLegalForm, withoutUnspacedLegalForms } from './legal-suffixes.ts';

const core = (...keys: string[]) => keys.slice(0, lengthWithoutLegalForm(keys));

describe('legal forms', () => {
  it('recognises legal forms from many jurisdictions', () => {
    for (const key of [
      'inc',
      'incorporated',
      'ltd',
      'limited',
      'plc',
      'gmbh',
      'ag',
      'sa',
      'nv',
      'bv',
      'se',
    ]) {
      expect(isLegalSuffix(key), key).toBe(true);
    }
    for (const key of ['llc', 'llp', 'corp', 'corporation', 'co', 'company', 'group', 'holdings', 'oyj']) {
      expect(isLegalSuffix(key), key).toBe(true);
    }
    expect(isLegalSuffix('motors')).toBe(false);
  });

  it('takes trailing legal forms off a name, stacked ones too', () => {
    expect(core('acme', 'inc')).toEqual(['acme']);
    expect(core('nissan', 'motor', 'co', 'ltd')).toEqual(['nissan', 'motor']);
    expect(core('lehman', 'brothers', 'holdings', 'inc')).toEqual(['lehman', 'brothers']);
  });

  it('takes "& Co" off whole', () => {
    expect(core('jp', 'morgan', 'and', 'co')).toEqual(['jp', 'morgan']);
  });

  it('keeps an "and" that is part of the name', () => {
    expect(core('procter', 'and', 'gamble', 'co')).toEqual(['procter', 'and', 'gamble']);
  });

  it('never strips a name to nothing or to function words', () => {
    expect(core('group', 'plc')).toEqual(['group', 'plc']);
    expect(core('the', 'company')).toEqual(['the', 'company']);
  });

  it('leaves legal-form words that are not at the end', () => {
    expect(core('group', 'menatep', 'limited')).toEqual(['group', 'menatep']);
  });

  it('takes the legal forms of names written without spaces off either end, never to nothing', () => {
    expect(withoutUnspacedLegalForms('トヨタ自動車株式会社')).toBe('トヨタ自動車');
    expect(withoutUnspacedLegalForms('株式会社ソニー')).toBe('ソニー');
    expect(withoutUnspacedLegalForms('腾讯控股有限公司')).toBe('腾讯');
    expect(withoutUnspacedLegalForms('中国银行股份有限公司')).toBe('中国银行');
    expect(withoutUnspacedLegalForms('삼성전자 주식회사')).toBe('삼성전자');
    expect(withoutUnspacedLegalForms('株式会社')).toBe('株式会社');
    expect(withoutUnspacedLegalForms('Acme Holdings')).toBe('Acme Holdings');
  });
});
