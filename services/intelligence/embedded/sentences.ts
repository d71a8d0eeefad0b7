// Sentences and their tokens, the unit every embedded capability works on. Boundaries come from
// wink-nlp's sentence detector, which already knows abbreviations ("Mr.", "U.S.", "e.g."), initials,
// decimals and amounts ("3.5", "$1.13bn"). What is ours:
// - a line break is always a boundary, because ArticleText separates paragraphs with newlines and
//   a headline-like line without a full stop must not run into the next one;
// - a piece that cannot start a sentence continues the previous one, which wink splits too
//   eagerly: a speaker after a quoted question ('"Is it?" she asked.'), a domain ("Amazon.com"), a
//   title ending in "?" or "!" followed by "by ..." or ", starring ...";
// - Chinese, Japanese, Thai, Lao, Khmer and Burmese, which wink leaves as one unknown token a run, are
//   cut into words, and Korean words get stems (unspaced-words.ts);
// - the full stops of other scripts, which wink does not know, end a sentence too: 。！？ (Chinese,
//   Japanese), । ॥ (Devanagari, Bengali), ။ (Burmese), ។ (Khmer), ؟ (Arabic); not inside 「quotes」,
//   where Japanese puts the full stop of what was said ("「好循環が強まっている。」と述べた").
import type { ItsFunction, PartOfSpeech } from 'wink-nlp';
import type { Token } from './token.ts';
import { english } from './english.ts';
import { hasOtherScriptLetters, otherScriptWords } from './other-script-words.ts';
import { stopWordsFor } from './stop-words.ts';
import { hasUnspacedWords, unspacedTokens } from './unspaced-words.ts';
import { unspacedScripts } from '../../runtime/dictionary-words.ts';

export type { Token } from './token.ts';

export interface Sentence {
  /** Verbatim from the text, trimmed. */
  text: string;
  /** Position among the text's sentences, from 0. */
  index: number;
  /** Which line (paragraph) of the text it came from, from 0 over non-blank lines. */
  paragraph: number;
  tokens: Token[];
}

/** Sentences as plain strings, in order. */
export function splitSentences(text: string): string[] {
  return parseSentences(text).map((s) => s.text);
}

/**
 * The text's sentences. Given the text's language (ISO 639-1), its stop words are marked besides
 * English's (stop-words.ts); without it, only English's and those of the alphabets wink does not read.
 */
export function parseSentences(text: string, language?: string | null): Sentence[] {
  const stopWords = stopWordsFor(language);
  const sentences: Sentence[] = [];
  const paragraphs = text
    .split(/\r?\n|\r/)
    .map((line) => line.trim())
    .filter((line) => line.length > 0);
  paragraphs.forEach((paragraph, p) => {
    for (const part of splitAtOtherFullStops(paragraph)) {
      for (const piece of joinContinuations(parseParagraph(part, stopWords))) {
        sentences.push({ ...piece, index: sentences.length, paragraph: p });
      }
    }
  });
  return sentences;
}

const otherFullStop = /[。！？।॥။។؟]/u;
const opening = '「『（【〈《';
const closing = '」』）】〉》';

/**
 * Sentences put back into one text: a space between two, but none after a Chinese or Japanese full stop,
 * since those languages write none ("決めた。17年ぶり").
 */
export function joinSentences(sentences: readonly string[]): string {
  return sentences.reduce(
    (text, s) => (text === '' ? s : /[。！？」』]$/u.test(text) ? text + s : `${text} ${s}`),
    '',
  );
}

/** The paragraph cut after each full stop of another script that is not inside brackets or quotes. */
export function splitAtOtherFullStops(paragraph: string): string[] {
  if (!otherFullStop.test(paragraph)) return [paragraph];
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < paragraph.length; i++) {
    const c = paragraph[i]!;
    if (opening.includes(c)) depth += 1;
    else if (closing.includes(c)) depth = Math.max(0, depth - 1);
    else if (depth === 0 && otherFullStop.test(c)) {
      // Repeated marks ("！？", "।।") and closing quotes stay with the sentence they end.
      let end = i + 1;
      while (end < paragraph.length && /[。！？।॥။។؟”’"]/u.test(paragraph[end]!)) end += 1;
      const part = paragraph.slice(start, end).trim();
      if (part) parts.push(part);
      start = end;
      i = end - 1;
    }
  }
  const rest = paragraph.slice(start).trim();
  if (rest) parts.push(rest);
  return parts;
}

type Piece = Omit<Sentence, 'index' | 'paragraph'>;

/** Longer tokens are not stemmed (see parseParagraph). */
const longestStemmed = 64;

/**
 * A run of more than this many characters without a space (or a letter of the scripts wink leaves whole
 * for unspaced-words.ts) is no word: wink reads a short stand-in in its place, and the run is put back
 * in the sentence and its token after. wink's abbreviation test (/[a-z].*\.$/i, on every token) takes
 * time quadratic in a token's length: one 100,000-character "word" posted to /v1/analyze held the API's
 * event loop for over a minute. The longest URLs in news run to a few hundred characters.
 */
const longestRun = 512;
const longRun = new RegExp(`[^\\s${unspacedScripts}]{${longestRun + 1},}`, 'gu');
const standIn = 'qzlongrunzq';

/** The paragraph with each over-long run replaced by the stand-in, and the runs in order. */
function standInForLongRuns(paragraph: string): { read: string; runs: string[] } {
  const runs: string[] = [];
  const read = paragraph.replace(longRun, (run) => {
    runs.push(run);
    return standIn;
  });
  return { read, runs };
}

/** The text with its stand-ins replaced by the next runs (taken from the front of `runs`). */
function putBack(text: string, runs: string[]): string {
  return text.includes(standIn) ? text.replaceAll(standIn, () => runs.shift() ?? standIn) : text;
}

function parseParagraph(paragraph: string, stopWords: ReadonlySet<string> | null): Piece[] {
  const { read, runs } = standInForLongRuns(paragraph);
  return runs.length === 0
    ? readParagraph(paragraph, stopWords)
    : withRunsPutBack(readParagraph(read, stopWords), runs);
}

/** Pieces read with stand-ins, made whole: a run is a symbol, its own normal form, stem and lemma. */
function withRunsPutBack(pieces: Piece[], runs: string[]): Piece[] {
  const forTokens = [...runs];
  return pieces.map((piece) => ({
    text: putBack(piece.text, runs),
    tokens: piece.tokens.map((token) => {
      if (!token.text.includes(standIn)) return token;
      const text = putBack(token.text, forTokens);
      const normal = text.toLowerCase();
      return { ...token, text, normal, stem: normal, lemma: normal, pos: 'X', kind: 'symbol' };
    }),
  }));
}

function readParagraph(paragraph: string, stopWords: ReadonlySet<string> | null): Piece[] {
  const nlp = english();
  // wink declares its `its` helpers as methods; they are plain functions that never use `this`.
  /* eslint-disable @typescript-eslint/unbound-method */
  const {
    normal,
    stem,
    lemma,
    pos: partOfSpeech,
    type,
    stopWordFlag,
    negationFlag,
    precedingSpaces,
  } = nlp.its;
  /* eslint-enable @typescript-eslint/unbound-method */
  const doc = nlp.readDoc(paragraph);
  const unspaced = hasUnspacedWords(paragraph);
  const otherScripts = hasOtherScriptLetters(paragraph);
  const pieces: Piece[] = [];
  const found = doc.sentences();
  for (let k = 0; k < found.length(); k += 1) {
    const sentence = found.itemAt(k);
    const tokens = sentence.tokens();
    const texts: string[] = tokens.out();
    const normals = strings(tokens.out(normal));
    // The Porter stemmer's suffix patterns take time quadratic in a word's length: one 50,000-character
    // "word" held the API's event loop for half a minute (found by npm run fuzz). A token that long is no
    // word; it keeps its normal form as its stem.
    const stems = texts.some((t) => t.length > longestStemmed)
      ? texts.map((t, i) =>
          t.length > longestStemmed
            ? (normals[i] ?? t.toLowerCase())
            : String(tokens.itemAt(i).out(addon(stem))),
        )
      : strings(tokens.out(addon(stem)));
    const lemmas = strings(tokens.out(addon(lemma)));
    const pos = strings(tokens.out(partOfSpeech)) as PartOfSpeech[];
    const kinds = strings(tokens.out(type));
    const stops = tokens.out(stopWordFlag);
    const negations = tokens.out(negationFlag);
    const spaces = strings(tokens.out(precedingSpaces));
    const winkTokens: Token[] = texts.map((text, i) => ({
      text,
      normal: normals[i] ?? text.toLowerCase(),
      stem: stems[i] ?? text.toLowerCase(),
      lemma: lemmas[i] ?? text.toLowerCase(),
      pos: pos[i] ?? 'X',
      kind: kinds[i] ?? 'word',
      stopWord: stops[i] === true || (stopWords?.has(normals[i] ?? text.toLowerCase()) ?? false),
      negated: negations[i] === true,
      spaced: (spaces[i] ?? '').length > 0,
    }));
    pieces.push({
      text: sentence.out().trim(),
      // wink gives Chinese, Japanese, Thai, ... as one unknown token a run: cut into words; and other
      // alphabets' words as unknown tokens, cut at every letter beyond Latin-1: made whole words.
      tokens: otherScripts
        ? markStopWords(
            otherScriptWords(unspaced ? winkTokens.flatMap(unspacedTokens) : winkTokens),
            stopWords,
          )
        : winkTokens,
    });
  }
  return pieces;
}

/** Words made whole after wink's pass are the language's stop words too. */
function markStopWords(tokens: Token[], stopWords: ReadonlySet<string> | null): Token[] {
  if (!stopWords) return tokens;
  return tokens.map((t) =>
    !t.stopWord && t.kind === 'word' && stopWords.has(t.normal) ? { ...t, stopWord: true } : t,
  );
}

function joinContinuations(pieces: Piece[]): Piece[] {
  const joined: Piece[] = [];
  for (const piece of pieces) {
    const previous = joined.at(-1);
    if (previous && continues(piece)) {
      const first = piece.tokens[0];
      joined[joined.length - 1] = {
        text: `${previous.text}${first?.spaced ? ' ' : ''}${piece.text}`,
        tokens: [...previous.tokens, ...piece.tokens],
      };
    } else {
      joined.push(piece);
    }
  }
  return joined;
}

/**
 * No sentence starts glued to the previous one ("Amazon.|com"), with closing punctuation (", starring",
 * '.." he recalled') or with a lowercase word ("she asked"; "iPhone" is a name, not lowercase).
 */
function continues(piece: Piece): boolean {
  const first = piece.tokens[0];
  if (!first) return false;
  if (!first.spaced) return true;
  return /^[,;:.)\]…]/.test(piece.text) || /^[a-z]+\b/.test(piece.text);
}

/** wink types its addon helpers (stem, lemma) with a signature its own `out` does not accept. */
function addon(helper: unknown): ItsFunction<string> {
  return helper as ItsFunction<string>;
}

/** wink's typings widen every `out(its.x)` to `T[] | string[]`; these are all strings at run time. */
function strings(values: readonly unknown[]): string[] {
  return values.map((v) => String(v));
}
