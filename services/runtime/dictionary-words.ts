// Words of the scripts written without spaces (Chinese, Japanese, Thai, Lao, Khmer, Burmese), as ICU's
// dictionaries cut them through Intl.Segmenter, in every Node build.
//
// ICU's dictionary break iterator slows down beyond measure on one long run: 40,000 characters of
// Chinese took it 34 s and 80,000 of one character 68 s, where 20,000 took a quarter of a second (Node 20,
// ICU 74). So a text is handed to it in pieces of at most `piece` characters, each cut after the last
// space, mark or letter of another script in its final quarter; only a run with none of those in 500
// characters has a word cut in two.

/** The scripts ICU cuts by dictionary, for a regular expression's character class. */
export const unspacedScripts =
  '\\p{sc=Han}\\p{sc=Hiragana}\\p{sc=Katakana}\\p{sc=Thai}\\p{sc=Lao}\\p{sc=Khmer}\\p{sc=Myanmar}';

const breakable = new RegExp(`[^${unspacedScripts}]`, 'u');
const highSurrogate = /[\ud800-\udbff]/;
const lowSurrogate = /[\udc00-\udfff]/;

/** The segments `segmenter` finds in the text, handed to it in pieces of at most `piece` characters. */
export function* segmentsInPieces(
  segmenter: Intl.Segmenter,
  text: string,
  piece = 2_000,
): Generator<Intl.SegmentData> {
  const latest = Math.floor((piece * 3) / 4);
  let start = 0;
  while (start < text.length) {
    let end = Math.min(text.length, start + piece);
    if (end < text.length) {
      // Never between the two halves of a surrogate pair.
      if (highSurrogate.test(text[end - 1]!)) end -= 1;
      let cut = end;
      while (cut > start + latest) {
        const last = lowSurrogate.test(text[cut - 1]!) && cut - 2 >= start ? cut - 2 : cut - 1;
        if (breakable.test(text.slice(last, cut))) break;
        cut = last;
      }
      if (cut > start + latest) end = cut;
    }
    for (const segment of segmenter.segment(text.slice(start, end))) {
      yield { ...segment, index: segment.index + start, input: text };
    }
    start = end;
  }
}
