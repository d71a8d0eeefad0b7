import { describe, expect, it } from 'vitest';
import { withoutDiacritics } from './latin-letters.ts';

describe('withoutDiacritics', () => {
  it('takes the marks off, spells the letters that have none, and keeps the case', () => {
    expect(withoutDiacritics('Zürich, Erdoğan, Łódź, CITROËN')).toBe('Zurich, Erdogan, Lodz, CITROEN');
    expect(withoutDiacritics('Straße ẞ Ærø Œuvre Þór Ħal')).toBe('Strasse SS AEro OEuvre Thor Hal');
    // Compatibility forms too: a ligature is its letters.
    expect(withoutDiacritics('ﬁnance')).toBe('finance');
    // Other scripts are left as they are: no Latin letter to take them to.
    expect(withoutDiacritics('Путин 東京')).toBe('Путин 東京'.normalize('NFKD').replace(/\p{M}/gu, ''));
  });
});
