import { describe, expect, it } from 'vitest';
import { scriptDenies, scriptLanguage } from './script-language.ts';
import { declaredOrDetected, textLanguage } from './language.ts';

describe('scriptLanguage', () => {
  it.each([
    ['Банк повысил ставку.', 'ru'],
    ['Банк підвищив ставку.', 'uk'],
    ['Народна банка је подигла каматну стопу.', 'sr'],
    ['央行宣布降息。', 'zh'],
    ['日本銀行は金利を引き上げた。', 'ja'],
    ['한국은행이 금리를 올렸다.', 'ko'],
    ['البنك المركزي يرفع الفائدة', 'ar'],
    ['بانک مرکزی نرخ بهره را افزایش داد', 'fa'],
    ['اسٹیٹ بینک نے شرح سود بڑھا دی', 'ur'],
    ['Η τράπεζα αύξησε τα επιτόκια.', 'el'],
    ['הבנק העלה את הריבית.', 'he'],
    ['रिज़र्व बैंक ने दरें बढ़ाईं।', 'hi'],
    ['ธนาคารขึ้นดอกเบี้ย', 'th'],
  ])('tells %s as %s', (text, language) => {
    expect(scriptLanguage(text)).toBe(language);
  });

  it('tells nothing from Latin letters, digits alone, or a foreign name in an English sentence', () => {
    expect(scriptLanguage('Die Bank hob den Zins.')).toBeNull();
    expect(scriptLanguage('2024 — 3.5%')).toBeNull();
    expect(
      scriptLanguage('The bank, known as Сбербанк at home, raised its rates again on Monday.'),
    ).toBeNull();
  });
});

describe('textLanguage', () => {
  it('detects from 120 characters, and tells a shorter text by its script', () => {
    expect(textLanguage('Банк повысил ставку.')).toBe('ru');
    expect(textLanguage('The bank raised rates.')).toBeNull();
    expect(
      textLanguage(
        'The central bank raised its main interest rate on Thursday for the third time this year, saying ' +
          'inflation was still far above its target.',
      ),
    ).toBe('en');
  });
});

describe('scriptDenies', () => {
  it.each([
    ['en', 'В Москве открылась новая станция метро.'],
    ['de', 'Η τράπεζα αύξησε τα επιτόκια.'],
    ['fr', '央行宣布降息。'],
    ['en', '日本銀行は金利を引き上げた。'],
    ['ru', 'The central bank raised its main rate again on Monday.'],
    ['ar', 'הבנק העלה את הריבית.'],
    ['ja', '한국은행이 금리를 올렸다.'],
  ])('%s is not written as in %s', (declared, text) => {
    expect(scriptDenies(declared, text)).toBe(true);
  });

  it.each([
    ['en', 'The bank raised rates.'],
    ['pt', 'O Banco Central elevou a taxa Selic — 13,75% ao ano.'],
    ['en', 'The bank, known as Сбербанк at home, raised its rates again on Monday.'],
    ['ru', 'Банк повысил ставку.'],
    ['uk', 'Банк повысил ставку.'],
    ['ja', '央行宣布降息。'],
    ['zh', '日本銀行は金利を引き上げた。'],
    ['sr', 'Vlada je usvojila budžet.'],
    ['sr', 'Влада је усвојила буџет.'],
    ['en', '2024 — 3.5%'],
    ['xx', 'Anything at all'],
  ])('%s may be written as in %s', (declared, text) => {
    expect(scriptDenies(declared, text)).toBe(false);
  });
});

describe('declaredOrDetected and the script', () => {
  it('overrules a declaration the script denies, at any length', () => {
    expect(declaredOrDetected('Банк повысил ставку.', 'en')).toBe('ru');
    expect(
      declaredOrDetected(
        'В Москве открылась новая станция метро. Станция стала двести пятидесятой в городе, сообщили ' +
          'в мэрии в понедельник, и пассажиры уже пользуются ею.',
        'en',
      ),
    ).toBe('ru');
    // Latin text declared Russian: overruled once detection can tell, kept while it cannot.
    expect(declaredOrDetected('iPhone 16', 'ru')).toBe('ru');
    expect(
      declaredOrDetected(
        'The central bank raised its main interest rate on Thursday for the third time this year, saying ' +
          'inflation was still far above its target.',
        'ru',
      ),
    ).toBe('en');
  });
});
