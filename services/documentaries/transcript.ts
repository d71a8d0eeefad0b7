// What a documentary says and when, for listeners and API users: WebVTT captions (one cue per sentence,
// for players and the hard of hearing) and the JSON transcript (segments with their articles and
// sentences). Both come from the assembled timeline, so their times are the audio's own.
import { clockTime, type AssembledTimeline, type SegmentKind } from './assembly.ts';

export interface TranscriptJson {
  duration_ms: number;
  segments: {
    kind: SegmentKind;
    title: string;
    start_ms: number;
    end_ms: number;
    article_ids: string[];
    sentences: { text: string; start_ms: number; end_ms: number }[];
  }[];
}

/** The JSON transcript, in the API's snake_case. */
export function transcriptJson(timeline: AssembledTimeline): TranscriptJson {
  return {
    duration_ms: timeline.durationMs,
    segments: timeline.segments.map((segment) => ({
      kind: segment.kind,
      title: segment.title,
      start_ms: segment.startMs,
      end_ms: segment.endMs,
      article_ids: [...segment.articleIds],
      sentences: segment.sentences.map((sentence) => ({
        text: sentence.text,
        start_ms: sentence.startMs,
        end_ms: sentence.endMs,
      })),
    })),
  };
}

// ---- WebVTT ---------------------------------------------------------------------------------------

export interface Cue {
  startMs: number;
  endMs: number;
  text: string;
}

/**
 * Cue text as WebVTT reads it: `&`, `<` and `>` escaped (so no sentence is taken for markup or ends a
 * cue with `-->`), and on one line, since a blank line would end the cue.
 */
const cueText = (text: string) =>
  text.replace(/\s+/g, ' ').trim().replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * WebVTT captions: one cue per sentence, at its place in the audio. A sentence that takes no time (its
 * audio was silence) or has no text has no cue: WebVTT wants every cue to last and to say something.
 */
export function webVtt(timeline: AssembledTimeline): string {
  const cues = timeline.segments.flatMap((segment) =>
    segment.sentences
      .map((sentence) => ({ ...sentence, text: cueText(sentence.text) }))
      .filter((sentence) => sentence.endMs > sentence.startMs && sentence.text !== '')
      .map((s) => `${clockTime(s.startMs)} --> ${clockTime(s.endMs)}\n${s.text}\n`),
  );
  return ['WEBVTT\n', ...cues].join('\n');
}

export class WebVttError extends Error {
  constructor(message: string, line?: number) {
    super(line === undefined ? `not valid WebVTT: ${message}` : `not valid WebVTT, line ${line}: ${message}`);
    this.name = 'WebVttError';
  }
}

const timestamp = /^(?:(\d{2,}):)?([0-5]\d):([0-5]\d)\.(\d{3})$/;

function parseTimestamp(text: string, line: number): number {
  const match = timestamp.exec(text);
  if (!match) throw new WebVttError(`"${text}" is not a timestamp ([HH:]MM:SS.mmm)`, line);
  const [, hours, minutes, seconds, millis] = match;
  return ((Number(hours ?? 0) * 60 + Number(minutes)) * 60 + Number(seconds)) * 1000 + Number(millis);
}

const entities: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  nbsp: '\u00a0',
  lrm: '\u200e',
  rlm: '\u200f',
};

/** Cue text as plain text: tags (`<b>`, `<v Speaker>`) dropped, character references resolved. */
const plainText = (payload: string) =>
  payload
    .replace(/<[^>]*>/g, '')
    .replace(
      /&(?:#(\d+)|#x([0-9a-f]+)|([a-z]+));/gi,
      (whole, decimal?: string, hex?: string, name?: string) => {
        if (decimal !== undefined) return String.fromCodePoint(Number(decimal));
        if (hex !== undefined) return String.fromCodePoint(parseInt(hex, 16));
        return entities[name!.toLowerCase()] ?? whole;
      },
    );

/**
 * Reads WebVTT back into cues (text as plain text, lines joined with `\n`). Strict where a player would
 * go wrong: a missing `WEBVTT` header, a block that is not a cue (nor a NOTE, STYLE or REGION), a bad
 * timestamp, a cue that ends before it starts, and cues out of order are errors.
 */
export function parseWebVtt(text: string): Cue[] {
  const lines = text.replace(/^\ufeff/, '').split(/\r\n|\r|\n/);
  if (!/^WEBVTT(?:[ \t].*)?$/.test(lines[0] ?? ''))
    throw new WebVttError('the first line is not "WEBVTT"', 1);
  // Blocks: runs of non-empty lines, with the number of their first line. The header is the first.
  const blocks: { line: number; lines: string[] }[] = [];
  let current: { line: number; lines: string[] } | undefined;
  lines.forEach((content, index) => {
    if (content === '') current = undefined;
    else if (current) current.lines.push(content);
    else blocks.push((current = { line: index + 1, lines: [content] }));
  });
  const cues: Cue[] = [];
  for (const block of blocks.slice(1)) {
    if (/^(NOTE|STYLE|REGION)(?:[ \t]|$)/.test(block.lines[0]!)) continue;
    const timingAt = block.lines[0]!.includes('-->') ? 0 : 1;
    const timing = block.lines[timingAt];
    const line = block.line + timingAt;
    const match = timing === undefined ? null : /^(\S+)[ \t]+-->[ \t]+(\S+)(?:[ \t].*)?$/.exec(timing);
    if (!match) throw new WebVttError('a block that is neither a cue nor a NOTE', block.line);
    const startMs = parseTimestamp(match[1]!, line);
    const endMs = parseTimestamp(match[2]!, line);
    if (endMs <= startMs) throw new WebVttError(`the cue ends (${match[2]}) before it starts`, line);
    const previous = cues.at(-1);
    if (previous && startMs < previous.startMs) {
      throw new WebVttError(`the cue starts (${match[1]}) before the one above it`, line);
    }
    const payload = block.lines.slice(timingAt + 1);
    if (payload.some((content) => content.includes('-->'))) {
      throw new WebVttError('"-->" in cue text (a cue without the blank line before it?)', line + 1);
    }
    cues.push({ startMs, endMs, text: plainText(payload.join('\n')) });
  }
  return cues;
}
