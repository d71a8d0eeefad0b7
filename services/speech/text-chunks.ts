// Splitting text into pieces a provider accepts in one request. Where a piece ends, the synthesizer puts
// a pause, so the cut is made where a reader pauses anyway: between sentences first, then between
// clauses, then between words; only a single token longer than the limit (a long URL, a run of CJK text
// without punctuation) is cut inside, and then between graphemes, never inside a surrogate pair or a
// combining sequence. Nothing is dropped, added or interpreted: markup stays text, and the pieces put
// back together (a space between two of them where the text had one) are the whitespace-normalised input.
import { segmentsInPieces } from '../runtime/dictionary-words.ts';
import type { SpeechLimits } from './provider.ts';

export type TextLimits = Pick<SpeechLimits, 'maxChars' | 'maxBytes'>;

/** Every run of whitespace (line breaks, tabs, no-break spaces...) becomes one space; ends trimmed. */
export const normaliseWhitespace = (text: string): string => text.replace(/\s+/gu, ' ').trim();

/** Thrown when one grapheme alone is over the limit: it cannot be cut without breaking a character. */
export class UnsplittableTextError extends RangeError {
  constructor(limits: TextLimits) {
    super(`a single character sequence is longer than the limit (${describeLimits(limits)})`);
    this.name = 'UnsplittableTextError';
  }
}

export const describeLimits = (limits: TextLimits): string =>
  [
    limits.maxChars === undefined ? null : `${limits.maxChars} characters`,
    limits.maxBytes === undefined ? null : `${limits.maxBytes} UTF-8 bytes`,
  ]
    .filter(Boolean)
    .join(' and ') || 'none';

const encoder = new TextEncoder();

/**
 * Whether `text` fits. Characters are counted as UTF-16 code units, which is never fewer than code
 * points, so a piece that fits here fits a provider counting either way.
 */
export function fitsLimits(text: string, limits: TextLimits): boolean {
  if (limits.maxChars !== undefined && text.length > limits.maxChars) return false;
  if (limits.maxBytes !== undefined) {
    // Bytes are at most 3 per UTF-16 unit; only count them when it could matter.
    if (text.length * 3 > limits.maxBytes && encoder.encode(text).length > limits.maxBytes) return false;
  }
  return true;
}

// ---- where text may be cut, coarsest first; each splitter returns parts that tile its input ------------

const sentenceSegmenter = new Intl.Segmenter('en', { granularity: 'sentence' });
const wordSegmenter = new Intl.Segmenter('en', { granularity: 'word' });
const graphemeSegmenter = new Intl.Segmenter('en', { granularity: 'grapheme' });

/**
 * Titles and abbreviations a sentence rarely ends with, followed by a full stop ICU's sentence rules take
 * for the end of a sentence ("Mr. Smith"). Case matters: "No. 5" but "I said no."
 */
const abbreviations = new Set(
  (
    'Mr Mrs Ms Mx Dr Prof Sr Jr St Mt Ft Gen Gov Sen Rep Rev Hon Capt Col Lt Sgt Cpl Maj Adm Cmdr Supt ' +
    'Insp Pres Atty Messrs Mme Mlle Sra Srta Hr Fr Dipl Ing No Nos Nr Vol Vols Fig Figs Art Ch ' +
    'Sec Ave Blvd Rd Co Corp Inc Ltd Bros Jan Feb Mar Apr Jun Jul Aug Sep Sept Oct Nov Dec vs approx ' +
    'ca cf al bzw ed eds p pp'
  ).split(' '),
);

/** Whether a sentence segment really ends inside a name or an abbreviation, so the next one continues it. */
function endsWithAbbreviation(segment: string): boolean {
  const trimmed = segment.trimEnd();
  if (!trimmed.endsWith('.')) return false;
  // "U.S.", "e.g.", "a.m.", "z.B.": letters each followed by a full stop.
  if (/(?:^|[\s("'“‘[])(?:\p{L}\.){2,}$/u.test(trimmed)) return true;
  // An initial: "J. R. R. Tolkien".
  if (/(?:^|[\s("'“‘[])\p{Lu}\.$/u.test(trimmed)) return true;
  const word = /(?:^|[\s("'“‘[])(\p{L}+)\.$/u.exec(trimmed)?.[1];
  return word !== undefined && abbreviations.has(word);
}

function sentences(text: string): string[] {
  const parts: string[] = [];
  for (const { segment } of sentenceSegmenter.segment(text)) {
    const last = parts.length - 1;
    if (last >= 0 && endsWithAbbreviation(parts[last]!)) parts[last] += segment;
    else parts.push(segment);
  }
  return parts;
}

/** Tiles `text` into parts ending right after each match of `boundary` (global regex). */
function splitAfter(text: string, boundary: RegExp): string[] {
  const parts: string[] = [];
  let start = 0;
  for (const match of text.matchAll(boundary)) {
    const end = match.index + match[0].length;
    if (end > start && end < text.length) {
      parts.push(text.slice(start, end));
      start = end;
    }
  }
  parts.push(text.slice(start));
  return parts;
}

/** After a comma, semicolon or colon followed by a space (not "3,000" or "10:30"), or a CJK one. */
const clauses = (text: string) => splitAfter(text, /[,;:]+["'”’)\]]*\s+|[，、；：]+/gu);
const spaceSeparated = (text: string) => splitAfter(text, /\s+/gu);
const words = (text: string) => Array.from(segmentsInPieces(wordSegmenter, text), (s) => s.segment);
const graphemes = (text: string) => Array.from(graphemeSegmenter.segment(text), (s) => s.segment);

const levels = [sentences, clauses, spaceSeparated, words, graphemes];

function pack(text: string, level: number, limits: TextLimits): string[] {
  const pieces: string[] = [];
  let current = '';
  for (const unit of levels[level]!(text)) {
    if (fitsLimits((current + unit).trim(), limits)) {
      current += unit;
      continue;
    }
    if (current.trim()) pieces.push(current);
    current = '';
    if (fitsLimits(unit.trim(), limits)) {
      current = unit;
      continue;
    }
    if (level === levels.length - 1) throw new UnsplittableTextError(limits);
    const finer = pack(unit, level + 1, limits);
    pieces.push(...finer.slice(0, -1));
    current = finer.at(-1) ?? '';
  }
  if (current.trim()) pieces.push(current);
  return pieces;
}

/**
 * Splits `text` into pieces that each fit `limits`, as few as the cut rules allow, whitespace-normalised
 * and trimmed. Empty (or whitespace-only) text gives no pieces.
 */
export function splitText(text: string, limits: TextLimits): string[] {
  const normalised = normaliseWhitespace(text);
  if (!normalised) return [];
  return pack(normalised, 0, limits)
    .map((piece) => piece.trim())
    .filter(Boolean);
}
