// What a company name or alias from a monitor is looked for as. "Time Warner Inc." becomes the
// words ["time", "warner"] (legal form off, see legal-suffixes.ts) and the joined "timewarner",
// which the press writes too. Two properties decide how an occurrence is judged:
// - an acronym ("BT", "3M", "H&M", "LVMH") counts only written in capitals, since in lower case it
//   is usually something else ("£3m", "bt" in a URL);
// - an ambiguous name, one that is also an English word ("Next", "Shell", "Apple", "Target") or is
//   very short ("Gap", "Ito"), needs evidence that it is used as a name (see mention-evidence.ts).
import { isUnspaced } from '../search/search-words.ts';
import {
  isLegalPrefix,
  isLegalSuffix,
  legalPrefixLength,
  lengthWithoutLegalForm,
  withoutUnspacedLegalForms,
} from './legal-suffixes.ts';
import { isFunctionWord, tokenize, type Token } from './tokens.ts';

export interface NameVariant {
  /** Folded words, found in this order with only whitespace or a hyphen between them. */
  keys: string[];
  /**
   * Punctuation the monitor writes between two words, without spaces, that the article must write
   * too ("E*Trade"):
   * gaps[i] precedes keys[i]; "" where whitespace or a hyphen will do.
   */
  gaps: string[];
  /** Counts only when every letter is a capital. */
  acronym: boolean;
  /** Also an English word, or very short: needs evidence that it is meant as a name. */
  ambiguous: boolean;
  /**
   * The words as the monitor spells them, lower case, when one carries what folding takes away
   * ("nestlé"): written so in an article, an ambiguous name is the company's, not the English word.
   */
  spelled?: string[];
}

export interface CompanyName {
  /** As written in the monitor. */
  term: string;
  /** The folded words without legal form, space-separated: what "the same name" means. */
  key: string;
  variants: NameVariant[];
}

/** Names of at most this many letters that are not acronyms are ambiguous whatever they are. */
export const shortNameLetters = 3;
/** All-capital names up to this many letters are acronyms ("LVMH"); longer ones are just shouted. */
const acronymLetters = 5;
const letters = /\p{L}/gu;
const lettersAndDigits = /[\p{L}\p{N}]/gu;
const onlyLetters = /^\p{L}+$/u;

export function companyName(term: string, isCommonWord: (word: string) => boolean): CompanyName | null {
  const tokens = tokenize([withoutUnspacedLegalForms(term)]).tokens;
  const the = tokens.length > 1 && tokens[0]!.key === 'the' ? 1 : 0;
  const start = the + legalPrefixLength(tokens.slice(the).map((t) => t.key));
  const named = tokens.slice(start);
  const core = named.slice(0, lengthWithoutLegalForm(named.map((t) => t.key)));
  // Nothing to look for: no words, or only words like "the" and "of".
  if (core.every((t) => isFunctionWord(t.key))) return null;
  const keys = core.map((t) => t.key);
  const variant: NameVariant = {
    keys,
    gaps: core.map((t, i) => (i === 0 ? '' : requiredGap(t))),
    acronym: isAcronym(core, isCommonWord),
    ambiguous: false,
  };
  variant.ambiguous = !variant.acronym && isAmbiguous(core, isCommonWord);
  const spelled = core.map((t) => t.text.toLowerCase());
  if (variant.ambiguous && spelled.some((word, i) => word.normalize('NFC') !== keys[i]))
    variant.spelled = spelled;
  const variants = [variant];
  const joined = keys.join('');
  if (
    keys.length > 1 &&
    keys.every((k) => onlyLetters.test(k) && !isFunctionWord(k) && !isUnspaced(k)) &&
    !isCommonWord(joined)
  ) {
    variants.push({ keys: [joined], gaps: [''], acronym: false, ambiguous: false });
  }
  return { term, key: keys.join(' '), variants };
}

/**
 * Whether a name given for a company names one: a word besides legal forms and words like "the", "of" and
 * "&". "Inc.", "PLC" or "GmbH & Co. KG" alone (a CRM row whose name and legal form sit in two columns)
 * matched every article naming any company of that form; "The" matched nothing and looked active.
 */
export function namesACompany(term: string): boolean {
  return tokenize([withoutUnspacedLegalForms(term)]).tokens.some(
    (t) => !isLegalSuffix(t.key) && !isLegalPrefix(t.key) && !isFunctionWord(t.key) && t.key !== 'and',
  );
}

/** The key an organisation name from an entity extractor is compared under. */
export function organizationKey(name: string): string {
  const all = tokenize([withoutUnspacedLegalForms(name)]).tokens.map((t) => t.key);
  const keys = all.slice(legalPrefixLength(all));
  return keys.slice(0, lengthWithoutLegalForm(keys)).join(' ');
}

/** Punctuation that joins two words with no space ("E*Trade") is part of the name; "R.J. Reynolds" is not. */
function requiredGap(token: Token): string {
  return token.gap === '-' || /\s/.test(token.gap) ? '' : token.gap;
}

function isAcronym(core: readonly Token[], isCommonWord: (word: string) => boolean): boolean {
  if (core.length !== 1) return false;
  const [token] = core as [Token];
  const count = token.text.match(letters)?.length ?? 0;
  const characters = token.text.match(lettersAndDigits)?.length ?? 0;
  return token.upper && characters >= 2 && count <= acronymLetters && !isCommonWord(token.base);
}

function isAmbiguous(core: readonly Token[], isCommonWord: (word: string) => boolean): boolean {
  const content = core.filter((t) => !isFunctionWord(t.key));
  if (content.length === 1 && (content[0]!.text.match(letters)?.length ?? 0) <= shortNameLetters) {
    return true;
  }
  return content.every((t) => isCommonWord(t.base));
}
