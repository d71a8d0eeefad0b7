import { describe, expect, it } from 'vitest';
import { scriptLanguage } from './script-language.ts';
import { textLanguage } from './language.ts';

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
