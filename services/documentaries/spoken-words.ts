// How many words a narrator says in a text: what a documentary's length is budgeted in (150 a minute).
// Words are what the spaces separate, except in Chinese, Japanese, Thai, Lao, Khmer and Burmese, which
// write none between words: there ICU's dictionary cuts them (半导体|出口|管制 is three words, where the
// spaces would say one a sentence). A Mandarin newsreader's 250–300 characters a minute are about 150 of
// those words, so the one budget serves both.
import { segmentsInPieces, unspacedScripts } from '../runtime/dictionary-words.ts';

const unspaced = new RegExp(`[${unspacedScripts}]`, 'u');
const letterOrDigit = /[\p{L}\p{N}]/u;
const segmenter = new Intl.Segmenter('zh', { granularity: 'word' });

export function countSpokenWords(text: string): number {
  let words = 0;
  for (const chunk of text.split(/\s+/u)) {
    if (!letterOrDigit.test(chunk)) continue;
    if (!unspaced.test(chunk)) {
      words += 1;
      continue;
    }
    for (const { isWordLike } of segmentsInPieces(segmenter, chunk)) if (isWordLike) words += 1;
  }
  return words;
}
