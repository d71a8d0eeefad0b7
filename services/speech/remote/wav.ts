// Both remote providers are asked for WAV: Google's LINEAR16 answer is 16-bit PCM behind a WAV header,
// and OpenAI's `wav` format is the same. The header is what proves an answer is the audio asked for (a
// JSON error or an HTML page served with status 200 is not) and says the sample rate, which an
// OpenAI-compatible server need not share with OpenAI's 24 kHz. So one strict reader turns an answer
// into Pcm, or says in words what the answer was instead. Strict where the local engines' reader
// (pcm.ts) is lenient on purpose: a remote answer cut short, cut mid-sample or without samples is a
// malformed answer to refuse, not a pipe to read to its end.
import type { Pcm } from '../provider.ts';

/** The answer is not 16-bit PCM audio in a WAV container; `reason` says what it is instead. */
export class NotPcmWavError extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'NotPcmWavError';
  }
}

const formatPcm = 1;
const formatExtensible = 0xfffe;
/** A streamed WAV does not know its length when the header is written and says "as long as it goes". */
const unknownLength = new Set([0, 0xffffffff]);

/** The samples of a 16-bit PCM WAV, mixed down to mono. Throws NotPcmWavError for anything else. */
export function readPcmWav(bytes: Uint8Array): Pcm {
  if (bytes.length === 0) throw new NotPcmWavError('the answer is empty');
  const ascii = (offset: number, length: number) =>
    String.fromCharCode(...bytes.subarray(offset, offset + length));
  if (bytes.length < 12 || ascii(0, 4) !== 'RIFF' || ascii(8, 4) !== 'WAVE') {
    throw new NotPcmWavError(`the answer is not a WAV file: ${describeBytes(bytes)}`);
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let format: { tag: number; channels: number; sampleRate: number; bits: number } | undefined;
  let offset = 12;
  while (offset + 8 <= bytes.length) {
    const id = ascii(offset, 4);
    const size = view.getUint32(offset + 4, true);
    const body = offset + 8;
    if (id === 'fmt ') {
      if (size < 16 || body + size > bytes.length)
        throw new NotPcmWavError('the WAV format chunk is cut short');
      let tag = view.getUint16(body, true);
      // WAVE_FORMAT_EXTENSIBLE names the real format in the first two bytes of its sub-format GUID.
      if (tag === formatExtensible && size >= 40) tag = view.getUint16(body + 24, true);
      format = {
        tag,
        channels: view.getUint16(body + 2, true),
        sampleRate: view.getUint32(body + 4, true),
        bits: view.getUint16(body + 14, true),
      };
    } else if (id === 'data') {
      if (!format) throw new NotPcmWavError('the WAV data comes before its format');
      if (unknownLength.has(size)) return samplesOf(view, body, bytes.length, format);
      if (body + size > bytes.length) {
        throw new NotPcmWavError(
          `the WAV audio is cut short (${bytes.length - body} of the ${size} bytes its header announces)`,
        );
      }
      return samplesOf(view, body, body + size, format);
    }
    offset = body + size + (size % 2);
  }
  throw new NotPcmWavError('the WAV file has no audio data');
}

function samplesOf(
  view: DataView,
  start: number,
  end: number,
  format: { tag: number; channels: number; sampleRate: number; bits: number },
): Pcm {
  const { tag, channels, sampleRate, bits } = format;
  if (tag !== formatPcm) {
    throw new NotPcmWavError(`the WAV audio is encoded as format ${tag} (${formatName(tag)}), not PCM`);
  }
  if (bits !== 16) throw new NotPcmWavError(`the WAV audio has ${bits}-bit samples, not 16-bit`);
  if (channels < 1 || channels > 8) throw new NotPcmWavError(`the WAV audio has ${channels} channels`);
  if (sampleRate < 8_000 || sampleRate > 192_000) {
    throw new NotPcmWavError(`the WAV audio has an implausible sample rate (${sampleRate} Hz)`);
  }
  const frameBytes = 2 * channels;
  const length = end - start;
  if (length === 0) throw new NotPcmWavError('the WAV file holds no samples');
  if (length % frameBytes !== 0) {
    throw new NotPcmWavError(
      `the WAV audio is cut mid-sample (${length} bytes of ${frameBytes}-byte frames)`,
    );
  }
  const frames = length / frameBytes;
  const samples = new Int16Array(frames);
  for (let frame = 0, at = start; frame < frames; frame++) {
    let sum = 0;
    for (let channel = 0; channel < channels; channel++, at += 2) sum += view.getInt16(at, true);
    samples[frame] = Math.round(sum / channels);
  }
  return { sampleRate, samples };
}

const formatNames: Record<number, string> = {
  3: 'IEEE float',
  6: 'A-law',
  7: 'mu-law',
  0x55: 'MP3',
};
const formatName = (tag: number) => formatNames[tag] ?? 'not PCM';

/** What an answer that is not WAV looks like, without quoting it (it could be anything). */
function describeBytes(bytes: Uint8Array): string {
  const head = Buffer.from(bytes.subarray(0, 16)).toString('latin1').trimStart();
  if (head.startsWith('{') || head.startsWith('[')) return `${bytes.length} bytes of JSON`;
  if (/^<(!doctype|html|\?xml)/i.test(head)) return `${bytes.length} bytes of HTML or XML`;
  if (head.startsWith('ID3') || (bytes[0] === 0xff && ((bytes[1] ?? 0) & 0xe0) === 0xe0)) {
    return `${bytes.length} bytes of MP3`;
  }
  if (head.startsWith('OggS')) return `${bytes.length} bytes of Ogg`;
  if (head.startsWith('fLaC')) return `${bytes.length} bytes of FLAC`;
  return `${bytes.length} bytes that start with no WAV header`;
}
