// The words of an article as story clustering compares them: folded (no case, no diacritics), without
// stop words, and reduced to stems so that "talks" meets "talk", "élections" meets "élection" and
// "Wahlen" meets "Wahl": Porter's for English, Snowball's for the twenty languages nlp.js stems
// (word-stems.ts), each stemmed before it is folded (Russian's "й" and German's "ß" are letters its
// suffixes are made of). French, Italian and Catalan lose the article or pronoun elided onto a word
// ("l'élection" is "élection"), Arabic and Hebrew the particles written against one (والانتخابات is
// انتخابات). A language without a stemmer keeps its folded words whole, and a language with a list of
// stop words (stop-words.ts) loses them. Cheap on purpose: the clusterer sees every article, and the
// enrichment has already done the expensive reading (entities, keywords); here a headline must cost
// microseconds, not a parse.
//
// Text written without spaces (Chinese, Japanese, Korean, Thai, ...;
// search-words.ts) has no words to find: a run of it is a clause, which two reports of one event never
// write alike, so it counts as its pairs of adjacent characters, as search indexes it (the overlapping
// bigrams that CJK retrieval has long used in place of words).
import { stemmer } from 'stemmer';
import { withoutParticles } from '../intelligence/embedded/caseless-entities.ts';
import { nameCluesFor } from '../intelligence/embedded/name-clues.ts';
import { stopWordsFor } from '../intelligence/embedded/stop-words.ts';
import { stemmerFor, type Stem } from '../intelligence/embedded/word-stems.ts';
import { fold } from '../monitors/fold.ts';
import { unspacedJs } from '../search/search-words.ts';

/** Letters and digits, with the apostrophes and dots inside a word ("o'neill", "u.s.") kept. */
const word = /[\p{L}\p{N}]+(?:['.][\p{L}\p{N}]+)*/gu;
/** The same in text not yet folded: a vowel sign of Hindi or Bengali (a mark) is inside its word. */
const markedWord = /[\p{L}\p{M}\p{N}]+(?:['.][\p{L}\p{M}\p{N}]+)*/gu;
const curlyApostrophe = /[\u2019\u02bc]/g;
const digitsOnly = /^\p{N}+$/u;
const unspacedRun = new RegExp(`[${unspacedJs}]+`, 'gu');
/** Quick test: only text from U+0E00 (Thai) up can hold an unspaced character. */
const beyondSpaced = /[\u0e00-\uffff]/;

// Function words and the words headlines use to frame any story ("says", "report", "update", "watch"):
// tf-idf would weigh them down anyway, but early in a stream, before the statistics have settled, they
// would link unrelated stories.
const englishStopWords = new Set(
  `a about above after again against all also am an and any are as at be because been before being
  below between both but by can could did do does doing down during each few for from further had has
  have having he her here hers herself him himself his how i if in into is it its itself just let me
  more most my myself no nor not now of off on once only or other our ours ourselves out over own same
  she should so some such than that the their theirs them themselves then there these they this those
  through to too under until up very was we were what when where which while who whom why will with
  would you your yours yourself yourselves new says said say report reports reported update updates
  updated watch video videos photo photos live via amid vs get gets got one two three first last year
  years week day today yesterday tomorrow time may might must us mr mrs ms like make makes made back
  just still way news`
    .split(/\s+/)
    .filter(Boolean),
);

const minLength = 2;

/** The comparable words of `text`, in order (repeats kept: they are term frequencies). */
export function storyWords(text: string, language: string | null): string[] {
  const english = language === null || language === 'en';
  const reading = english ? null : readingOf(language);
  const words: string[] = [];
  const add = (w: string) => {
    if (w.length < minLength || digitsOnly.test(w)) return;
    if (reading === null) {
      if (!englishStopWords.has(w)) words.push(stemmer(w));
      return;
    }
    if (reading.stopWords?.has(w)) return;
    const bare = reading.bare(w);
    if (bare.length < minLength || reading.stopWords?.has(bare)) return;
    words.push(fold(reading.stem(bare)));
  };
  // English is folded first (its stop words and Porter's stemmer are plain ASCII); another language
  // keeps its letters until it is stemmed, and is folded after.
  const written = english ? fold(text) : text.normalize('NFC').replace(curlyApostrophe, "'").toLowerCase();
  for (const match of written.matchAll(english ? word : markedWord)) {
    const w = english ? match[0].replace(/[.']/g, '') : match[0];
    if (!beyondSpaced.test(w)) {
      add(w);
      continue;
    }
    let spacedFrom = 0;
    for (const run of w.matchAll(unspacedRun)) {
      add(w.slice(spacedFrom, run.index));
      // Composed: a Hangul syllable is one character (folding takes it apart into its letters).
      const chars = Array.from(run[0].normalize('NFC'));
      for (let i = 0; i + 1 < chars.length; i++) words.push(fold(chars[i]! + chars[i + 1]!).normalize('NFC'));
      spacedFrom = run.index + run[0].length;
    }
    add(w.slice(spacedFrom));
  }
  return words;
}

interface Reading {
  stopWords: ReadonlySet<string> | null;
  /** The word without what is written against it: an elided article, a prefixed particle, inner dots. */
  bare: (word: string) => string;
  stem: Stem;
}

/** French, Italian and Catalan elide an article or pronoun onto the next word: "l'élection", "dell'Onu". */
const elision = /^\p{L}{1,4}'(?=\p{L}{2})/u;
const elidingLanguages = new Set(['fr', 'it', 'ca']);
const innerMarks = /[.']/g;
const unchanged: Stem = (w) => w;

/**
 * Snowball's Portuguese stem keeps the nasal vowel that tells a singular in -ão from its plural in -ões
 * ("eleição" to "eleiçã", "eleições" to "eleiçõ"): without it, one word again.
 */
const portugueseStem =
  (stem: Stem): Stem =>
  (word) =>
    stem(word).replace(/[ãõ]$/u, '');

const readings = new Map<string, Reading>();

/** How a language other than English is read, made once for the process. */
function readingOf(language: string): Reading {
  let reading = readings.get(language);
  if (!reading) {
    const elides = elidingLanguages.has(language);
    const particles = language === 'ar' || language === 'he';
    reading = {
      stopWords: stopWordsFor(language),
      bare: (w) => {
        let bare = elides ? w.replace(elision, '') : w;
        if (particles) bare = withoutParticles(bare, language);
        return bare.replace(innerMarks, '');
      },
      stem: language === 'pt' ? portugueseStem(stemmerFor('pt')!) : (stemmerFor(language) ?? unchanged),
    };
    readings.set(language, reading);
  }
  return reading;
}

/**
 * An entity name as a single comparable key: "Apple Inc." and "apple inc" are one entity; so are "Москве"
 * and "Москва", "Putina" and "Putin" where the language declines names (each word without its case
 * ending, as the enrichment keys them: name-clues.ts), since one article names a place only "в Москве" and
 * the next only "Москва".
 */
export function entityKey(name: string, language: string | null = null): string {
  const nameStem = language === null ? undefined : nameCluesFor(language)?.nameStem;
  const lower = name.normalize('NFC').toLowerCase();
  return fold(nameStem ? lower.split(/\s+/u).map(nameStem).join(' ') : lower)
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}
