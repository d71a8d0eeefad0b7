import { describe, expect, it } from 'vitest';
import {
  declaredOrDetected,
  languageCode,
  languageOrUsual,
  textLanguage,
  functionWordLanguage,
} from './language.ts';

const portuguese =
  'O governo anunciou nesta quarta-feira um novo pacote de medidas para conter a inflação e estimular o crescimento econômico do país.';
// franc reads these as French, with other languages close behind.
const headlines =
  'Kanye West. Kim Kardashian. Taylor Swift tour. Man Utd vs Chelsea. Bitcoin price today. Elon Musk. Premier League table. NBA playoffs.';

describe('languageCode', () => {
  it('reads a declared language as feeds write it: codes with regions, three letters, names', () => {
    const cases: [string, string | null][] = [
      ['en-US', 'en'],
      ['pt_BR', 'pt'],
      ['DE', 'de'],
      ['deu', 'de'],
      ['ger', 'de'],
      ['eng-GB', 'en'],
      ['English', 'en'],
      ['english (US)', 'en'],
      ['Deutsch', 'de'],
      ['français', 'fr'],
      ['русский', 'ru'],
      ['chi', 'zh'],
      // withdrawn codes Java's Locale still sends
      ['iw', 'he'],
      ['iw-IL', 'he'],
      ['in_ID', 'id'],
      ['ji', 'yi'],
      ['xyz', null],
      ['Klingon', null],
      ['und', null],
      ['', null],
    ];
    for (const [declared, code] of cases)
      expect([declared, languageCode(declared)]).toEqual([declared, code]);
  });
});

describe('declaredOrDetected', () => {
  it('keeps the declared language unless detection is clear', () => {
    expect(declaredOrDetected(headlines, 'en')).toBe('en');
    expect(declaredOrDetected(portuguese, 'en')).toBe('pt');
    expect(declaredOrDetected(portuguese, 'pt')).toBe('pt');
  });

  it('keeps the declaration for a text too short to tell, and detects where nothing is declared', () => {
    expect(declaredOrDetected('Olá mundo', 'en')).toBe('en');
    expect(declaredOrDetected(portuguese, null)).toBe('pt');
    expect(declaredOrDetected('Olá mundo', null)).toBeNull();
  });
});

describe('languageOrUsual', () => {
  // English headlines as a reader might bundle them for speech: detection alone reads them as French.
  const bundle =
    'Labour plans maternity pay rise. Gallery unveils interactive tree. Ad sales boost Time Warner profit. Security scares spark browser fix';

  it('keeps the usual language unless detection plainly finds another', () => {
    expect(textLanguage(bundle)).toBe('fr');
    expect(languageOrUsual(bundle, 'en')).toBe('en');
    expect(languageOrUsual('The quick brown fox jumps over the lazy dog. '.repeat(112), 'en')).toBe('en');
    expect(languageOrUsual(portuguese, 'en')).toBe('pt');
    expect(
      languageOrUsual(
        'Die Zentralbank hat die Zinsen am Dienstag um einen halben Prozentpunkt erhöht und verwies auf die anhaltende Inflation bei Dienstleistungen.',
        'en',
      ),
    ).toBe('de');
    expect(languageOrUsual('Olá mundo', 'en')).toBe('en');
  });

  it('takes the language a script tells, at any length', () => {
    expect(languageOrUsual('Банк повысил ставку.', 'en')).toBe('ru');
    expect(languageOrUsual('日本銀行は火曜日に金利を引き上げた。', 'en')).toBe(
      textLanguage('日本銀行は火曜日に金利を引き上げた。'),
    );
  });
});

describe('functionWordLanguage', () => {
  it("tells a short text's language by its function words when they plainly say it", () => {
    expect(functionWordLanguage('Das ist eine gute Nachricht für die Bürger und die Familien.')).toBe('de');
    expect(functionWordLanguage('Decenas de muertos y heridos tras el terremoto; la crisis empeora.')).toBe(
      'es',
    );
    expect(functionWordLanguage('Le président a annoncé des mesures pour les familles et les écoles.')).toBe(
      'fr',
    );
    expect(functionWordLanguage('The council said it was not ready for the vote on the budget.')).toBe('en');
  });

  it('says nothing of a headline with few function words, or with several languages in it', () => {
    expect(functionWordLanguage('La La Land wins best picture')).toBeNull();
    expect(functionWordLanguage('Die Hard star Bruce Willis retires')).toBeNull();
    expect(functionWordLanguage('Markets rally')).toBeNull();
    // English that names Spanish words is English; a text half in one language and half in another is neither
    expect(functionWordLanguage('The story of el niño and la niña is told for the first time')).toBe('en');
    expect(functionWordLanguage('Die Welt und The Times on the day')).toBeNull();
  });
});
