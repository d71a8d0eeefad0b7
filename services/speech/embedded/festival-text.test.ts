import { describe, expect, it } from 'vitest';
import { festivalText, festivalUnreadable } from './festival-text.ts';

describe('festivalText', () => {
  it('takes the accents off Latin letters and spells the letters that have none as English does', () => {
    expect(festivalText('The café in Zürich; Erdoğan met Łódź officials.')).toBe(
      'The cafe in Zurich; Erdogan met Lodz officials.',
    );
    expect(festivalText('Straße, Ærø, Þór, Œuvre')).toBe('Strasse, AEro, Thor, OEuvre');
  });

  it('writes typographic quotes, dashes, ellipses and spaces in ASCII', () => {
    expect(festivalText('He said\u00a0— quietly —\u202f“no”… it’s ‘fine’')).toBe(
      `He said - quietly - "no"... it's 'fine'`,
    );
  });

  it('writes an amount of money out as words Festival reads, in the singular for one', () => {
    expect(festivalText('It costs £53m, $1.5bn, €10 and US$ 2 billion; a £1 coin; ₹500k.')).toBe(
      'It costs 53 million pounds, 1.5 billion dollars, 10 euros and 2 billion US dollars; a 1 pound coin; 500 thousand rupees.',
    );
    // A word that merely starts like a multiplier is no multiplier.
    expect(festivalText('£5 more')).toBe('5 pounds more');
    expect(festivalText('It was 30°C, 86°F and 5° off.')).toBe(
      'It was 30 degrees Celsius, 86 degrees Fahrenheit and 5 degrees off.',
    );
  });

  it('leaves out what it cannot write in ASCII, and finds a text with nothing left unreadable', () => {
    expect(festivalText('The Kremlin said Путин will visit 東京.')).toBe('The Kremlin said will visit .');
    expect(festivalUnreadable('Банк повысил ставку.')).toMatch(/only Latin letters/);
    expect(festivalUnreadable('東京')).toMatch(/only Latin letters/);
    expect(festivalUnreadable('The Kremlin said Путин will visit.')).toBeNull();
    expect(festivalUnreadable('2026')).toBeNull();
    // small capitals and superscripts have no ASCII letter left: silence, so unreadable
    expect(festivalUnreadable('ʜᴇʟʟᴏ')).toMatch(/only Latin letters and digits/);
  });

  it("writes another script's digits as 0-9: a number reads the same in any script", () => {
    expect(festivalText('١٢٣٤٥')).toBe('12345'); // Arabic-Indic
    expect(festivalText('۱۲۳ and १२३ and ２０２６ and ๕')).toBe('123 and 123 and 2026 and 5');
    expect(festivalText('𝟓 points')).toBe('5 points');
    expect(festivalUnreadable('١٢٣٤٥')).toBeNull();
    expect(festivalUnreadable('٣')).toBeNull();
  });
});
