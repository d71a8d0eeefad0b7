// Assembling a documentary from its narrated sentences: the sentences joined into one programme with a
// timeline exact to the sample (what the transcript and the chapters are made from), the programme
// brought to a podcast's loudness, and encoded with one chapter mark per segment.
//
// The narrator speaks every sentence on its own, so every sentence's place in the programme is known
// from the samples, not estimated from text. Everything here keeps the sample count once the layout is
// made (the loudness step is a gain applied here, not an ffmpeg filter that could resample or pad), so
// the timeline stays true to the audio that is served.
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AudioFormat } from '../audio/audio-store.ts';
import { encodeAudio, EncoderError, runFfmpeg } from '../speech/encoder.ts';
import { ffmpegStoppedFromOutside } from '../speech/stopped-from-outside.ts';
import { concat, fadeEdges, peak, silence, trimSilence } from '../speech/pcm.ts';
import type { Pcm } from '../speech/provider.ts';

export type SegmentKind = 'intro' | 'story' | 'transition' | 'outro';

export interface SpokenSentence {
  text: string;
  pcm: Pcm;
}

export interface SpokenSegment {
  kind: SegmentKind;
  title: string;
  articleIds: string[];
  sentences: SpokenSentence[];
}

export interface AssemblyTiming {
  /** Silence between two sentences of a segment. */
  sentencePauseMs: number;
  /** Silence between the last sentence of a segment and the first of the next: a longer breath. */
  segmentPauseMs: number;
  /** Silence before the first and after the last sentence, so no player clips the first syllable. */
  edgeMs: number;
}

export const defaultTiming: AssemblyTiming = { sentencePauseMs: 350, segmentPauseMs: 900, edgeMs: 50 };

export interface TimelineSentence {
  text: string;
  /** Where its (trimmed) audio starts and ends in the programme, rounded to the millisecond. */
  startMs: number;
  endMs: number;
}

export interface TimelineSegment {
  kind: SegmentKind;
  title: string;
  articleIds: string[];
  /**
   * Segments tile the programme, as chapters do: the first starts at 0, the last ends at the end, and
   * two neighbours meet in the middle of the pause between them (a listener who jumps to a chapter
   * hears a moment of silence, then its first word, whatever the player's seek precision).
   */
  startMs: number;
  endMs: number;
  sentences: TimelineSentence[];
}

export interface AssembledTimeline {
  durationMs: number;
  segments: TimelineSegment[];
}

/** The segments and sentences cannot make a programme: permanent, retrying the same input will not help. */
export class AssemblyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AssemblyError';
  }
}

const describeSegment = (segment: SpokenSegment, index: number) =>
  `segment ${index + 1} (${segment.kind} "${segment.title}")`;

function timingOf(timing: Partial<AssemblyTiming>): AssemblyTiming {
  const resolved: AssemblyTiming = {
    sentencePauseMs: timing.sentencePauseMs ?? defaultTiming.sentencePauseMs,
    segmentPauseMs: timing.segmentPauseMs ?? defaultTiming.segmentPauseMs,
    edgeMs: timing.edgeMs ?? defaultTiming.edgeMs,
  };
  for (const [name, value] of Object.entries(resolved)) {
    if (!Number.isFinite(value) || value < 0) {
      throw new AssemblyError(`${name} must be a number of milliseconds, 0 or more; got ${value}`);
    }
  }
  return resolved;
}

/** The one sample rate of every sentence, or an error naming the first sentence that differs. */
function sampleRateOf(segments: readonly SpokenSegment[]): number {
  let rate: number | undefined;
  segments.forEach((segment, s) =>
    segment.sentences.forEach((sentence, i) => {
      const own = sentence.pcm.sampleRate;
      if (!Number.isInteger(own) || own <= 0) {
        throw new AssemblyError(`sentence ${i + 1} of ${describeSegment(segment, s)} has no sample rate`);
      }
      rate ??= own;
      if (own !== rate) {
        throw new AssemblyError(
          `sentence ${i + 1} of ${describeSegment(segment, s)} is ${own} Hz audio where the first sentence ` +
            `is ${rate} Hz: a documentary is joined from one voice at one sample rate`,
        );
      }
    }),
  );
  if (rate === undefined) throw new AssemblyError('the segments have no sentences to assemble');
  return rate;
}

/**
 * Joins the sentences (each trimmed of its own leading and trailing silence and faded at its edges, as
 * joinSpeech does) with `sentencePauseMs` of silence between two sentences and `segmentPauseMs` between
 * two segments. Every sentence must have the same sample rate. A sentence that is all silence takes no
 * time (it stays in the timeline, zero-length, beside its neighbour); a segment that is all silence is
 * an error, since it would be a chapter with nothing in it.
 */
export function assemble(
  segments: readonly SpokenSegment[],
  timing: Partial<AssemblyTiming> = {},
): { pcm: Pcm; timeline: AssembledTimeline } {
  const { sentencePauseMs, segmentPauseMs, edgeMs } = timingOf(timing);
  if (segments.length === 0) throw new AssemblyError('a documentary needs at least one segment');
  const sampleRate = sampleRateOf(segments);
  const gap = (ms: number) => silence(sampleRate, ms);

  // The layout in samples; milliseconds only at the end, so rounding never accumulates.
  const pieces: Pcm[] = [gap(edgeMs)];
  let at = pieces[0]!.samples.length;
  const segmentStarts: number[] = [];
  const placed: ({ start: number; end: number } | undefined)[][] = [];
  segments.forEach((segment, s) => {
    const spoken = segment.sentences.map((sentence) => fadeEdges(trimSilence(sentence.pcm)));
    if (!spoken.some((piece) => piece.samples.length > 0)) {
      throw new AssemblyError(`${describeSegment(segment, s)} has nothing audible to say`);
    }
    let firstOfSegment = true;
    placed.push(
      spoken.map((piece) => {
        if (piece.samples.length === 0) return undefined;
        if (firstOfSegment) {
          if (s === 0) {
            segmentStarts.push(0);
          } else {
            const pause = gap(segmentPauseMs);
            segmentStarts.push(at + Math.floor(pause.samples.length / 2));
            pieces.push(pause);
            at += pause.samples.length;
          }
        } else {
          const pause = gap(sentencePauseMs);
          pieces.push(pause);
          at += pause.samples.length;
        }
        firstOfSegment = false;
        const start = at;
        pieces.push(piece);
        at += piece.samples.length;
        return { start, end: at };
      }),
    );
  });
  pieces.push(gap(edgeMs));
  const pcm = concat(pieces);
  const total = pcm.samples.length;
  const ms = (samples: number) => Math.round((samples * 1000) / sampleRate);

  const timeline: AssembledTimeline = {
    durationMs: ms(total),
    segments: segments.map((segment, s) => {
      const spots = placed[s]!;
      // A silent sentence sits where the previous sentence of its segment ends (or, before the first
      // audible one, where that starts), so it never falls outside its segment.
      let last = spots.find((spot) => spot !== undefined)!.start;
      return {
        kind: segment.kind,
        title: segment.title,
        articleIds: [...segment.articleIds],
        startMs: ms(segmentStarts[s]!),
        endMs: ms(segmentStarts[s + 1] ?? total),
        sentences: segment.sentences.map((sentence, i) => {
          const spot = spots[i];
          if (spot) last = spot.end;
          return {
            text: sentence.text,
            startMs: ms(spot?.start ?? last),
            endMs: ms(spot?.end ?? last),
          };
        }),
      };
    }),
  };
  return { pcm, timeline };
}

/** The chapter marks of a timeline: one per segment, titled as the segment. */
export const chaptersOf = (timeline: AssembledTimeline): Chapter[] =>
  timeline.segments.map(({ title, startMs, endMs }) => ({ title, startMs, endMs }));

// ---- loudness -------------------------------------------------------------------------------------

/** What podcast platforms ask for (Apple, AES TD1004 for stereo): -16 LUFS integrated. */
export const defaultTargetLufs = -16;
/** Highest true peak let through: room for the mp3 and Opus encoders' own overshoot. */
export const truePeakCeilingDbtp = -1.5;
/** ffmpeg's ebur128 prints its results to a tenth of a dB: so much is kept in hand below the ceiling. */
const measurementStepDb = 0.1;
/** ebur128's absolute gate: what it reports when no 400 ms block of the programme rose above it. */
const absoluteGateLufs = -70;

export interface LoudnessMeasurement {
  /** Integrated loudness (EBU R128 / ITU-R BS.1770 of the one channel); -Infinity when nothing is loud enough to measure. */
  integratedLufs: number;
  /** Highest true (inter-sample) peak, dBTP; -Infinity for digital silence. */
  truePeakDbtp: number;
}

export interface LoudnessOptions {
  /** Integrated loudness to reach, LUFS: -16 by default. */
  targetLufs?: number;
  /** The true peak the gain may not push the programme above, dBTP: -1.5 by default. */
  ceilingDbtp?: number;
  ffmpegPath?: string;
  timeoutMs?: number;
}

/** Measures `pcm` with ffmpeg's EBU R128 meter (`ebur128=peak=true`). */
export async function measureLoudness(
  pcm: Pcm,
  options: Pick<LoudnessOptions, 'ffmpegPath' | 'timeoutMs'> = {},
): Promise<LoudnessMeasurement> {
  const log = await ffmpegLog(
    options.ffmpegPath ?? 'ffmpeg',
    [
      ...['-hide_banner', '-nostats', '-loglevel', 'info'],
      ...['-f', 's16le', '-ar', String(pcm.sampleRate), '-ac', '1', '-i', 'pipe:0'],
      // Per-frame lines only at verbose level: the log keeps just the summary.
      ...['-af', 'ebur128=peak=true:framelog=verbose', '-f', 'null', '-'],
    ],
    littleEndianBytes(pcm.samples),
    options.timeoutMs ?? 120_000,
  );
  return parseEbur128Summary(log);
}

/** Reads the summary ebur128 logs when its input ends: `I: -20.5 LUFS` and, under `True peak:`, `Peak: -1.5 dBFS`. */
export function parseEbur128Summary(log: string): LoudnessMeasurement {
  const at = log.lastIndexOf('Summary:');
  const summary = at === -1 ? '' : log.slice(at);
  const integrated = /Integrated loudness:\s+I:\s+(\S+)\s+LUFS/.exec(summary);
  const truePeak = /True peak:\s+Peak:\s+(\S+)\s+dBFS/.exec(summary);
  if (!integrated || !truePeak) {
    throw new EncoderError(
      `ffmpeg's loudness meter gave no summary: ${log.trim().slice(-300) || 'no output'}`,
    );
  }
  const integratedLufs = level(integrated[1]!);
  return {
    integratedLufs: integratedLufs <= absoluteGateLufs ? -Infinity : integratedLufs,
    truePeakDbtp: level(truePeak[1]!),
  };
}

function level(text: string): number {
  if (/^-inf$/i.test(text)) return -Infinity;
  if (/^\+?inf$/i.test(text)) return Infinity;
  const value = Number(text);
  if (!Number.isFinite(value)) throw new EncoderError(`ffmpeg's loudness meter printed "${text}"`);
  return value;
}

export interface NormalisedLoudness {
  pcm: Pcm;
  /** Integrated loudness before the gain; -Infinity when there was nothing to measure (silence). */
  measuredLufs: number;
  /** The gain applied; 0 for silence. */
  gainDb: number;
  /** True peak before the gain. */
  truePeakDbtp: number;
  /** The gain stopped short of the target so the true peak stays under the ceiling. */
  limitedByPeak: boolean;
}

/**
 * One linear gain for the whole programme, so its integrated loudness reaches `targetLufs`, but never
 * so much that its true peak rises above `ceilingDbtp` (then the programme stays quieter than the
 * target: `limitedByPeak`). Linear, with no limiter, so the voice is not coloured and the sample count
 * (the timeline) is unchanged. Silence, or audio too short or quiet to measure, is returned as it is.
 */
export async function normaliseLoudness(
  pcm: Pcm,
  options: LoudnessOptions = {},
): Promise<NormalisedLoudness> {
  const target = options.targetLufs ?? defaultTargetLufs;
  const ceiling = options.ceilingDbtp ?? truePeakCeilingDbtp;
  if (!Number.isFinite(target) || !Number.isFinite(ceiling)) {
    throw new RangeError(`loudness target ${target} LUFS and ceiling ${ceiling} dBTP must be numbers`);
  }
  const unchanged = (measured: LoudnessMeasurement): NormalisedLoudness => ({
    pcm,
    measuredLufs: measured.integratedLufs,
    gainDb: 0,
    truePeakDbtp: measured.truePeakDbtp,
    limitedByPeak: false,
  });
  if (peak(pcm) === 0) return unchanged({ integratedLufs: -Infinity, truePeakDbtp: -Infinity });
  const measured = await measureLoudness(pcm, options);
  if (!Number.isFinite(measured.integratedLufs)) return unchanged(measured);
  const wanted = target - measured.integratedLufs;
  const allowed = ceiling - measurementStepDb - measured.truePeakDbtp;
  const gainDb = Math.min(wanted, allowed);
  return {
    pcm: applyGain(pcm, gainDb),
    measuredLufs: measured.integratedLufs,
    gainDb,
    truePeakDbtp: measured.truePeakDbtp,
    limitedByPeak: allowed < wanted,
  };
}

function applyGain(pcm: Pcm, gainDb: number): Pcm {
  const factor = 10 ** (gainDb / 20);
  const samples = new Int16Array(pcm.samples.length);
  for (let i = 0; i < samples.length; i++) {
    const value = Math.round(pcm.samples[i]! * factor);
    samples[i] = value > 32767 ? 32767 : value < -32768 ? -32768 : value;
  }
  return { sampleRate: pcm.sampleRate, samples };
}

// ---- chapters -------------------------------------------------------------------------------------

export interface Chapter {
  title: string;
  startMs: number;
  endMs: number;
}

/** A value as FFMETADATA1 reads it: `=`, `;`, `#`, `\` and line breaks are escaped with a backslash. */
export const escapeMetadata = (value: string): string => value.replace(/[=;#\\\n]/g, (c) => `\\${c}`);

/** A chapter title on one line, as players show it: control characters and line breaks become spaces. */
const oneLine = (title: string) =>
  title
    .replace(/\p{Cc}/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();

function checkedChapters(chapters: readonly Chapter[]): Chapter[] {
  let previousEnd = 0;
  return chapters.map((chapter, index) => {
    const startMs = Math.round(chapter.startMs);
    const endMs = Math.round(chapter.endMs);
    if (!Number.isFinite(startMs) || !Number.isFinite(endMs) || startMs < previousEnd || endMs <= startMs) {
      throw new RangeError(
        `chapter ${index + 1} ("${chapter.title}") runs from ${chapter.startMs} to ${chapter.endMs} ms: ` +
          'chapters must be in order, not overlap, and each last a moment',
      );
    }
    previousEnd = endMs;
    return { title: oneLine(chapter.title), startMs, endMs };
  });
}

/** `HH:MM:SS.mmm`, as WebVTT and the Vorbis chapter extension write times; hours grow past two digits. */
export function clockTime(ms: number): string {
  const total = Math.max(0, Math.round(ms));
  const pad = (value: number, width = 2) => String(value).padStart(width, '0');
  const hours = Math.floor(total / 3_600_000);
  const minutes = Math.floor(total / 60_000) % 60;
  const seconds = Math.floor(total / 1000) % 60;
  return `${pad(hours)}:${pad(minutes)}:${pad(seconds)}.${pad(total % 1000, 3)}`;
}

/**
 * The FFMETADATA1 document ffmpeg reads the chapters (and the programme's title) from: as `[CHAPTER]`
 * sections, or (`asComments`) as the Vorbis comments of the chapter extension, `CHAPTER000=00:01:02.345`
 * and `CHAPTER000NAME=...`, which the Ogg muxer then copies into the stream's comment header as they are.
 */
export function ffmetadata(
  chapters: readonly Chapter[],
  options: { title?: string; asComments?: boolean } = {},
): string {
  const lines = [';FFMETADATA1'];
  if (options.title !== undefined) lines.push(`title=${escapeMetadata(oneLine(options.title))}`);
  checkedChapters(chapters).forEach((chapter, index) => {
    if (options.asComments) {
      const key = `CHAPTER${String(index).padStart(3, '0')}`;
      lines.push(`${key}=${clockTime(chapter.startMs)}`, `${key}NAME=${escapeMetadata(chapter.title)}`);
    } else {
      lines.push(
        '',
        '[CHAPTER]',
        'TIMEBASE=1/1000',
        `START=${chapter.startMs}`,
        `END=${chapter.endMs}`,
        `title=${escapeMetadata(chapter.title)}`,
      );
    }
  });
  return `${lines.join('\n')}\n`;
}

/**
 * Encodes as encodeAudio does (same codec settings, bit-exact), then lets ffmpeg copy the stream into a
 * file with chapter marks, one per entry of `chapters`:
 * - mp3: an ID3v2.3 tag (the version most players read) with a CTOC frame and a CHAP frame per chapter,
 *   each with a TIT2 title; start and end in milliseconds.
 * - ogg: Vorbis comments in the OpusTags header, `CHAPTER000=00:00:01.963` and `CHAPTER000NAME=...`
 *   (the chapter extension: only starts are stored, a reader ends each chapter at the next one's
 *   start). Written as plain comments, not from ffmpeg chapters: ffmpeg's own writer (5.1 and later,
 *   libavformat/vorbiscomment.c) rounds the seconds to the nearest, so 1.963 s comes out as 00:00:02.963.
 * - wav: ffmpeg's WAV muxer writes no chapters; the file is encodeAudio's.
 * The stream itself is copied, not encoded again: the audio bytes are exactly encodeAudio's.
 */
export async function encodeWithChapters(
  pcm: Pcm,
  format: AudioFormat,
  chapters: readonly Chapter[],
  options: { ffmpegPath?: string; timeoutMs?: number; title?: string } = {},
): Promise<Uint8Array> {
  const metadata = ffmetadata(chapters, { title: options.title, asComments: format === 'ogg' });
  const ffmpeg = options.ffmpegPath ?? 'ffmpeg';
  const timeoutMs = options.timeoutMs ?? 120_000;
  const encoded = await encodeAudio(pcm, format, { ffmpegPath: ffmpeg, timeoutMs });
  if (format === 'wav' || (chapters.length === 0 && options.title === undefined)) return encoded;
  // The metadata goes in as a small file: standard input carries the audio.
  const directory = await mkdtemp(join(tmpdir(), 'chapters-'));
  const file = join(directory, 'chapters.txt');
  try {
    await writeFile(file, metadata, 'utf8');
    return await runFfmpeg(
      ffmpeg,
      [
        ...['-hide_banner', '-loglevel', 'error'],
        ...['-f', format, '-i', 'pipe:0', '-f', 'ffmetadata', '-i', file],
        ...['-map', '0:a', '-map_metadata', '1', '-map_chapters', format === 'mp3' ? '1' : '-1'],
        ...['-c', 'copy', '-fflags', '+bitexact', '-flags:a', '+bitexact'],
        ...(format === 'mp3' ? ['-write_xing', '0', '-id3v2_version', '3'] : []),
        ...['-f', format, 'pipe:1'],
      ],
      encoded,
      timeoutMs,
    );
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}

// ---- ffmpeg's log ---------------------------------------------------------------------------------

/** ffmpeg is told s16le; typed arrays hold samples in the machine's byte order. */
function littleEndianBytes(samples: Int16Array): Uint8Array {
  const bytes = Buffer.from(samples.buffer, samples.byteOffset, samples.byteLength);
  return new Uint8Array(new Uint16Array([1]).buffer)[0] === 1 ? bytes : Buffer.from(bytes).swap16();
}

/**
 * Runs ffmpeg with `input` on its standard input and returns what it logged: measurements (ebur128's
 * summary) go to the log, not to the output, which runFfmpeg returns.
 */
function ffmpegLog(command: string, args: string[], input: Uint8Array, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['pipe', 'ignore', 'pipe'] });
    let log = '';
    let settled = false;
    const finish = (error: Error | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (error) reject(error);
      else resolve(log);
    };
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      finish(new EncoderError(`${command} took longer than ${timeoutMs} ms and was stopped`));
    }, timeoutMs);
    // The summary comes last; the stream descriptions before it are short.
    child.stderr.on('data', (chunk: Buffer) => (log = (log + chunk.toString('utf8')).slice(-16_000)));
    child.on('error', (error: NodeJS.ErrnoException) =>
      finish(
        error.code === 'ENOENT'
          ? new EncoderError(
              `${command} is not installed: it measures and encodes documentaries. Install the Debian ` +
                'package `ffmpeg` (apt-get install ffmpeg; `npm run stack -- up` installs it).',
              { cause: error },
            )
          : new EncoderError(`${command} could not be started: ${error.message}`, { cause: error }),
      ),
    );
    child.on('close', (code, signal) => {
      if (code === 0) return finish(null);
      const stopped = ffmpegStoppedFromOutside(command, code, signal);
      const why = log.trim().split('\n').slice(-5).join(' | ') || 'no message';
      finish(stopped ?? new EncoderError(`${command} failed (${signal ?? `exit code ${code}`}): ${why}`));
    });
    child.stdin.on('error', () => {});
    child.stdin.end(input);
  });
}
