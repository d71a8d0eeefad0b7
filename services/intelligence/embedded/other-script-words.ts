// Words of the alphabets the English tokenizer does not know. wink-nlp types a word of Cyrillic, Greek,
// Arabic, Hebrew, Devanagari, Bengali, Tamil, Armenian, Georgian, ... as "unk", so nothing downstream
// took it for a word: a Russian or Arabic article got no keywords, no insights and no summary terms, and
// a documentary on "искусственный интеллект" found no article. It also cuts a Latin word at every
// letter beyond Latin-1 ("Tiếng" is Ti|ế|ng), which breaks Vietnamese, Polish, Czech, Turkish and
// Romanian words apart. So:
// - pieces of one word written together (no space between) are put back together when one of them is
//   such a letter run;
// - a letter run is a word (stem and lemma its lowercase form: no stemmer here knows those languages),
//   with the full stop or comma that some scripts write against it (नियम।, համար։, قواعد۔, ایران،) cut off
//   as punctuation.
// Chinese, Japanese, Thai, Lao, Khmer, Burmese and Korean are unspaced-words.ts's.
import { otherScriptStopWords } from './stop-words.ts';
import type { Token } from './token.ts';

/** Letters and the marks that belong to them (Devanagari vowel signs, Hebrew points), and joiners. */
const letters = /^[\p{L}\p{M}\u200c\u200d]+$/u;
/** A piece that continues a word may carry an apostrophe's suffix (Turkish İ|stanbul’da). */
const continuation = /^[\p{L}\p{M}\u200c\u200d]+(?:['’][\p{L}\p{M}]+)?$/u;
/** The same with an abbreviation's full stop, which wink keeps on the last piece ("tạo." is t|ạ|o.). */
const lettersAndStop = /^([\p{L}\p{M}\u200c\u200d]+)(\.)$/u;
/** A script's own full stop, comma, semicolon or question mark written against the word it ends (ایران،). */
const trailingStop = /^([\p{L}\p{M}\u200c\u200d]+)([।॥։۔،؛؟])$/u;

/** Whether a text has a character beyond Latin-1, where wink's words end (a quick test before the pass). */
export const hasOtherScriptLetters = (text: string): boolean => /[\u0100-\u{10ffff}]/u.test(text);

/** The tokens with other scripts' words made whole and made words. */
export function otherScriptWords(tokens: readonly Token[]): Token[] {
  const out: Token[] = [];
  for (let i = 0; i < tokens.length; i += 1) {
    const token = tokens[i]!;
    if (!letters.test(token.text)) {
      out.push(...wordOf(token));
      continue;
    }
    // Gather the pieces written against this one.
    let end = i;
    let unknown = token.kind === 'unk';
    while (end + 1 < tokens.length && !tokens[end + 1]!.spaced) {
      const next = tokens[end + 1]!;
      if (continuation.test(next.text)) {
        unknown ||= next.kind === 'unk';
        end += 1;
        continue;
      }
      // "t|ạ|o." ends the word with a full stop: the stop is not part of it.
      if (lettersAndStop.test(next.text) && (unknown || next.kind === 'unk')) {
        unknown = true;
        end += 1;
      }
      break;
    }
    if (end === i || !unknown) {
      // None of the pieces is wink's unknown: each stays as it is. Each later piece of the run would
      // gather the same pieces again (a run of Chinese is thousands of them: time quadratic in its
      // length held the API's event loop), so the run is done here.
      for (let k = i; k <= end; k += 1) out.push(...wordOf(tokens[k]!));
      i = end;
      continue;
    }
    const text = tokens
      .slice(i, end + 1)
      .map((t) => t.text)
      .join('');
    const stop = lettersAndStop.exec(text);
    out.push(letterWord({ ...token, text: stop ? stop[1]! : text }));
    if (stop) out.push(punctuation(token, '.'));
    i = end;
  }
  return out;
}

function wordOf(token: Token): Token[] {
  if (token.kind !== 'unk') return [token];
  if (letters.test(token.text)) return [letterWord(token)];
  const stop = trailingStop.exec(token.text);
  if (stop) return [letterWord({ ...token, text: stop[1]! }), punctuation(token, stop[2]!)];
  return [token];
}

/** Splits are undone by the caller; this makes a letter run a word. */
function letterWord(token: Token): Token {
  const normal = token.text.toLowerCase();
  return {
    ...token,
    normal,
    stem: normal,
    lemma: normal,
    kind: 'word',
    pos: 'X',
    stopWord: otherScriptStopWords.has(normal),
    negated: false,
  };
}

function punctuation(after: Token, text: string): Token {
  return {
    ...after,
    text,
    normal: text,
    stem: text,
    lemma: text,
    kind: 'punctuation',
    pos: 'PUNCT',
    stopWord: false,
    spaced: false,
  };
}
