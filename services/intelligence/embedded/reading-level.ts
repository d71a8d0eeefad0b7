// How hard a text is to read: the Flesch-Kincaid grade (the US school year that can follow it) and
// Flesch reading ease (0..100, higher is easier), both from words per sentence and syllables per
// word. Syllables come from the `syllable` package, which knows English exceptions a vowel-group
// count gets wrong ("business" has 2, "created" 3).
import { syllable } from 'syllable';
import type { Education } from '../provider.ts';
import type { Sentence } from './sentences.ts';

export type ReadingLevel = Education['readingLevel'];

export function readingLevel(sentences: readonly Sentence[]): ReadingLevel {
  const words = sentences.flatMap((s) => s.tokens.filter((t) => t.kind === 'word' && /\p{L}/u.test(t.text)));
  if (words.length === 0 || sentences.length === 0) return { grade: 0, ease: 100, label: 'elementary' };
  const wordsPerSentence = words.length / sentences.length;
  const syllablesPerWord = words.reduce((sum, w) => sum + Math.max(1, syllable(w.text)), 0) / words.length;
  const grade = Math.max(0, 0.39 * wordsPerSentence + 11.8 * syllablesPerWord - 15.59);
  const ease = Math.min(100, Math.max(0, 206.835 - 1.015 * wordsPerSentence - 84.6 * syllablesPerWord));
  return { grade: round1(grade), ease: round1(ease), label: gradeLabel(grade) };
}

export function gradeLabel(grade: number): ReadingLevel['label'] {
  if (grade < 6) return 'elementary';
  if (grade < 9) return 'middle school';
  if (grade < 13) return 'high school';
  if (grade < 16) return 'college';
  return 'graduate';
}

function round1(value: number): number {
  return Math.round(value * 10) / 10;
}
