// What the engines are given of a text: the text as written, less what they read at a cost out of
// proportion to what a listener hears. Measured on the embedded engines: 400 full stops in a row took 8 s
// and came back as 100 s of pauses (a sentence's pause each); 5,000 emoji around one letter took 17 s and
// came back as silence. So a run of more than three punctuation marks or symbols is read as its first
// three ("!!!!!!" as "!!!", ". . . . ." as "..."), and emoji are not read at all (every voice spoke them as
// silence). Letters, digits and markup are untouched: `<b>` is still read out.
import { normaliseWhitespace } from './text-chunks.ts';

/** Emoji with their modifiers, joiners and presentation selectors (a keycap keeps its digit). */
const emoji =
  /(?:\p{Extended_Pictographic}|[\u{1F3FB}-\u{1F3FF}\u{1F1E6}-\u{1F1FF}]|\u200D|\uFE0E|\uFE0F|\u20E3)+/gu;

/** Four or more punctuation marks or symbols, spaces between them allowed. */
const markRun = /(?:[\p{P}\p{S}]\s*){4,}/gu;

export function speakableText(text: string): string {
  return normaliseWhitespace(
    text.replace(emoji, ' ').replace(markRun, (run) => {
      const marks = Array.from(run.replace(/\s+/gu, '')).slice(0, 3).join('');
      return /\s$/u.test(run) ? `${marks} ` : marks;
    }),
  );
}
