// How hard a text is to read: the Flesch-Kincaid grade (the US school year that can follow it) and
// Flesch reading ease (0..100, higher is easier), both from words per sentence and syllables per
// word. Syllables come from the `syllable` package, which knows English exceptions a vowel-group
// count gets wrong ("business" has 2, "created" 3).
//
// Flesch's constants are English's: a Spanish or Russian text has longer words for the same ease.
// Languages with an adaptation of their own use it (below), with syllables counted as their vowel
// groups (each vowel letter in Russian, whose spelling writes no diphthongs), and their grade read off
// Flesch's own table of ease against school years. Other languages get the English formulas.
import { syllable } from 'syllable';
import type { Education } from '../provider.ts';
import type { Sentence } from './sentences.ts';

export type ReadingLevel = NonNullable<Education['readingLevel']>;

interface Adaptation {
  /** Reading ease from words per sentence and syllables per word. */
  ease: (wordsPerSentence: number, syllablesPerWord: number) => number;
  /** A vowel group, one syllable. */
  vowels: RegExp;
  /** Dropped from a word's end before counting: a silent letter. */
  silentEnding?: RegExp;
}

const adaptations: Record<string, Adaptation> = {
  // Fernández Huerta (1959, as corrected): 206.84 - 0.60 syllables a hundred words - 1.02 sentences a hundred words.
  es: { ease: (wps, spw) => 206.84 - 60 * spw - 102 / wps, vowels: /[aeiouáéíóúüy]+/gu },
  // Kandel and Moles (1958).
  fr: {
    ease: (wps, spw) => 207 - 1.015 * wps - 73.6 * spw,
    vowels: /[aeiouyàâäéèêëîïôöùûüœæ]+/gu,
    silentEnding: /(?<=[^aeiouy])es?$/u,
  },
  // Amstad (1978).
  de: { ease: (wps, spw) => 180 - wps - 58.5 * spw, vowels: /[aeiouyäöü]+/gu },
  // Flesch-Vacca (1972).
  it: { ease: (wps, spw) => 217 - 1.3 * wps - 60 * spw, vowels: /[aeiouàèéìíòóùú]+/gu },
  // Douma (1960).
  nl: { ease: (wps, spw) => 206.835 - 0.93 * wps - 77 * spw, vowels: /[aeiouyàäëïöüé]+/gu },
  // Martins et al. (1996), for Brazilian Portuguese.
  pt: { ease: (wps, spw) => 248.835 - 1.015 * wps - 84.6 * spw, vowels: /[aeiouáàâãéêíóôõúü]+/gu },
  // Oborneva (2006).
  ru: { ease: (wps, spw) => 206.835 - 1.3 * wps - 60.1 * spw, vowels: /[аеёиоуыэюя]/gu },
  // Ateşman (1997). Turkish writes no diphthongs: each vowel letter is a syllable.
  tr: { ease: (wps, spw) => 198.825 - 2.61 * wps - 40.175 * spw, vowels: /[aeıioöuüâîû]/gu },
};

/**
 * `language`: ISO 639-1, null when unknown (read as English). Null for a text whose words are mostly
 * written in another script than Latin, in a language without an adaptation: syllables and words are
 * not what Flesch counted there (a Japanese central-bank report came out "elementary", ease 100).
 */
export function readingLevel(
  sentences: readonly Sentence[],
  language: string | null = null,
): ReadingLevel | null {
  const words = sentences.flatMap((s) => s.tokens.filter((t) => t.kind === 'word' && /\p{L}/u.test(t.text)));
  const adaptation = language === null ? undefined : adaptations[language];
  if (!adaptation && !mostlyLatin(words)) return null;
  if (words.length === 0 || sentences.length === 0) return { grade: 0, ease: 100, label: 'elementary' };
  const wordsPerSentence = words.length / sentences.length;
  if (adaptation) {
    const syllables = words.reduce((sum, w) => sum + vowelGroups(w.normal, adaptation), 0);
    const ease = clampEase(adaptation.ease(wordsPerSentence, syllables / words.length));
    const grade = gradeForEase(ease);
    return { grade: round1(grade), ease: round1(ease), label: gradeLabel(grade) };
  }
  const syllablesPerWord = words.reduce((sum, w) => sum + Math.max(1, syllable(w.text)), 0) / words.length;
  const grade = Math.max(0, 0.39 * wordsPerSentence + 11.8 * syllablesPerWord - 15.59);
  const ease = clampEase(206.835 - 1.015 * wordsPerSentence - 84.6 * syllablesPerWord);
  return { grade: round1(grade), ease: round1(ease), label: gradeLabel(grade) };
}

/** Whether most of the words are written in Latin letters (true for no words: nothing says otherwise). */
function mostlyLatin(words: readonly { text: string }[]): boolean {
  const latin = words.filter((w) => /\p{Script=Latin}/u.test(w.text)).length;
  return words.length === 0 || latin * 2 > words.length;
}

function vowelGroups(word: string, adaptation: Adaptation): number {
  const spoken = adaptation.silentEnding ? word.replace(adaptation.silentEnding, '') : word;
  return Math.max(1, spoken.match(adaptation.vowels)?.length ?? 0);
}

/**
 * Flesch's table: 90-100 fifth grade, 80-90 sixth, 70-80 seventh, 60-70 eighth and ninth, 50-60
 * tenth to twelfth, 30-50 college, 0-30 college graduate; read as a line through those points.
 */
const easeToGrade: [number, number][] = [
  [100, 4],
  [90, 5],
  [80, 6],
  [70, 7],
  [60, 8.5],
  [50, 11],
  [30, 14.5],
  [0, 18],
];

export function gradeForEase(ease: number): number {
  for (let i = 1; i < easeToGrade.length; i += 1) {
    const [upperEase, upperGrade] = easeToGrade[i - 1]!;
    const [lowerEase, lowerGrade] = easeToGrade[i]!;
    if (ease >= lowerEase)
      return lowerGrade + ((ease - lowerEase) / (upperEase - lowerEase)) * (upperGrade - lowerGrade);
  }
  return easeToGrade.at(-1)![1];
}

export function gradeLabel(grade: number): ReadingLevel['label'] {
  if (grade < 6) return 'elementary';
  if (grade < 9) return 'middle school';
  if (grade < 13) return 'high school';
  if (grade < 16) return 'college';
  return 'graduate';
}

function clampEase(ease: number): number {
  return Math.min(100, Math.max(0, ease));
}

function round1(value: number): number {
  return Math.round(value * 10) / 10;
}
