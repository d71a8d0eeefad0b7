// Latin text without its diacritics: "Zürich", "Erdoğan" and "Łódź" as "Zurich", "Erdogan" and "Lodz".
// NFKD splits "é" into "e" and a combining accent (and "ﬁ" into "fi"), the accent is dropped; the few
// Latin letters that do not decompose are spelt out the way English-language news writes them. The
// company matcher compares names so (monitors/fold.ts), and Festival is given English so
// (speech/embedded/festival-text.ts).

const undecomposed: Record<string, string> = {
  ß: 'ss',
  ẞ: 'SS',
  æ: 'ae',
  Æ: 'AE',
  œ: 'oe',
  Œ: 'OE',
  ø: 'o',
  Ø: 'O',
  đ: 'd',
  Đ: 'D',
  ð: 'd',
  Ð: 'D',
  ł: 'l',
  Ł: 'L',
  ı: 'i',
  þ: 'th',
  Þ: 'Th',
  ħ: 'h',
  Ħ: 'H',
  ŀ: 'l',
  Ŀ: 'L',
};

const combiningMarks = /\p{M}+/gu;
const undecomposedLetters = new RegExp(`[${Object.keys(undecomposed).join('')}]`, 'gu');

/** `text` with its combining marks taken off and the undecomposed Latin letters spelt out, case kept. */
export function withoutDiacritics(text: string): string {
  return text
    .normalize('NFKD')
    .replace(combiningMarks, '')
    .replace(undecomposedLetters, (letter) => undecomposed[letter] ?? letter);
}
