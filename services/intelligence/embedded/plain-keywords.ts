// Keywords of an article in a language other than English. The English method (keywords.ts) keeps the
// nouns wink's English tagger finds; in Spanish or Russian that tagger calls "los", "que" and every
// unknown word a noun, so the keywords were function words ("los", "que los", "sus"). Here a keyword is
// a word the language's stop list (stop-words.ts) does not have, of three letters or more, that the
// article uses at least twice, or a pair of such words written next to each other that it repeats
// ("inteligencia artificial", "рабочих мест"), ranked as the English method ranks: the headline and
// the opening count more. Names are left to entities: a capitalised word inside a sentence is skipped,
// and in a script without capitals a word of a name the entities found (caseless-entities.ts);
// German, which capitalises every noun, keeps the nouns its grammar shows and only those. In the
// languages with a Snowball stemmer (word-stems.ts) the forms of a word are counted as one ("despido",
// "despidos"; "рабочих мест", "рабочие места") and shown as the article most often writes it; in Arabic
// and Hebrew, the forms with the particles written against a word ("and the", "in the": الوظائف, والوظائف).
import { withoutParticles } from './caseless-entities.ts';
import { germanCommonNouns } from './german-nouns.ts';
import { keywordTally, positionWeight } from './keyword-tally.ts';
import type { Sentence, Token } from './sentences.ts';
import { stemmerFor } from './word-stems.ts';

/** Languages that capitalise every noun, not only names. */
const capitalisedNouns = new Set(['de', 'lb']);
/**
 * Languages that space syllables rather than words: Vietnamese "lợi nhuận" (profit) is one word of two
 * syllables, and a syllable alone (lợi, nhuận) says little. Only pairs are their keywords.
 */
const spacedSyllables = new Set(['vi']);
/** Fewer letters is a function word the list missed or an abbreviation, more often than a keyword. */
const minLetters = 3;

export function extractPlainKeywords(
  title: readonly Sentence[],
  sentences: readonly Sentence[],
  language: string,
  max: number,
  /** A word of a name the entities found, in a script without capitals to tell it by. */
  isNameWord: (word: string) => boolean = () => false,
): string[] {
  // German, which capitalises every noun: the nouns its grammar shows (german-nouns.ts), and only those,
  // which leaves out names, verbs and adjectives.
  const germanNouns = capitalisedNouns.has(language) ? germanCommonNouns([...title, ...sentences]) : null;
  const syllables = spacedSyllables.has(language);
  // Korean writes a noun's particle against it (삼성전자가): its stem is the noun (unspaced-words.ts).
  const form = (t: Token) => (language === 'ko' ? t.stem : t.normal);
  const lowercaseSeen = new Set(
    sentences.flatMap((s) => s.tokens.filter((t) => /^\p{Ll}/u.test(t.text)).map((t) => t.normal)),
  );
  const stem = stemmerFor(language);
  const { add, ranked } = keywordTally();
  /** Each counted key's written forms, with how often each is written. */
  const forms = new Map<string, Map<string, number>>();
  // Arabic and Hebrew write "and", "in", "the" against the word: its forms so are one keyword.
  const particles = language === 'ar' || language === 'he';
  const count = (words: readonly Token[], weight: number) => {
    const shown = words.map(form).join(' ');
    const key = stem
      ? words.map((t) => stem(form(t))).join(' ')
      : particles
        ? words.map((t) => withoutParticles(form(t), language)).join(' ')
        : shown;
    add(key, weight);
    const written = forms.get(key) ?? new Map<string, number>();
    written.set(shown, (written.get(shown) ?? 0) + 1);
    forms.set(key, written);
  };
  const visit = (sentence: Sentence, inTitle: boolean) => {
    const weight = positionWeight(sentence.index, inTitle);
    const firstWord = sentence.tokens.findIndex((t) => t.kind === 'word');
    let previous: Token | null = null;
    sentence.tokens.forEach((t, i) => {
      const capitalised = /^\p{Lu}/u.test(t.text);
      // A capitalised word is a name unless the article also writes it in lowercase and it opens the
      // sentence or stands in the headline (which capitalises words in some languages' styles).
      const name = capitalised && (inTitle || i === firstWord ? !lowercaseSeen.has(t.normal) : true);
      const skipped = germanNouns ? !germanNouns.has(t.normal) : name || isNameWord(t.text);
      if (!isKeywordWord(t) || skipped) {
        previous = null;
        return;
      }
      if (!syllables) count([t], weight);
      if (previous && t.spaced) count([previous, t], weight);
      previous = t;
    });
  };
  title.forEach((s) => visit(s, true));
  sentences.forEach((s) => visit(s, false));
  return ranked(max).map((key) => mostWritten(forms.get(key)!));
}

/** The form written most often; of equals, the first written. */
function mostWritten(written: ReadonlyMap<string, number>): string {
  let best = '';
  let most = 0;
  for (const [form, times] of written)
    if (times > most) {
      best = form;
      most = times;
    }
  return best;
}

function isKeywordWord(t: Token): boolean {
  return (
    t.kind === 'word' &&
    !t.stopWord &&
    /^[\p{L}\p{M}](?:[\p{L}\p{M}'’-]|\u200c|\u200d)*$/u.test(t.normal) &&
    [...t.normal.normalize('NFD').replace(/\p{M}/gu, '')].length >= minLetters
  );
}
