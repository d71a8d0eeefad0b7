// Where monitored names occur in an article's words. Names are indexed by their first word, then
// names of several words by their second, so an article costs one pass over its words and a map
// lookup or two per word however many names there are, and a first word many names share ("New",
// "First", "United") still gives a short list of candidates.
//
// A name occurs where its words follow each other in one block (title or text) with only spaces or
// a hyphen between them (or the punctuation the monitor writes itself: "E*Trade"), whole words
// only: "Ford" is not in "afford" or "Fordham". Its last word may be possessive ("Acme's") or
// hyphenated to a lower-case word ("Acme-owned"); a name is never half of a hyphenated name
// ("Royce" in "Rolls-Royce"). Acronyms occur only in capitals.
import type { NameVariant } from './company-names.ts';
import type { Token } from './tokens.ts';

/** One name of one monitor: monitor and term are positions in the caller's lists. */
export interface IndexedName {
  monitor: number;
  term: number;
  variant: NameVariant;
}

/** An occurrence: the article's tokens first..last (inclusive). */
export interface Found {
  name: IndexedName;
  first: number;
  last: number;
}

export type NameIndex = Map<string, { oneWord: IndexedName[]; bySecondWord: Map<string, IndexedName[]> }>;

export function addName(index: NameIndex, name: IndexedName): void {
  const [first, second] = name.variant.keys as [string, ...string[]];
  let bucket = index.get(first);
  if (!bucket) index.set(first, (bucket = { oneWord: [], bySecondWord: new Map() }));
  if (second === undefined) return void bucket.oneWord.push(name);
  const names = bucket.bySecondWord.get(second);
  if (names) names.push(name);
  else bucket.bySecondWord.set(second, [name]);
}

/**
 * Occurrences by monitor, in text order. A name inside a longer name of the same monitor is not an
 * occurrence of its own: "Royal Dutch Shell" hides its "Shell".
 */
export function findNames(tokens: readonly Token[], index: NameIndex): Map<number, Found[]> {
  const found = new Map<number, Found[]>();
  const record = (name: IndexedName, first: number, last: number) => {
    const list = found.get(name.monitor);
    if (!list) {
      found.set(name.monitor, [{ name, first, last }]);
      return;
    }
    if (list.some((o) => o.first <= first && o.last >= last)) return;
    for (let i = list.length - 1; i >= 0; i -= 1) {
      if (first <= list[i]!.first && last >= list[i]!.last) list.splice(i, 1);
    }
    list.push({ name, first, last });
  };
  tokens.forEach((token, i) => {
    if (isSecondHalfOfHyphenatedName(tokens, i)) return;
    const bucket = index.get(token.key);
    if (bucket) {
      for (const name of bucket.oneWord) if (wholeName(tokens, i, i, name.variant)) record(name, i, i);
      const next = tokens[i + 1];
      if (next && next.block === token.block && bucket.bySecondWord.size > 0) {
        // The second word may end a two-word name and be possessive ("Time Warner's").
        for (const key of next.base === next.key ? [next.key] : [next.key, next.base]) {
          for (const name of bucket.bySecondWord.get(key) ?? []) {
            const last = extend(tokens, i, name.variant);
            if (last >= 0) record(name, i, last);
          }
        }
      }
    }
    if (token.base !== token.key) {
      for (const name of index.get(token.base)?.oneWord ?? []) {
        if (wholeName(tokens, i, i, name.variant)) record(name, i, i);
      }
    }
  });
  for (const list of found.values()) list.sort((a, b) => a.first - b.first || a.name.term - b.name.term);
  return found;
}

/** The index of the name's last word if `variant` starts at token `first`, else -1. */
function extend(tokens: readonly Token[], first: number, variant: NameVariant): number {
  const { keys, gaps } = variant;
  const last = first + keys.length - 1;
  if (last >= tokens.length) return -1;
  for (let k = 1; k < keys.length; k += 1) {
    const token = tokens[first + k]!;
    if (token.block !== tokens[first]!.block || !gapFits(token.gap, gaps[k]!, tokens[first + k - 1]!))
      return -1;
    if (token.key !== keys[k] && !(k === keys.length - 1 && token.base === keys[k])) return -1;
  }
  return wholeName(tokens, first, last, variant) ? last : -1;
}

function wholeName(tokens: readonly Token[], first: number, last: number, variant: NameVariant): boolean {
  if (variant.acronym && !tokens[first]!.upper) return false;
  const next = tokens[last + 1];
  // "Rolls-Royce" is not a mention of "Rolls"; "Acme-owned" is one of "Acme".
  return !(next && next.block === tokens[last]!.block && next.gap === '-' && next.capitalised);
}

function isSecondHalfOfHyphenatedName(tokens: readonly Token[], i: number): boolean {
  const token = tokens[i]!;
  const before = tokens[i - 1];
  // "Rolls-Royce" is not a mention of "Royce"; "anti-Microsoft" is one of "Microsoft".
  return token.gap === '-' && before !== undefined && before.block === token.block && before.capitalised;
}

// Between the words of a name: spaces, a hyphen, or an apostrophe that ends the first ("Dunkin'
// Donuts"); never a line break or other punctuation ("Allied, Domecq" is two names), unless the
// monitor writes that punctuation itself ("E*Trade"). Nothing at all between two characters of text
// written without spaces (tokens.ts), which are the only words nothing separates.
const looseGap = /^['\u2019]?[ \t\u00a0]+$|^-$|^$/;

// An initialism's closing full stop, which the word leaves out ("R.J" of "R.J. Reynolds"): a space
// after it separates the name's words as well as a space alone.
const afterInitialism = /^\.[ \t\u00a0]+$/;
const dottedInitialism = /^(?:\p{L}\.)+\p{L}$/u;

function gapFits(gap: string, required: string, before: Token): boolean {
  if (required !== '') return gap === required;
  return looseGap.test(gap) || (afterInitialism.test(gap) && dottedInitialism.test(before.text));
}
