// The words of an article as the company matcher sees them: where each is, how it is written
// (capitalised, all capitals) and whether it starts a sentence, since for names that are also
// common words the capital letter is the evidence. A word keeps the punctuation inside it that
// makes names: "AT&T", "H&M", "Sotheby's", "Amazon.com", "S.A.", "3M", and the "+" or "#" that ends
// one: "C++", "F#", "Canal+". A lone "&" is a word of
// its own and compares as "and" ("Procter & Gamble", "Brown and Williamson"). Hyphens and all
// other punctuation separate words; what separated two words is kept ("gap") so that the matcher
// can tell "Allied Domecq" from "Allied, Domecq" and "Acme-owned" from "Rolls-Royce".
//
// Text written without spaces between its words (Chinese, Japanese, Korean, Thai, ...;
// search-words.ts) has no word boundaries to find: each of its characters is a word of its own, with
// nothing ("") between it and the next, so a name written so ("トヨタ") is found as its characters in a
// row wherever they occur ("トヨタ自動車の決算").
import { unspacedJs } from '../search/search-words.ts';
import { fold } from './fold.ts';

export interface Token {
  /** As written. */
  text: string;
  /** Folded (lower case, no diacritics), initialisms without dots ("s.a." -> "sa"), no ".com". */
  key: string;
  /** The key without a possessive "'s" ("acme's" -> "acme"); the key itself otherwise. */
  base: string;
  /** Which of the texts handed to tokenize() it is in (title 0, body 1 for an article). */
  block: number;
  start: number;
  end: number;
  /** What is written between the previous word of the same block and this one ("" for the first). */
  gap: string;
  sentence: number;
  /** First word of its sentence, so capitalised whatever it is. */
  initial: boolean;
  /** Its first letter is a capital ("Shell", "SHELL", "3M"). */
  capitalised: boolean;
  /** Every letter is a capital ("BA", "BA's", "AT&T"). */
  upper: boolean;
}

export interface Sentence {
  block: number;
  /** Offsets in its block. */
  start: number;
  end: number;
  /**
   * Written in sentence case: a fifth or more of its content words after the first are in lower
   * case. A headline in Title Case ("Shell Profits Beat Forecasts") or a list of names capitalises
   * (nearly) everything, so there a capital letter says nothing about a word.
   */
  proseCase: boolean;
}

export interface Tokenized {
  tokens: Token[];
  sentences: Sentence[];
}

const spacedLetter = `[[\\p{L}\\p{N}\\p{M}]--[${unspacedJs}]]`;
// A run of "+" or "#" closing a word is part of it ("C++", "F#", "Canal+"), not before a letter ("A+B").
const word = new RegExp(
  `[${unspacedJs}]\\p{M}*|${spacedLetter}+(?:[&'\u2019.]${spacedLetter}+)*(?:[+#]+(?![\\p{L}\\p{N}]))?|&`,
  'gv',
);
const initialism = /^(?:\p{L}\.)+\p{L}\.?$/u;
const webDomain = /^(.{2,}?)\.(?:com|net|org|biz|co\.uk|co)$/;
// A line break; a full stop, question or exclamation mark (perhaps closed by a quote or bracket)
// then a space; an opening quote: what comes next starts a sentence, if it is not in lower case.
// "Inc. Shell" counts too, which only ever makes the matcher more cautious.
const sentenceBreak = /[.!?\u2026]["'\u201d\u2019)\]]*\s|(?:^|[\s:;(])["\u201c\u2018']$/;
const lineBreak = /[\r\n]/;

const functionWords = new Set([
  'a',
  'an',
  'and',
  'at',
  'by',
  'da',
  'de',
  'der',
  'des',
  'di',
  'du',
  'et',
  'for',
  'in',
  'la',
  'le',
  'of',
  'on',
  'the',
  'to',
  'van',
  'von',
  'y',
]);

/** Short words that stay lower case inside a name ("Bank of America", "Procter & Gamble"). */
export function isFunctionWord(key: string): boolean {
  return functionWords.has(key);
}

export function keyOf(text: string): string {
  const folded = fold(text);
  if (folded === '&') return 'and';
  if (initialism.test(folded)) return folded.replaceAll('.', '');
  return webDomain.exec(folded)?.[1] ?? folded;
}

const possessive = /['\u2019]s$/i;
const firstLetter = /\p{L}/u;
const lowerLetter = /\p{Ll}/u;
const upperLetter = /\p{Lu}/u;

export function tokenize(blocks: readonly string[]): Tokenized {
  const tokens: Token[] = [];
  const sentences: Sentence[] = [];
  blocks.forEach((text, block) => {
    let previousEnd = 0;
    let first = true;
    for (const found of text.matchAll(word)) {
      const start = found.index;
      const written = found[0];
      const gap = first ? '' : text.slice(previousEnd, start);
      const initial = first || startsSentence(gap, written);
      if (initial) sentences.push({ block, start, end: start, proseCase: true });
      const key = keyOf(written);
      const bare = written.replace(possessive, '');
      const letter = firstLetter.exec(bare)?.[0];
      tokens.push({
        text: written,
        key,
        base: key.length > 2 && key.endsWith("'s") ? key.slice(0, -2) : key,
        block,
        start,
        end: start + written.length,
        gap,
        sentence: sentences.length - 1,
        initial,
        capitalised: letter !== undefined && upperLetter.test(letter),
        upper: upperLetter.test(bare) && !lowerLetter.test(bare),
      });
      sentences[sentences.length - 1]!.end = start + written.length;
      previousEnd = start + written.length;
      first = false;
    }
  });
  markProseCase(tokens, sentences);
  return { tokens, sentences };
}

function startsSentence(gap: string, written: string): boolean {
  if (lineBreak.test(gap)) return true;
  if (!sentenceBreak.test(gap)) return false;
  // "Yahoo! executives", "e.g. shares": a full stop before a lower-case word ends no sentence.
  const letter = firstLetter.exec(written)?.[0];
  return letter === undefined || !lowerLetter.test(letter);
}

function markProseCase(tokens: readonly Token[], sentences: Sentence[]): void {
  // Counted without the first word, capitalised anyway, and without "of", "and", "the".
  const content = new Array<number>(sentences.length).fill(0);
  const capitalised = new Array<number>(sentences.length).fill(0);
  for (const token of tokens) {
    if (token.initial || !firstLetter.test(token.text[0] ?? '') || isFunctionWord(token.key)) continue;
    content[token.sentence]! += 1;
    if (token.capitalised) capitalised[token.sentence]! += 1;
  }
  sentences.forEach((sentence, i) => {
    sentence.proseCase = content[i]! < 3 || capitalised[i]! / content[i]! < 0.8;
  });
}
