// A word or mark of a sentence, as every embedded capability sees it (sentences.ts makes them).
import type { PartOfSpeech } from 'wink-nlp';

export interface Token {
  /** As written. */
  text: string;
  /** Lowercase normal form. */
  normal: string;
  /** Porter stem of the normal form: what similarity and classification compare. */
  stem: string;
  /** Dictionary form ("profits" -> "profit", "was" -> "be"). */
  lemma: string;
  pos: PartOfSpeech;
  /** wink's token type: word, number, punctuation, currency, symbol, email, url, ... */
  kind: string;
  stopWord: boolean;
  /** Inside the scope of a negation ("not good": good is negated). */
  negated: boolean;
  /** Whether whitespace precedes the token in the text. */
  spaced: boolean;
}
