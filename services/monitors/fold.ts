// How a company name and the words of an article are compared: without case and without
// diacritics, so that a monitor on "Nestle" finds "Nestlé" and one on "Citroën" finds "CITROEN".
// Diacritics go as runtime/latin-letters.ts takes them off.
import { withoutDiacritics } from '../runtime/latin-letters.ts';

const curlyApostrophe = /[\u2019\u02bc]/g;
// Checked first: most words in English news are plain ASCII and need only lower-casing.
const needsUnicodeFolding = /[^ -~\t\n\r]/;

/** Lower case, no diacritics, typographic apostrophes as "'". */
export function fold(text: string): string {
  if (!needsUnicodeFolding.test(text)) return text.toLowerCase();
  return withoutDiacritics(text).replace(curlyApostrophe, "'").toLowerCase();
}
