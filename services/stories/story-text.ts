// The words of an article as story clustering compares them: folded (no case, no diacritics), without
// stop words, and for English reduced to Porter stems so that "talks" meets "talk" and "merger" meets
// "merge". Cheap on purpose: the clusterer sees every article, and the enrichment has already done
// the expensive reading (entities, keywords); here a headline must cost microseconds, not a parse.
//
// Other languages keep their folded words unstemmed: a missed "Wahl"/"Wahlen" costs recall within one
// story, a wrong stem would join two. Text written without spaces (Chinese, Japanese, Korean, Thai, ...;
// search-words.ts) has no words to find: a run of it is a clause, which two reports of one event never
// write alike, so it counts as its pairs of adjacent characters, as search indexes it (the overlapping
// bigrams that CJK retrieval has long used in place of words).
import { stemmer } from 'stemmer';
import { fold } from '../monitors/fold.ts';
import { unspacedJs } from '../search/search-words.ts';

/** Letters and digits, with the apostrophes and dots inside a word ("o'neill", "u.s.") kept. */
const word = /[\p{L}\p{N}]+(?:['.][\p{L}\p{N}]+)*/gu;
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
  const words: string[] = [];
  const add = (w: string) => {
    if (w.length < minLength || digitsOnly.test(w)) return;
    if (english) {
      if (englishStopWords.has(w)) return;
      words.push(stemmer(w));
    } else {
      words.push(w);
    }
  };
  for (const match of fold(text).matchAll(word)) {
    const w = match[0].replace(/[.']/g, '');
    if (!beyondSpaced.test(w)) {
      add(w);
      continue;
    }
    let spacedFrom = 0;
    for (const run of w.matchAll(unspacedRun)) {
      add(w.slice(spacedFrom, run.index));
      // Recomposed: folding split Hangul syllables into their letters.
      const chars = Array.from(run[0].normalize('NFC'));
      for (let i = 0; i + 1 < chars.length; i++) words.push(chars[i]! + chars[i + 1]!);
      spacedFrom = run.index + run[0].length;
    }
    add(w.slice(spacedFrom));
  }
  return words;
}

/** An entity name as a single comparable key: "Apple Inc." and "apple inc" are one entity. */
export function entityKey(name: string): string {
  return fold(name)
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}
