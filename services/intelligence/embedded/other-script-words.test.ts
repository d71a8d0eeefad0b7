import { describe, expect, it } from 'vitest';
import { parseSentences } from './sentences.ts';

const tokens = (text: string, language?: string) =>
  parseSentences(text, language).flatMap((s) =>
    s.tokens.map((t) => `${t.text}:${t.kind}${t.stopWord ? '*' : ''}`),
  );
const words = (text: string) =>
  parseSentences(text).flatMap((s) => s.tokens.filter((t) => t.kind === 'word').map((t) => t.text));

describe('words of the alphabets wink does not read', () => {
  it('makes Cyrillic, Greek, Hebrew and Arabic letter runs words, their function words stop words', () => {
    expect(tokens('Новые правила для искусственного интеллекта.')).toEqual([
      'Новые:word',
      'правила:word',
      'для:word*',
      'искусственного:word',
      'интеллекта:word',
      '.:punctuation',
    ]);
    expect(words('Νέοι κανόνες για την τεχνητή νοημοσύνη.')).toHaveLength(6);
    expect(words('כללים חדשים לבינה מלאכותית.')).toEqual(['כללים', 'חדשים', 'לבינה', 'מלאכותית']);
    expect(tokens('الذكاء الاصطناعي في أوروبا.')).toEqual([
      'الذكاء:word',
      'الاصطناعي:word',
      'في:word*',
      'أوروبا:word',
      '.:punctuation',
    ]);
  });

  it('cuts the full stop a script writes against its last word off it', () => {
    expect(tokens('नए नियम। दूसरा वाक्य।')).toEqual([
      'नए:word',
      'नियम:word',
      '।:punctuation',
      'दूसरा:word',
      'वाक्य:word',
      '।:punctuation',
    ]);
    expect(tokens('مصنوعی ذہانت کے نئے قواعد۔').slice(-2)).toEqual(['قواعد:word', '۔:punctuation']);
    expect(tokens('Նոր կանոններ համար։').slice(-2)).toEqual(['համար:word*', '։:punctuation']);
  });

  it("cuts off the Arabic script's comma, semicolon and question mark written against a word", () => {
    // Read as one unknown token, "عراقچی،" was no word: not a keyword, not a name before its title.
    expect(tokens('عباس عراقچی، وزیر امور خارجه')).toEqual([
      'عباس:word',
      'عراقچی:word',
      '،:punctuation',
      'وزیر:word',
      'امور:word',
      'خارجه:word',
    ]);
    expect(tokens('ماذا حدث؟ قال الوزير؛ ثم غادر.', 'ar').slice(1, 7)).toEqual([
      'حدث:word',
      '؟:punctuation',
      'قال:word*',
      'الوزير:word',
      '؛:punctuation',
      'ثم:word*',
    ]);
  });

  it('puts back together Latin words wink cut at a letter beyond Latin-1', () => {
    expect(words('Tiếng Việt trí tuệ nhân tạo. Hà Nội.')).toEqual([
      'Tiếng',
      'Việt',
      'trí',
      'tuệ',
      'nhân',
      'tạo',
      'Hà',
      'Nội',
    ]);
    expect(words('Żółć, Łódź i Kraków; Erdoğan w İstanbul’da.')).toEqual([
      'Żółć',
      'Łódź',
      'i',
      'Kraków',
      'Erdoğan',
      'w',
      'İstanbul’da',
    ]);
    expect(tokens('Persian joins with ZWNJ: می‌شود.').at(-2)).toBe('می‌شود:word');
  });

  it('leaves English as wink reads it, typographic marks and all', () => {
    expect(tokens('The U.S. “quoted” café — e.g. Mr. Smith’s, don’t.')).toEqual([
      'The:word*',
      'U.S.:word',
      '“:punctuation',
      'quoted:word',
      '”:punctuation',
      'café:word',
      '—:punctuation',
      'e.g.:word',
      'Mr.:word',
      'Smith’s:word',
      ',:punctuation',
      'do:word*',
      'n’t:word*',
      '.:punctuation',
    ]);
  });

  it('marks the stop words of the language it is told', () => {
    expect(tokens('Los despidos afectarán a las fábricas.', 'es')).toEqual([
      'Los:word*',
      'despidos:word',
      'afectarán:word',
      'a:word*',
      'las:word*',
      'fábricas:word',
      '.:punctuation',
    ]);
    // Without the language, only English's: "los" is not one.
    expect(tokens('Los despidos.')[0]).toBe('Los:word');
  });
});
