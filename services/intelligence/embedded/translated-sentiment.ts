// Sentence valence in the languages other than English, from AFINN-165's translations
// (translated-lexicon.ts), scored as English is (sentiment.ts): word valences summed, a phrase
// before its words, a negated word reversed and damped. What differs is what the other languages
// let us know without a tagger:
// - a word is negated when one of its language's negations is among the three words before it
//   (VADER's reach): "no fue un éxito", "n'est pas un succès", "не было успеха";
// - a capitalised word inside a sentence is a name ("Victoria", "Paz", "Felicidad"), not a
//   feeling, except in German, which capitalises every noun;
// - stop words never count: a translation sometimes lists one ("и", "sich");
// - in a script without capitals, a word of a name the entities found (محمد, listed +1) is no feeling
//   either; Arabic and Hebrew, which have no stemmer here, find a word written with particles against
//   it ("the war", الحرب) as the listed word without them (حرب, -2).
import { withoutParticles } from './caseless-entities.ts';
import type { Sentence, Token } from './sentences.ts';
import { inflectionOf, type SentimentLexicon } from './translated-lexicon.ts';
import type { Stem } from './word-stems.ts';

/** VADER's factor for a negated word, as in English. */
const negationFactor = -0.74;
const negationReach = 3;

/** Each language's words that negate what follows them within a few words. */
const negations: Record<string, string> = {
  ar: 'لا لم لن ليس ليست غير بدون دون',
  bg: 'не без никога нищо никой',
  ca: 'no sense cap ningú ni',
  cs: 'ne bez nikdy žádný žádná žádné nic nikdo',
  da: 'ikke aldrig uden ingen intet',
  de: 'nicht kein keine keinen keinem keiner keines nie niemals ohne weder nichts',
  el: 'δεν μη μην χωρίς ποτέ ούτε',
  es: 'no nunca jamás ni sin tampoco nadie nada ningún ninguna ninguno',
  fi: 'ei en et emme ette eivät ilman',
  fr: "ne n' pas jamais aucun aucune sans ni rien",
  he: 'לא אין בלי ללא',
  hi: 'नहीं न ना बिना',
  hu: 'nem sem nincs nincsenek soha nélkül',
  id: 'tidak bukan tanpa belum tak',
  it: 'non mai nessuno nessuna niente nulla senza né',
  ms: 'tidak bukan tanpa belum tak',
  nb: 'ikke aldri uten ingen intet',
  nl: 'niet geen nooit zonder noch niets niemand',
  nn: 'ikkje ikke aldri utan ingen',
  no: 'ikke aldri uten ingen intet',
  pl: 'nie bez nigdy żaden żadna żadne nic nikt',
  pt: 'não nunca jamais nem sem nenhum nenhuma nada ninguém',
  ro: 'nu fără niciodată niciun nicio nimic nimeni',
  ru: 'не нет ни без никогда ничего никто',
  sv: 'inte ej aldrig utan ingen inget inga icke',
  tr: 'değil yok hiç asla',
  uk: 'не ні немає без ніколи нічого ніхто',
  vi: 'không chưa chẳng',
  zh: '不 没 没有 无 未 非 别',
};
const negationSets = new Map(Object.entries(negations).map(([l, words]) => [l, new Set(words.split(' '))]));

/** Languages whose nouns are capitalised, so that a capital inside a sentence does not mark a name. */
const capitalisedNouns = new Set(['de', 'lb']);

/** French, Italian and Catalan elide an article or pronoun onto the next word: "l'échec", "s'aggrave". */
const elision = /^[\p{L}]{1,2}['’](?=\p{L})/u;

/** What one language's sentences are scored with. */
export interface TranslatedScoring {
  language: string;
  lexicon: SentimentLexicon;
  /** The language's stemmer, or null (the lexicon's stems are then empty too). */
  stem: Stem | null;
  /** A word of a name the article's entities found, where no capital tells it (caseless scripts). */
  isNameWord?: (word: string) => boolean;
}

/** Languages that write particles against a word's front ("and", "in", "the"): Arabic and Hebrew. */
const particleLanguages = new Set(['ar', 'he']);
/** A lexicon's single words by their form without particles, for those languages. */
const withoutParticlesCache = new WeakMap<SentimentLexicon, ReadonlyMap<string, number>>();

function particleFreeWords(lexicon: SentimentLexicon, language: string): ReadonlyMap<string, number> {
  let words = withoutParticlesCache.get(lexicon);
  if (!words) {
    const built = new Map<string, number>();
    for (const [word, valence] of lexicon.words) {
      // The bare word's own entry wins over a prefixed one that reduces to the same form.
      if (word.includes(' ')) continue;
      const form = withoutParticles(word, language);
      if (!built.has(form) || withoutParticles(form, language) === word) built.set(form, valence);
    }
    words = built;
    withoutParticlesCache.set(lexicon, words);
  }
  return words;
}

/** Summed, negation-aware valence of one sentence in the scoring's language (unbounded). */
export function translatedValence(sentence: Pick<Sentence, 'tokens'>, scoring: TranslatedScoring): number {
  const { lexicon, language } = scoring;
  const tokens = sentence.tokens;
  const negators = negationSets.get(language);
  const firstWord = tokens.findIndex((t) => t.kind === 'word');
  let valence = 0;
  for (let i = 0; i < tokens.length; i += 1) {
    if (tokens[i]!.kind !== 'word') continue;
    const phrase = longestPhrase(tokens, i, lexicon);
    if (phrase) {
      valence += negated(tokens, i, negators) ? phrase.valence * negationFactor : phrase.valence;
      i += phrase.length - 1;
      continue;
    }
    const word = wordValence(tokens[i]!, i === firstWord, scoring);
    if (word !== undefined) valence += negated(tokens, i, negators) ? word * negationFactor : word;
  }
  return valence;
}

/** The longest listed phrase of two or more words starting at `start`. */
function longestPhrase(
  tokens: readonly Token[],
  start: number,
  lexicon: SentimentLexicon,
): { valence: number; length: number } | null {
  let key = tokens[start]!.normal;
  let found: { valence: number; length: number } | null = null;
  for (let n = 2, j = start + 1; n <= lexicon.longestPhrase && j < tokens.length; n += 1, j += 1) {
    const next = tokens[j]!;
    if (next.kind !== 'word') break;
    // Chinese and Japanese words, cut by the segmenter, join with nothing between them.
    key += (next.spaced ? ' ' : '') + next.normal;
    const valence = lexicon.words.get(key);
    if (valence !== undefined) found = { valence, length: n };
  }
  return found;
}

function wordValence(token: Token, opensSentence: boolean, scoring: TranslatedScoring): number | undefined {
  if (token.stopWord) return undefined;
  if (!opensSentence && !capitalisedNouns.has(scoring.language) && /^\p{Lu}/u.test(token.text))
    return undefined;
  if (scoring.isNameWord?.(token.text)) return undefined;
  const normal = token.normal.replace(elision, '');
  const listed = scoring.lexicon.words.get(normal);
  if (listed !== undefined) return listed;
  if (particleLanguages.has(scoring.language))
    return particleFreeWords(scoring.lexicon, scoring.language).get(
      withoutParticles(normal, scoring.language),
    );
  if (!scoring.stem) return undefined;
  const stem = scoring.stem(normal);
  // A word that is its own stem has no ending to tell an inflection by: "conseil" (a council) is the
  // stem of "conseillé" (advised, +2) but no form of it.
  return stem !== normal && inflectionOf(normal, stem) ? scoring.lexicon.stems.get(stem) : undefined;
}

function negated(tokens: readonly Token[], i: number, negators: ReadonlySet<string> | undefined): boolean {
  if (!negators) return false;
  for (let k = i - 1, seen = 0; k >= 0 && seen < negationReach; k -= 1) {
    const t = tokens[k]!;
    if (t.kind !== 'word') continue;
    // French writes its negation's "ne" onto the verb: "n'est pas", "n'a jamais".
    if (negators.has(t.normal) || negators.has(elision.exec(t.normal)?.[0] ?? '')) return true;
    seen += 1;
  }
  return false;
}
