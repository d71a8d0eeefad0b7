// Keywords: the common nouns and noun phrases an article keeps coming back to ("maternity pay",
// "broadband", "tariff"), lowercase, a plural in its singular, so that two articles about layoffs share
// "layoff" whether they said "layoffs" or "layoff". Names are left to entities. Ranked by frequency
// weighted by position: a word in the headline or the opening counts more than one in the last
// paragraph, which is how news signals what matters without a corpus to compute rarity against.
import type { Entity } from '../provider.ts';
import { caselessNameWords } from './caseless-entities.ts';
import type { Sentence, Token } from './sentences.ts';
import { keywordTally, positionWeight } from './keyword-tally.ts';
import { extractPlainKeywords } from './plain-keywords.ts';
import { extractUnspacedKeywords, isMostlyHanOrKana } from './unspaced-keywords.ts';

export const maxKeywords = 10;

/** Nouns every news story uses; as keywords they would link everything to everything. */
const generic = new Set([
  'year',
  'time',
  'people',
  'way',
  'thing',
  'cent',
  'percent',
  'week',
  'month',
  'day',
  'lot',
  'number',
  'part',
  'place',
  'end',
  'man',
  'woman',
  'world',
  'group',
  'case',
  'point',
  'fact',
  'issue',
  'side',
  'kind',
  'sort',
  'bit',
  'today',
  'yesterday',
  'tomorrow',
  'spokesman',
  'spokeswoman',
  'statement',
  'report',
  'news',
  'company',
  'firm',
  'mr',
  'mrs',
  'ms',
]);

/** `language` (ISO 639-1, null when unknown) picks the method: English's below, or another's. */
export function extractKeywords(
  title: readonly Sentence[],
  sentences: readonly Sentence[],
  language: string | null = null,
  /** The article's entities: in a script without capitals, their names' words are no keywords. */
  entities: readonly Pick<Entity, 'name'>[] = [],
): string[] {
  const text = [...title, ...sentences].map((s) => s.text).join('\n');
  // Chinese and Japanese have no spaces for the tagger to find words by.
  if (isMostlyHanOrKana(text)) return extractUnspacedKeywords(title, sentences, maxKeywords);
  // Other languages have no tagger here at all.
  if (language !== null && language !== 'en') {
    const isNameWord = caselessNameWords(text, entities, language);
    return extractPlainKeywords(title, sentences, language, maxKeywords, isNameWord);
  }
  const { add, ranked } = keywordTally();
  const lowercaseSeen = new Set(
    sentences.flatMap((s) => s.tokens.filter((t) => /^\p{Ll}/u.test(t.text)).map((t) => t.normal)),
  );
  const visit = (sentence: Sentence, inTitle: boolean) => {
    const weight = positionWeight(sentence.index, inTitle);
    const tokens = sentence.tokens;
    const firstWord = tokens.findIndex((t) => t.kind === 'word');
    tokens.forEach((t, i) => {
      // Capitalised mid-sentence it is part of a name, which entities report.
      if (
        !isKeywordNoun(t, i === firstWord ? lowercaseSeen : null) ||
        (!inTitle && i !== firstWord && /^\p{Lu}/u.test(t.text))
      )
        return;
      // "speed" in "high-speed" is half a word.
      if (tokens[i - 1]?.text === '-' && !t.spaced) return;
      add(keywordForm(t), weight);
      // The modifier keeps its form ("sales tax", "high-speed connection"); the head noun is the lemma.
      const previous = tokens[i - 1];
      if (
        previous &&
        (isKeywordNoun(previous) || isKeywordModifier(previous)) &&
        /^\p{Ll}/u.test(previous.text)
      ) {
        add(`${previous.text.toLowerCase()} ${keywordForm(t)}`, weight);
      }
    });
  };
  title.forEach((s) => visit(s, true));
  sentences.forEach((s) => visit(s, false));

  return ranked(maxKeywords);
}

/**
 * `lowercaseSeen` is given for a sentence's first word: wink tags most capitalised openers as names
 * ("Profits rose"), but one the article also writes lowercase is a noun all the same.
 */
function isKeywordNoun(t: Token, lowercaseSeen: ReadonlySet<string> | null = null): boolean {
  return (
    (t.pos === 'NOUN' || (t.pos === 'PROPN' && lowercaseSeen !== null && lowercaseSeen.has(t.normal))) &&
    t.kind === 'word' &&
    !t.stopWord &&
    /^\p{Ll}[\p{Ll}-]*\p{Ll}$/u.test(t.normal) &&
    t.lemma.length > 2 &&
    !generic.has(t.lemma)
  );
}

/**
 * The noun as a keyword: its singular where the text writes a plural ("layoffs" as "layoff", "crises" as
 * "crisis", "children" as "child"), otherwise as written. wink's lemmas also respell ("harbour" as
 * "harbor", as its normal forms do) and take a mass noun for a Latin plural ("data" as "datum", "media" as "medium"), which
 * would show the reader a word the article does not use.
 */
function keywordForm(t: Token): string {
  // As written: wink's normal form respells too ("harbour" as "harbor").
  const word = t.text.toLowerCase();
  const lemma = t.lemma;
  if (lemma === word) return word;
  const regular =
    word === `${lemma}s` ||
    word === `${lemma}es` ||
    (lemma.endsWith('y') && word === `${lemma.slice(0, -1)}ies`) ||
    (lemma.endsWith('f') && word === `${lemma.slice(0, -1)}ves`) ||
    (lemma.endsWith('fe') && word === `${lemma.slice(0, -2)}ves`) ||
    (lemma.endsWith('is') && word === `${lemma.slice(0, -2)}es`);
  return regular || irregularPlurals.get(word) === lemma ? lemma : word;
}

const irregularPlurals = new Map(
  Object.entries({
    men: 'man',
    women: 'woman',
    children: 'child',
    feet: 'foot',
    teeth: 'tooth',
    mice: 'mouse',
    geese: 'goose',
    oxen: 'ox',
    policemen: 'policeman',
    firemen: 'fireman',
    businessmen: 'businessman',
    businesswomen: 'businesswoman',
    chairmen: 'chairman',
    fishermen: 'fisherman',
  }),
);

function isKeywordModifier(t: Token): boolean {
  return t.pos === 'ADJ' && t.kind === 'word' && !t.stopWord && /^\p{Ll}[\p{Ll}-]+$/u.test(t.text);
}
