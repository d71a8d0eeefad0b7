// Mono 16-bit PCM as the engines hand it over and the encoder takes it: reading and writing WAV, the
// edits that make pieces of speech join cleanly (trim, fade, a pause between), and the measurements the
// audio tests make (duration, loudness, clipping, the longest silence).
import type { Pcm } from './provider.ts';

export class WavFormatError extends Error {
  constructor(message: string) {
    super(`not a usable WAV file: ${message}`);
    this.name = 'WavFormatError';
  }
}

const pcmFormat = 1;
const extensibleFormat = 0xfffe;

/**
 * Reads a RIFF/WAVE file of 16-bit PCM. Several channels are mixed down to one. A streaming header, as
 * `espeak-ng --stdout` writes before it knows the length (sizes 0, 0xFFFFFFFF or just too large), is
 * read as "the data runs to the end of the file".
 */
export function readWav(bytes: Uint8Array): Pcm {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const tag = (at: number) => String.fromCharCode(...bytes.subarray(at, at + 4));
  if (bytes.byteLength < 12 || tag(0) !== 'RIFF' || tag(8) !== 'WAVE') {
    throw new WavFormatError('no RIFF/WAVE header');
  }
  let format: { channels: number; sampleRate: number } | undefined;
  let at = 12;
  while (at + 8 <= bytes.byteLength) {
    const id = tag(at);
    const declared = view.getUint32(at + 4, true);
    const body = at + 8;
    if (id === 'fmt ') {
      if (declared < 16 || body + 16 > bytes.byteLength) throw new WavFormatError('short fmt chunk');
      const code = view.getUint16(body, true);
      const channels = view.getUint16(body + 2, true);
      const sampleRate = view.getUint32(body + 4, true);
      const bits = view.getUint16(body + 14, true);
      // WAVE_FORMAT_EXTENSIBLE carries the real format code in the first two bytes of its sub-format GUID.
      const realCode = code === extensibleFormat && declared >= 40 ? view.getUint16(body + 24, true) : code;
      if (realCode !== pcmFormat || bits !== 16) {
        throw new WavFormatError(`format ${realCode} with ${bits} bits; expected 16-bit PCM`);
      }
      if (channels < 1 || sampleRate < 1) throw new WavFormatError('no channels or no sample rate');
      format = { channels, sampleRate };
    } else if (id === 'data') {
      if (!format) throw new WavFormatError('data before fmt');
      const available = bytes.byteLength - body;
      const streaming = declared === 0 || declared === 0xffffffff || declared > available;
      const length = streaming ? available : declared;
      const frameBytes = 2 * format.channels;
      const frames = Math.floor(length / frameBytes);
      return { sampleRate: format.sampleRate, samples: mixDown(view, body, frames, format.channels) };
    }
    // Chunks are padded to an even length.
    at = body + declared + (declared % 2);
  }
  throw new WavFormatError('no data chunk');
}

/** Whether typed arrays on this machine hold samples little-endian, as WAV files do. */
const littleEndianHost = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

function mixDown(view: DataView, start: number, frames: number, channels: number): Int16Array {
  if (channels === 1 && littleEndianHost) {
    // Mono on a little-endian machine: the bytes are the samples. Aligned (as a file read whole or a
    // concatenated pipe is), a view over them; otherwise one copy instead of a loop.
    if ((view.byteOffset + start) % 2 === 0)
      return new Int16Array(view.buffer, view.byteOffset + start, frames);
    const bytes = new Uint8Array(frames * 2);
    bytes.set(new Uint8Array(view.buffer, view.byteOffset + start, frames * 2));
    return new Int16Array(bytes.buffer);
  }
  const samples = new Int16Array(frames);
  for (let frame = 0; frame < frames; frame++) {
    let sum = 0;
    for (let channel = 0; channel < channels; channel++) {
      sum += view.getInt16(start + 2 * (frame * channels + channel), true);
    }
    samples[frame] = Math.round(sum / channels);
  }
  return samples;
}

/** A canonical 44-byte-header mono 16-bit PCM WAV file. */
export function writeWav(pcm: Pcm): Uint8Array {
  const dataBytes = pcm.samples.length * 2;
  const bytes = new Uint8Array(44 + dataBytes);
  const view = new DataView(bytes.buffer);
  const put = (at: number, text: string) => {
    for (let i = 0; i < text.length; i++) bytes[at + i] = text.charCodeAt(i);
  };
  put(0, 'RIFF');
  view.setUint32(4, 36 + dataBytes, true);
  put(8, 'WAVE');
  put(12, 'fmt ');
  view.setUint32(16, 16, true);
  view.setUint16(20, pcmFormat, true);
  view.setUint16(22, 1, true);
  view.setUint32(24, pcm.sampleRate, true);
  view.setUint32(28, pcm.sampleRate * 2, true);
  view.setUint16(32, 2, true);
  view.setUint16(34, 16, true);
  put(36, 'data');
  view.setUint32(40, dataBytes, true);
  for (let i = 0; i < pcm.samples.length; i++) view.setInt16(44 + 2 * i, pcm.samples[i]!, true);
  return bytes;
}

// ---- edits ----------------------------------------------------------------------------------------

/** Below this level a 10 ms window counts as silence: quieter than any engine's breath or hiss. */
export const silenceThresholdDb = -50;
const windowMs = 10;

const samplesAt = (sampleRate: number, ms: number) => Math.round((sampleRate * ms) / 1000);
const samplesIn = (pcm: Pcm, ms: number) => samplesAt(pcm.sampleRate, ms);

/** Levels of consecutive windows of `ms`, in dBFS (the last window may be shorter). */
function windowLevels(pcm: Pcm, ms: number): number[] {
  const size = Math.max(1, samplesIn(pcm, ms));
  const levels: number[] = [];
  for (let start = 0; start < pcm.samples.length; start += size) {
    levels.push(rmsDbfs({ sampleRate: pcm.sampleRate, samples: pcm.samples.subarray(start, start + size) }));
  }
  return levels;
}

/**
 * Cuts leading and trailing silence, keeping `keepMs` of it on each side so that soft onsets (an "h",
 * an "f") and the decay of the last sound are not clipped. All-silent audio comes back empty.
 */
export function trimSilence(pcm: Pcm, options: { thresholdDb?: number; keepMs?: number } = {}): Pcm {
  const { start, end } = speechBounds(pcm, options);
  return { sampleRate: pcm.sampleRate, samples: pcm.samples.slice(start, end) };
}

/**
 * Where trimSilence cuts: from the first to the last 10 ms window above the threshold, widened by
 * `keepMs` on each side; start = end when all of it is silent. Only the silence at either end is
 * measured, not the speech in between.
 */
function speechBounds(
  pcm: Pcm,
  options: { thresholdDb?: number; keepMs?: number },
): { start: number; end: number } {
  const threshold = options.thresholdDb ?? silenceThresholdDb;
  const keep = samplesIn(pcm, options.keepMs ?? 20);
  const size = Math.max(1, samplesIn(pcm, windowMs));
  const length = pcm.samples.length;
  const windows = Math.ceil(length / size);
  const loud = (window: number) =>
    rmsDbfs({
      sampleRate: pcm.sampleRate,
      samples: pcm.samples.subarray(window * size, Math.min(length, (window + 1) * size)),
    }) > threshold;
  let first = 0;
  while (first < windows && !loud(first)) first++;
  if (first === windows) return { start: 0, end: 0 };
  let last = windows - 1;
  while (!loud(last)) last--;
  return { start: Math.max(0, first * size - keep), end: Math.min(length, (last + 1) * size + keep) };
}

/**
 * Ramps the first and last `ms` in and out (half a cosine), so that a piece starting or ending away
 * from zero does not click where it meets silence.
 */
export function fadeEdges(pcm: Pcm, ms = 5): Pcm {
  const samples = pcm.samples.slice();
  fadeInPlace(samples, samplesIn(pcm, ms));
  return { sampleRate: pcm.sampleRate, samples };
}

function fadeInPlace(samples: Int16Array, fadeSamples: number): void {
  const length = Math.min(fadeSamples, Math.floor(samples.length / 2));
  for (let i = 0; i < length; i++) {
    const gain = 0.5 - 0.5 * Math.cos((Math.PI * i) / length);
    samples[i] = Math.round(samples[i]! * gain);
    const j = samples.length - 1 - i;
    samples[j] = Math.round(samples[j]! * gain);
  }
}

/** Digital silence of `ms`. */
export const silence = (sampleRate: number, ms: number): Pcm => ({
  sampleRate,
  samples: new Int16Array(samplesAt(sampleRate, ms)),
});

/** Plain concatenation; every piece must have the same sample rate (one voice makes them all). */
export function concat(pieces: readonly Pcm[]): Pcm {
  if (pieces.length === 0) throw new RangeError('nothing to join');
  const sampleRate = pieces[0]!.sampleRate;
  const mismatch = pieces.find((piece) => piece.sampleRate !== sampleRate);
  if (mismatch) {
    throw new RangeError(`cannot join ${mismatch.sampleRate} Hz audio to ${sampleRate} Hz audio`);
  }
  const samples = new Int16Array(pieces.reduce((sum, piece) => sum + piece.samples.length, 0));
  let at = 0;
  for (const piece of pieces) {
    samples.set(piece.samples, at);
    at += piece.samples.length;
  }
  return { sampleRate, samples };
}

/**
 * Joins pieces of speech as one reading: each is trimmed of its own leading and trailing silence and
 * faded at its edges, and exactly `pauseMs` of silence goes between two pieces, so every join sounds
 * like a sentence break (neither a gap nor a click). `edgeMs` of silence starts and ends the whole.
 */
export function joinSpeech(pieces: readonly Pcm[], options: { pauseMs: number; edgeMs?: number }): Pcm {
  if (pieces.length === 0) throw new RangeError('nothing to join');
  const sampleRate = pieces[0]!.sampleRate;
  // Trimmed views (no copies); what is all silence drops out.
  const spoken = pieces
    .map((piece) => {
      const { start, end } = speechBounds(piece, {});
      return { sampleRate: piece.sampleRate, samples: piece.samples.subarray(start, end) };
    })
    .filter((piece) => piece.samples.length > 0);
  const mismatch = spoken.find((piece) => piece.sampleRate !== sampleRate);
  if (mismatch) {
    throw new RangeError(`cannot join ${mismatch.sampleRate} Hz audio to ${sampleRate} Hz audio`);
  }
  // One buffer for the whole: each piece is copied in once and faded where it lies.
  const edge = samplesAt(sampleRate, options.edgeMs ?? 50);
  const pause = samplesAt(sampleRate, options.pauseMs);
  const speech = spoken.reduce((sum, piece) => sum + piece.samples.length, 0);
  const samples = new Int16Array(2 * edge + speech + pause * Math.max(0, spoken.length - 1));
  const fade = samplesAt(sampleRate, 5);
  let at = edge;
  spoken.forEach((piece, index) => {
    if (index > 0) at += pause;
    samples.set(piece.samples, at);
    fadeInPlace(samples.subarray(at, at + piece.samples.length), fade);
    at += piece.samples.length;
  });
  return { sampleRate, samples };
}

// ---- measurements ---------------------------------------------------------------------------------

export const durationMs = (pcm: Pcm): number => (pcm.samples.length * 1000) / pcm.sampleRate;

/** Root mean square level relative to full scale; -Infinity for digital silence or no samples. */
export function rmsDbfs(pcm: Pcm): number {
  if (pcm.samples.length === 0) return -Infinity;
  let sum = 0;
  for (const sample of pcm.samples) sum += sample * sample;
  const rms = Math.sqrt(sum / pcm.samples.length) / 32768;
  return rms === 0 ? -Infinity : 20 * Math.log10(rms);
}

/** Largest absolute sample, 0..1 of full scale. */
export function peak(pcm: Pcm): number {
  let max = 0;
  for (const sample of pcm.samples) max = Math.max(max, Math.abs(sample));
  return max / 32768;
}

/** Share (0..1) of samples at full scale, where a louder signal was cut off. */
export function clippedShare(pcm: Pcm): number {
  if (pcm.samples.length === 0) return 0;
  let clipped = 0;
  for (const sample of pcm.samples) if (sample >= 32767 || sample <= -32768) clipped++;
  return clipped / pcm.samples.length;
}

/**
 * Longest run of silent 10 ms windows between the first and last sound, in ms: the pause a listener
 * hears as the longest gap. Silence before the first and after the last sound does not count.
 */
export function longestInnerSilenceMs(pcm: Pcm, thresholdDb = silenceThresholdDb): number {
  const levels = windowLevels(pcm, windowMs);
  const first = levels.findIndex((level) => level > thresholdDb);
  if (first === -1) return 0;
  let longest = 0;
  let run = 0;
  for (let i = first; i < levels.length; i++) {
    if (levels[i]! > thresholdDb) {
      longest = Math.max(longest, run);
      run = 0;
    } else {
      run++;
    }
  }
  return longest * windowMs;
}
