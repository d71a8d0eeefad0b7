// Reading time at an adult's silent reading pace for non-fiction, ~230 words per minute (Brysbaert
// 2019 puts the average at 238; news has names and figures that slow it a little).
//
// Chinese and Japanese have no spaces to count words by, and their readers are measured in characters:
// about 255 a minute in Chinese and 357 in Japanese (the IReST texts, Trauzettel-Klosinski et al. 2012),
// Japanese telling itself apart by its kana. Thai, Lao, Khmer and Burmese are counted in the words ICU's
// dictionaries find, at the same 230 a minute.
import { segmentsInPieces } from '../../runtime/dictionary-words.ts';

export const wordsPerMinute = 230;
export const chineseCharactersPerMinute = 255;
export const japaneseCharactersPerMinute = 357;

const hanOrKana = /[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}\u30fc]/gu;
const kana = /[\p{sc=Hiragana}\p{sc=Katakana}]/u;
const southeastAsian = /[\p{sc=Thai}\p{sc=Lao}\p{sc=Khmer}\p{sc=Myanmar}]+/gu;
const words = new Intl.Segmenter('th', { granularity: 'word' });

export function readingTimeSeconds(text: string): number {
  const characters = text.match(hanOrKana)?.length ?? 0;
  let spaced = characters > 0 ? text.replace(hanOrKana, ' ') : text;
  let segmented = 0;
  spaced = spaced.replace(southeastAsian, (run) => {
    for (const segment of segmentsInPieces(words, run)) if (segment.isWordLike) segmented += 1;
    return ' ';
  });
  const spacedWords = spaced.split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w)).length;
  const perMinute = kana.test(text) ? japaneseCharactersPerMinute : chineseCharactersPerMinute;
  const minutes = (spacedWords + segmented) / wordsPerMinute + characters / perMinute;
  if (minutes === 0) return 0;
  return Math.max(1, Math.round(minutes * 60));
}
