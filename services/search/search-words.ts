// A text's words as search compares them, lowercased. The query parser (`q`), the index the projector
// writes (article-terms.ts, posting-rows.ts), the article query's SQL, the live stream's matcher and
// webhook filters all take words from here, so a word of a query is looked up exactly as the index filed
// it and checked exactly as the scan would check it.
//
// Two kinds of text:
// - Spaced scripts (Latin, Cyrillic, Greek, Arabic, Hebrew, Devanagari, ...): a word is a run of letters,
//   marks and digits. Marks belong to the word: the vowel signs of Devanagari, Bengali or Tamil and the
//   harakat of Arabic are combining marks, and a word cut at them would be found only as a phrase of its
//   pieces.
// - Scripts written without spaces between words (Chinese, Japanese, Korean, Thai, Lao, Khmer, Burmese):
//   a run of them is not a word but a sentence or a clause, and cutting it into words needs a dictionary
//   that would have to cut query and text alike and that the SQL side (ClickHouse's re2) does not have.
//   A run is matched as a substring instead, and indexed by its characters and pairs of characters (the
//   overlapping bigrams of Lucene's CJK analyzer): a query's run of two or more characters is looked up
//   by its pairs, all of which a text holding it holds; one character by itself.

/** The scripts written without spaces between words. */
const unspacedScripts = ['Han', 'Hiragana', 'Katakana', 'Hangul', 'Thai', 'Lao', 'Khmer', 'Myanmar'];
/** Characters of no script used inside words of those: the prolonged sound mark (ー, halfwidth ｰ). */
const unspacedCommon = '\u30fc\uff70';

/** The unspaced scripts' characters as a character class body, in JavaScript's syntax and in re2's. */
export const unspacedJs = unspacedScripts.map((s) => `\\p{sc=${s}}`).join('') + unspacedCommon;
const unspacedRe2 = unspacedScripts.map((s) => `\\p{${s}}`).join('') + unspacedCommon;

// A run of unspaced characters (with the marks that follow them), or of the other letters, marks and
// digits. The `v` flag's set difference: Node 20 has it; the TypeScript target may not know it.
const piecePattern = new RegExp(
  `[${unspacedJs}][${unspacedJs}\\p{M}]*|[[\\p{L}\\p{M}\\p{N}]--[${unspacedJs}]]+`,
  'gv',
);
// The same pieces in text without unspaced characters, found faster; and a quick test, by blocks of code
// points, that a text has none: true for every unspaced character (a unit test checks each code point)
// and for some others, such as CJK punctuation and every character outside the basic plane.
const spacedPattern = /[\p{L}\p{M}\p{N}]+/gu;
const mayBeUnspaced =
  /[\u0e00-\u0eff\u1000-\u11ff\u1780-\u17ff\u19e0-\u19ff\u2e80-\u9fff\ua960-\ua97f\ua9e0-\ua9ff\uaa60-\uaa7f\uac00-\ud7ff\uf900-\ufaff\uff66-\uffdc\ud800-\udbff]/;
const unspacedStart = new RegExp(`^[${unspacedJs}]`, 'u');
const unspacedEnd = new RegExp(`[${unspacedJs}]\\p{M}*$`, 'u');

/** Whether a word (as searchWords gives it) is a run of unspaced text, matched as a substring. */
export const isUnspaced = (word: string): boolean => unspacedStart.test(word);

/**
 * A regular expression (JavaScript, `v` flag) matching a phrase in a text as whole words: where the phrase
 * begins or ends with a spaced script's letter or digit, the text's character next to it must not be one
 * (it may be unspaced text: "G7" in "G7サミット"); where it begins or ends with unspaced text, anything may
 * be next to it ("首相" in "日本の首相が"). The phrase is matched literally, its spaces as any spaces.
 */
export function phrasePattern(phrase: string): RegExp {
  const spacedWordChar = `[[\\p{L}\\p{M}\\p{N}]--[${unspacedJs}]]`;
  const escaped = phrase.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\s+/g, '\\s+');
  const before = unspacedStart.test(phrase) ? '' : `(?<!${spacedWordChar})`;
  const after = unspacedEnd.test(phrase) ? '' : `(?!${spacedWordChar})`;
  return new RegExp(`${before}${escaped}${after}`, 'v');
}

/**
 * The text's words: the runs of letters, marks and digits of spaced scripts, and the runs of unspaced
 * text each as one piece, in order, lowercased. Composed first (NFC): macOS and some input methods send
 * "ç" as "c" and a combining cedilla, where the articles, like nearly all text on the web, hold it
 * composed.
 */
export function searchWords(text: string): string[] {
  return words(text).words;
}

function words(text: string): { words: string[]; unspaced: boolean } {
  const composed = text.normalize('NFC');
  const unspaced = mayBeUnspaced.test(composed);
  const found = composed.match(unspaced ? piecePattern : spacedPattern) ?? [];
  return { words: found.map((w) => w.toLowerCase()), unspaced };
}

/** For the unit test: the quick test's answer for one character. */
export const mayBeUnspacedCharacter = (c: string) => mayBeUnspaced.test(c);

/**
 * The terms the index files for a text: its spaced words, and each character and each pair of adjacent
 * characters of its unspaced runs. A field's length (relevance.ts) is counted in these.
 */
export function indexedTerms(text: string): string[] {
  const { words: found, unspaced } = words(text);
  if (!unspaced) return found;
  const terms: string[] = [];
  for (const word of found) {
    if (!isUnspaced(word)) terms.push(word);
    else {
      const chars = Array.from(word);
      for (let i = 0; i < chars.length; i++) {
        terms.push(chars[i]!);
        if (i + 1 < chars.length) terms.push(chars[i]! + chars[i + 1]!);
      }
    }
  }
  return terms;
}

/**
 * The index terms that every text holding these words (a term of a query) holds: a spaced word itself;
 * an unspaced run of one character, that character; of more, its pairs of adjacent characters.
 */
export function lookupTerms(words: readonly string[]): string[] {
  return words.flatMap((word) => {
    if (!isUnspaced(word)) return [word];
    const chars = Array.from(word);
    if (chars.length === 1) return chars;
    return chars.slice(1).map((c, i) => chars[i]! + c);
  });
}

/**
 * Longer words are not indexed (base64, run-together URLs and other junk would each become a posting
 * list of one). An unspaced run is never too long: the index holds it by its characters.
 */
export const maxIndexedWordLength = 64;

export const isIndexed = (word: string) => word.length > 0 && word.length <= maxIndexedWordLength;

/**
 * A regular expression matching the words in a lowercased text, next to each other and in order: a spaced
 * word as a whole word (what is next to it is not a letter, mark or digit of a spaced script), an
 * unspaced run anywhere. Between two words only what is not a letter, mark or digit, at least one
 * character of it unless one of the two is unspaced (the query "G7サミット" finds "G7サミット" and "G7・サミット").
 * In JavaScript's syntax (with the `u` flag) or re2's (ClickHouse's match); the words need no escaping,
 * being letters, marks and digits alone.
 */
export function wordsPattern(words: readonly string[], dialect: 'js' | 're2'): string {
  const unspaced = dialect === 'js' ? unspacedJs : unspacedRe2;
  const other = '[^\\p{L}\\p{M}\\p{N}]';
  const edge = `(?:${other}|[${unspaced}])`;
  let pattern = '';
  words.forEach((word, i) => {
    const joined = isUnspaced(word);
    if (i === 0) pattern += joined ? '' : `(?:^|${edge})`;
    else pattern += joined || isUnspaced(words[i - 1]!) ? `${other}*` : `${other}+`;
    pattern += word;
    if (i === words.length - 1 && !joined) pattern += `(?:$|${edge})`;
  });
  return pattern;
}
