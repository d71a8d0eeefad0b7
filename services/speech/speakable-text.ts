// What the engines are given of a text: the text as written, less what they read at a cost out of
// proportion to what a listener hears. Measured on the embedded engines: 400 full stops in a row took 8 s
// and came back as 100 s of pauses (a sentence's pause each); 5,000 emoji around one letter took 17 s and
// came back as silence. So a run of more than three punctuation marks or symbols is read as its first
// three ("!!!!!!" as "!!!", ". . . . ." as "..."), and emoji are not read at all (every voice spoke them as
// silence). Fullwidth letters and digits are read as the ASCII ones they are; other letters, digits and
// markup are untouched: `<b>` is still read out.
import { normaliseWhitespace } from './text-chunks.ts';

/** Emoji with their modifiers, joiners and presentation selectors (a keycap keeps its digit). */
const emoji =
  /(?:\p{Extended_Pictographic}|[\u{1F3FB}-\u{1F3FF}\u{1F1E6}-\u{1F1FF}]|\u200D|\uFE0E|\uFE0F|\u20E3)+/gu;

/** Four or more punctuation marks or symbols, spaces between them allowed. */
const markRun = /(?:[\p{P}\p{S}]\s*){4,}/gu;

/**
 * Fullwidth Latin letters and digits (U+FF10–FF5A), which Japanese and Chinese text uses: espeak-ng read
 * each as its code point's name ("letter F F four eight" for "Ｈ", 27 s for one sentence) and left the
 * digits out. They are the ASCII letters and digits in another width.
 */
const fullwidthAlphanumeric = /[\uff10-\uff19\uff21-\uff3a\uff41-\uff5a]/gu;
const narrow = (c: string) => String.fromCharCode(c.charCodeAt(0) - 0xfee0);

export function speakableText(text: string): string {
  return normaliseWhitespace(
    text
      .replace(fullwidthAlphanumeric, narrow)
      .replace(emoji, ' ')
      .replace(markRun, (run) => {
        const marks = Array.from(run.replace(/\s+/gu, '')).slice(0, 3).join('');
        return /\s$/u.test(run) ? `${marks} ` : marks;
      }),
  );
}
