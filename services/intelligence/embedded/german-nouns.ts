// German capitalises every noun, so a capital letter, which finds names in other languages
// (entities.ts), finds "Stellenabbau" and "Fabriken" as well as "Siemens". Two clues tell a common noun
// from a name of one word, the way a German reader tells them:
// - it follows an article, a determiner or a count ("der Stellenabbau", "die geplanten Kürzungen", "im Werk"):
//   names of one word rarely do, except the countries and institutions German names with an article
//   (die Ukraine, der Bundestag), which are listed;
// - it ends with a suffix that makes nouns of verbs and adjectives (-ung, -heit, -keit, -schaft, ...).
// Either is enough to leave the word out of the entities; a word with neither stays, so some nouns
// still pass for names (Fabriken in "vor allem Fabriken in Polen").
import type { Sentence } from './sentences.ts';

const determiners = new Set(
  (
    'der die das den dem des ein eine einen einem einer eines kein keine keinen keinem keiner keines ' +
    'im am zum zur vom beim ins ans aufs durchs fürs ' +
    'dieser diese dieses diesen diesem jener jene jenes jeden jede jedes jedem jeder ' +
    'sein seine seinen seinem seiner seines ihr ihre ihren ihrem ihrer ihres unser unsere unseren ' +
    'alle allen aller mehrere viele wenige einige beide beiden'
  ).split(' '),
);
const counts = new Set(
  'zwei drei vier fünf sechs sieben acht neun zehn elf zwölf zwanzig dreißig hundert tausend'.split(' '),
);
/** Named with an article in German, names all the same. */
const namesWithArticles = new Set(
  (
    'ukraine türkei schweiz slowakei mongolei usa niederlande iran irak libanon sudan jemen kongo tschad ' +
    'niger vatikan kreml bundestag bundesrat bundesregierung bundesbank bundeswehr bundesliga ' +
    'eu nato uno ezb un who opec'
  ).split(' '),
);
const nounSuffix =
  /(?:ung|ungen|heit|heiten|keit|keiten|schaft|schaften|tion|tionen|tät|täten|ismus|nis|nisse|tum|tümer|ling|linge|ment|mente|chen|lein|abbau|gewinn|gewinne)$/u;
/**
 * An abstract noun made of a verb or an adjective ("verteidigung", "sicherheit"), lowercase: of the
 * suffixes above, those no name or adjective ends with ("-chen" ends "europäischen", "-ment" "Parlament").
 */
export function isAbstractGermanNoun(word: string): boolean {
  return abstractNounSuffix.test(word);
}
const abstractNounSuffix =
  /(?:ung|ungen|heit|heiten|keit|keiten|schaft|schaften|tion|tionen|tät|täten|ismus)$/u;

/** An adjective's ending after an article: "die geplanten Kürzungen", "ein neues Werk". */
const inflectedAdjective = /^\p{Ll}+(?:e|en|er|es|em)$/u;

/** The lowercase words of the text that German grammar shows to be common nouns. */
export function germanCommonNouns(sentences: readonly Sentence[]): Set<string> {
  const nouns = new Set<string>();
  for (const { tokens } of sentences) {
    tokens.forEach((t, i) => {
      if (t.kind !== 'word' || !/^\p{Lu}/u.test(t.text) || namesWithArticles.has(t.normal)) return;
      const before = tokens[i - 1];
      const twoBefore = tokens[i - 2];
      // A count names things, not one of them: "1200 Stellen", "zwei Fabriken".
      const afterCount = before !== undefined && (before.kind === 'number' || counts.has(before.normal));
      const afterDeterminer =
        (before !== undefined && determiners.has(before.normal)) ||
        (before !== undefined &&
          twoBefore !== undefined &&
          inflectedAdjective.test(before.text) &&
          determiners.has(twoBefore.normal));
      if (afterDeterminer || afterCount || nounSuffix.test(t.normal)) nouns.add(t.normal);
    });
  }
  return nouns;
}
