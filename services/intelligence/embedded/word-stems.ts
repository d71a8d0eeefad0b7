// Stems of words in the inflected languages other than English, so that a lexicon's "victoria" is
// found in "victorias" and "победа" in "победу". The stemmers are the Snowball ones as nlp.js ships
// them (@nlpjs/lang-*, kept up by AXA), one package a language: the Snowball algorithms are the
// standard, and writing eighteen of them would be neither shorter nor better. English keeps wink's.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/** A word (lowercase) to its stem. */
export type Stem = (word: string) => string;

export interface SnowballStemmer {
  stemWord: (word: string) => string;
}
type StemmerClass = new () => SnowballStemmer;

/** ISO 639-1 (Norwegian Bokmål and Nynorsk as Norwegian) to the package that stems it. */
const packages: Record<string, string> = {
  ca: '@nlpjs/lang-ca',
  cs: '@nlpjs/lang-cs',
  da: '@nlpjs/lang-da',
  de: '@nlpjs/lang-de',
  es: '@nlpjs/lang-es',
  fi: '@nlpjs/lang-fi',
  fr: '@nlpjs/lang-fr',
  hu: '@nlpjs/lang-hu',
  it: '@nlpjs/lang-it',
  nb: '@nlpjs/lang-no',
  nl: '@nlpjs/lang-nl',
  nn: '@nlpjs/lang-no',
  no: '@nlpjs/lang-no',
  pl: '@nlpjs/lang-pl',
  pt: '@nlpjs/lang-pt',
  ro: '@nlpjs/lang-ro',
  ru: '@nlpjs/lang-ru',
  sv: '@nlpjs/lang-sv',
  tr: '@nlpjs/lang-tr',
  uk: '@nlpjs/lang-uk',
};

const stems = new Map<string, Stem>();

/**
 * Words one Snowball stemmer of nlp.js stems before it is replaced by a new one. Each remembers every
 * word it ever stemmed (a cache without a bound), which over a long-running enricher's millions of
 * articles would only grow; a new one costs 0.2 ms for Spanish (it builds its suffix trees again), so
 * it is not made per text either.
 */
export const wordsPerStemmer = 50_000;

/** The language's stemmer, or null if there is none; one for the process, its memory bounded. */
export function stemmerFor(language: string | null): Stem | null {
  const name = language === null ? undefined : packages[language];
  if (name === undefined) return null;
  let stem = stems.get(name);
  if (!stem) {
    const exported = require(name) as Record<string, unknown>;
    const found = Object.entries(exported).find(([key]) => key.startsWith('Stemmer'))?.[1];
    if (typeof found !== 'function') throw new Error(`${name} exports no Stemmer`);
    const Stemmer = found as StemmerClass;
    stem = renewedStem(() => new Stemmer(), wordsPerStemmer);
    stems.set(name, stem);
  }
  return stem;
}

/** A stem function over stemmers from `make`, each replaced after `limit` words. */
export function renewedStem(make: () => SnowballStemmer, limit: number): Stem {
  let stemmer = make();
  let stemmed = 0;
  return (word) => {
    if (stemmed >= limit) {
      stemmer = make();
      stemmed = 0;
    }
    stemmed += 1;
    return stemmer.stemWord(word);
  };
}
