// Stems of words in the inflected languages other than English, so that a lexicon's "victoria" is
// found in "victorias" and "победа" in "победу". The stemmers are the Snowball ones as nlp.js ships
// them (@nlpjs/lang-*, kept up by AXA), one package a language: the Snowball algorithms are the
// standard, and writing eighteen of them would be neither shorter nor better. English keeps wink's.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/** A word (lowercase) to its stem. */
export type Stem = (word: string) => string;

interface SnowballStemmer {
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

const classes = new Map<string, StemmerClass>();

export function hasStemmer(language: string | null): boolean {
  return language !== null && language in packages;
}

/**
 * A stemmer for the language, or null if there is none. Each call makes a new one: a Snowball
 * stemmer of nlp.js remembers every word it stemmed, which over a long-running enricher's millions of
 * articles would only grow. Making one costs microseconds; keep it for one text.
 */
export function stemmerFor(language: string | null): Stem | null {
  const name = language === null ? undefined : packages[language];
  if (name === undefined) return null;
  let Stemmer = classes.get(name);
  if (!Stemmer) {
    const exported = require(name) as Record<string, unknown>;
    const found = Object.entries(exported).find(([key]) => key.startsWith('Stemmer'))?.[1];
    if (typeof found !== 'function') throw new Error(`${name} exports no Stemmer`);
    Stemmer = found as StemmerClass;
    classes.set(name, Stemmer);
  }
  const stemmer = new Stemmer();
  return (word) => stemmer.stemWord(word);
}
