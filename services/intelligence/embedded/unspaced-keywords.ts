// Keywords of Chinese and Japanese text, which writes no spaces between its words and which the English
// tagger behind keywords.ts cannot take apart. Its words are ICU's (unspaced-words.ts), often finer than
// a reader would cut: 中国人民银行 comes out as 中国|人民|银行, 存款准备金率 as 存款|准备|金|率. So the keywords are the phrases the article repeats, not its words:
// every run of up to four adjacent content words (Han or Katakana, not a stop word, nothing between
// them) is a candidate, one that occurs twice or more is kept, and one that only ever occurs inside a
// longer kept phrase gives way to it (准备金 to 存款准备金率). Japanese marks its grammar in Hiragana, so
// there a run of Kanji and Katakana is already the noun compound (トヨタ自動車, 連結決算); in Chinese the
// stop words (的, 表示, 今年) end runs.
//
// Ranked as keywords.ts ranks (the headline counts three times, earlier sentences more), a phrase of
// several words above its parts.
import type { Sentence, Token } from './sentences.ts';

/** Han, Katakana and the prolonged sound mark, the characters a keyword is written in. */
const contentWord = /^[\p{sc=Han}\p{sc=Katakana}\u30fc\uff70]+$/u;
const hanOrKana = /[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}]/gu;
const letter = /\p{L}/gu;

/** The longest phrase considered, in ICU's words and in characters. */
const maxPhraseWords = 4;
const maxPhraseCharacters = 12;

/** Whether a text is mostly Chinese or Japanese: half or more of its letters are Han or Kana. */
export function isMostlyHanOrKana(text: string): boolean {
  const letters = text.match(letter)?.length ?? 0;
  return letters > 0 && (text.match(hanOrKana)?.length ?? 0) * 2 >= letters;
}

/** Weight of one occurrence: the headline counts three times, then earlier sentences more. */
function positionWeight(sentenceIndex: number, inTitle: boolean): number {
  return inTitle ? 3 : 1 + 1 / (1 + sentenceIndex / 3);
}

/** The runs of adjacent content words in a sentence (nothing, not even a space, between two), as words. */
function contentRuns(tokens: readonly Token[]): string[][] {
  const runs: string[][] = [];
  let run: string[] = [];
  for (const token of tokens) {
    if (run.length > 0 && token.spaced) [runs[runs.length], run] = [run, []];
    if (token.kind === 'word' && !token.stopWord && contentWord.test(token.text)) run.push(token.text);
    else if (run.length > 0) [runs[runs.length], run] = [run, []];
  }
  if (run.length > 0) runs.push(run);
  return runs;
}

export function extractUnspacedKeywords(
  title: readonly Sentence[],
  sentences: readonly Sentence[],
  max: number,
): string[] {
  const scores = new Map<string, number>();
  const counts = new Map<string, number>();
  /** Phrase -> the longer phrases found around it, with how often. */
  const containedIn = new Map<string, Map<string, number>>();
  const visit = (sentence: Sentence, inTitle: boolean) => {
    const weight = positionWeight(sentence.index, inTitle);
    for (const run of contentRuns(sentence.tokens)) {
      /** The run's phrases, with how often each occurs in it. */
      const seen = new Map<string, number>();
      for (let start = 0; start < run.length; start++) {
        let phrase = '';
        for (let end = start; end < run.length && end - start < maxPhraseWords; end++) {
          phrase += run[end]!;
          if (phrase.length > maxPhraseCharacters) break;
          if (phrase.length < 2) continue;
          scores.set(phrase, (scores.get(phrase) ?? 0) + weight);
          counts.set(phrase, (counts.get(phrase) ?? 0) + 1);
          seen.set(phrase, (seen.get(phrase) ?? 0) + 1);
        }
      }
      // Which phrase of this run holds which (every pair of occurrences), for the giving way below. Found
      // from each phrase's substrings, not by comparing every phrase with every other: a run of Chinese
      // without a stop word can be tens of thousands of words.
      for (const [outer, outerTimes] of seen)
        for (const inner of substrings(outer)) {
          const innerTimes = seen.get(inner);
          if (innerTimes === undefined) continue;
          const around = containedIn.get(inner) ?? new Map<string, number>();
          around.set(outer, (around.get(outer) ?? 0) + innerTimes * outerTimes);
          containedIn.set(inner, around);
        }
    }
  };
  title.forEach((s) => visit(s, true));
  sentences.forEach((s) => visit(s, false));

  const kept = [...counts.entries()].filter(([, count]) => count >= 2).map(([phrase]) => phrase);
  const keptSet = new Set(kept);
  const ranked = kept
    // A phrase found only inside one longer kept phrase, as often as that one, is a piece of it.
    .filter(
      (phrase) =>
        ![...(containedIn.get(phrase) ?? [])].some(
          ([outer, times]) => keptSet.has(outer) && times >= counts.get(phrase)!,
        ),
    )
    .map((phrase) => [phrase, scores.get(phrase)! * (1 + 0.25 * (phrase.length - 2))] as const)
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  return ranked.slice(0, max).map(([phrase]) => phrase);
}

/** The distinct substrings of at least two characters shorter than the phrase. */
function substrings(phrase: string): Set<string> {
  const found = new Set<string>();
  for (let length = 2; length < phrase.length; length++)
    for (let start = 0; start + length <= phrase.length; start++)
      found.add(phrase.slice(start, start + length));
  return found;
}
