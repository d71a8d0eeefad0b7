import { describe, expect, it } from 'vitest';
import { fold } from './fold.ts';

describe('fold', () => {
  it('lower-cases', () => {
    expect(fold('Time WARNER')).toBe('time warner');
  });

  it('drops diacritics, so "Nestlé" and "Nestle" compare equal', () => {
    expect(fold('Nestlé')).toBe('nestle');
    expect(fold('CITROËN')).toBe('citroen');
    expect(fold('Moët Hennessy')).toBe('moet hennessy');
  });

  it('spells out letters that do not decompose', () => {
    expect(fold('Straße')).toBe('strasse');
    expect(fold('Ørsted')).toBe('orsted');
    expect(fold('Łódź')).toBe('lodz');
  });

  it('undoes compatibility ligatures and typographic apostrophes', () => {
    expect(fold('ﬁnance')).toBe('finance');
    expect(fold('Acme’s')).toBe("acme's");
  });
});
