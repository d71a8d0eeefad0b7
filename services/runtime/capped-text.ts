// Text cut to a length at a word, else between two graphemes, and marked with "…": the feeds' fields
// (normalise-item.ts) and a summary's sentences (intelligence/embedded/summary.ts).
/**
 * `text` cut to at most `max` characters (UTF-16 code units, as String.length counts), at a space when
 * one is near, else between two graphemes, ending with "…".
 */
export function capped(text: string, max: number): string {
  if (text.length <= max) return text;
  let cut = text.lastIndexOf(' ', max - 1);
  if (cut < max * 0.9) cut = graphemeStart(text, max - 1);
  return `${text.slice(0, cut).trimEnd()}…`;
}

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
/** How far before a cut graphemes are looked for (code units): far beyond any real one's length. */
const graphemeWindow = 128;

/**
 * Where the grapheme that `index` is in starts: a cut there leaves each character whole, an emoji with
 * its skin tone and joined emoji (👩‍👩‍👧‍👦), a flag's two letters, a letter with its accents. Slicing at
 * `index` split them, or a surrogate pair. Only a window before the cut is read (a content is not
 * segmented whole to cut it); a "grapheme" longer than the window (a run of stacked accents) is cut
 * inside, though never between the halves of a surrogate pair.
 */
function graphemeStart(text: string, index: number): number {
  const from = Math.max(0, index - graphemeWindow);
  let start = 0;
  // Up to the whole character at `index`: whether a grapheme starts there depends on it.
  for (const segment of graphemes.segment(text.slice(from, index + 2))) {
    if (segment.index > index - from) break;
    start = segment.index;
  }
  if (start > 0) return from + start;
  const code = text.charCodeAt(index - 1);
  return code >= 0xd800 && code <= 0xdbff ? index - 1 : index;
}
