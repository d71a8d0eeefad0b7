// Reading time and reading level are arithmetic on the text: computed here rather than asked of
// the model, so they cost nothing, never hallucinate and agree between runs. The formulas are
// the English ones (Flesch, Flesch-Kincaid); for other languages they are a rough guide only.
import type { Education } from '../provider.ts';

const wordsPerMinute = 230;

const wordPattern = /[\p{L}\p{N}]+(?:['’-][\p{L}\p{N}]+)*/gu;

export function countWords(text: string): number {
  return text.match(wordPattern)?.length ?? 0;
}

export function readingTimeSeconds(text: string): number {
  return Math.round((countWords(text) / wordsPerMinute) * 60);
}

/** Vowel groups, less a silent final "e": crude, and within a grade of dictionary counts. */
export function countSyllables(word: string): number {
  const w = word.toLowerCase().replace(/[^a-zà-ÿ]/g, '');
  if (w.length === 0) return 0;
  if (w.length <= 3) return 1;
  const trimmed = w.replace(/(?:[^laeiouy]es|[^laeiouy]ed|[^laeiouy]e)$/, '').replace(/^y/, '');
  const groups = trimmed.match(/[aeiouyà-ÿ]+/g)?.length ?? 0;
  return Math.max(1, groups);
}

export function readingLevel(text: string): NonNullable<Education['readingLevel']> {
  const words = text.match(wordPattern) ?? [];
  if (words.length === 0) return { grade: 0, ease: 100, label: 'elementary' };
  const sentences = Math.max(1, text.split(/[.!?…]+(?:\s|$)|\n\s*\n/).filter((s) => /\S/.test(s)).length);
  const syllables = words.reduce((sum, word) => sum + countSyllables(word), 0);
  const wordsPerSentence = words.length / sentences;
  const syllablesPerWord = syllables / words.length;
  const grade = Math.max(0, 0.39 * wordsPerSentence + 11.8 * syllablesPerWord - 15.59);
  const ease = Math.min(100, Math.max(0, 206.835 - 1.015 * wordsPerSentence - 84.6 * syllablesPerWord));
  return { grade: roundToTenth(grade), ease: roundToTenth(ease), label: labelFor(grade) };
}

function labelFor(grade: number): NonNullable<Education['readingLevel']>['label'] {
  if (grade < 6) return 'elementary';
  if (grade < 9) return 'middle school';
  if (grade < 13) return 'high school';
  if (grade < 17) return 'college';
  return 'graduate';
}

const roundToTenth = (n: number) => Math.round(n * 10) / 10;
