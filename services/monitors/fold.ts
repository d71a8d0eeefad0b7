// How a company name and the words of an article are compared: without case and without
// diacritics, so that a monitor on "Nestle" finds "Nestlé" and one on "Citroën" finds "CITROEN".
// NFKD splits "é" into "e" and a combining accent (and "ﬁ" into "fi"), the accent is dropped; the
// few Latin letters that do not decompose are spelt out the way English-language news writes them.

const undecomposed: Record<string, string> = {
  ß: 'ss',
  æ: 'ae',
  Æ: 'ae',
  œ: 'oe',
  Œ: 'oe',
  ø: 'o',
  Ø: 'o',
  đ: 'd',
  Đ: 'd',
  ł: 'l',
  Ł: 'l',
  ı: 'i',
  þ: 'th',
  Þ: 'th',
};

const combiningMarks = /\p{M}+/gu;
const undecomposedLetters = /[ßæÆœŒøØđĐłŁıþÞ]/g;
const curlyApostrophe = /[\u2019\u02bc]/g;
// Checked first: most words in English news are plain ASCII and need only lower-casing.
const needsUnicodeFolding = /[^ -~\t\n\r]/;

/** Lower case, no diacritics, typographic apostrophes as "'". */
export function fold(text: string): string {
  if (!needsUnicodeFolding.test(text)) return text.toLowerCase();
  return text
    .normalize('NFKD')
    .replace(combiningMarks, '')
    .replace(undecomposedLetters, (letter) => undecomposed[letter] ?? letter)
    .replace(curlyApostrophe, "'")
    .toLowerCase();
}
