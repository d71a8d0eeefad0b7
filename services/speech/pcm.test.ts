import { describe, expect, it } from 'vitest';
import {
  clippedShare,
  concat,
  durationMs,
  fadeEdges,
  joinSpeech,
  longestInnerSilenceMs,
  peak,
  readWav,
  rmsDbfs,
  silence,
  trimSilence,
  WavFormatError,
  writeWav,
} from './pcm.ts';
import type { Pcm } from './provider.ts';

const rate = 16_000;

/** A tone of `ms` at `amplitude` (0..1 of full scale). */
function tone(ms: number, amplitude = 0.5, hz = 440): Pcm {
  const samples = new Int16Array(Math.round((rate * ms) / 1000));
  for (let i = 0; i < samples.length; i++) {
    samples[i] = Math.round(amplitude * 32767 * Math.sin((2 * Math.PI * hz * i) / rate));
  }
  return { sampleRate: rate, samples };
}

/** A WAV header by hand, with whatever sizes a writer put there. */
function wavBytes(options: {
  channels?: number;
  format?: number;
  bits?: number;
  riffSize?: number;
  dataSize?: number;
  extraChunk?: Uint8Array;
  frames: number[][];
}): Uint8Array {
  const channels = options.channels ?? 1;
  const data = new Int16Array(options.frames.flat());
  const extra = options.extraChunk ?? new Uint8Array(0);
  const bytes = new Uint8Array(44 + extra.length + data.length * 2);
  const view = new DataView(bytes.buffer);
  const put = (at: number, text: string) => [...text].forEach((c, i) => (bytes[at + i] = c.charCodeAt(0)));
  put(0, 'RIFF');
  view.setUint32(4, options.riffSize ?? bytes.length - 8, true);
  put(8, 'WAVE');
  put(12, 'fmt ');
  view.setUint32(16, 16, true);
  view.setUint16(20, options.format ?? 1, true);
  view.setUint16(22, channels, true);
  view.setUint32(24, rate, true);
  view.setUint32(28, rate * 2 * channels, true);
  view.setUint16(32, 2 * channels, true);
  view.setUint16(34, options.bits ?? 16, true);
  bytes.set(extra, 36);
  put(36 + extra.length, 'data');
  view.setUint32(40 + extra.length, options.dataSize ?? data.length * 2, true);
  data.forEach((sample, i) => view.setInt16(44 + extra.length + 2 * i, sample, true));
  return bytes;
}

describe('WAV', () => {
  it('reads back what it writes', () => {
    const pcm = tone(30);
    const read = readWav(writeWav(pcm));
    expect(read.sampleRate).toBe(rate);
    expect(Array.from(read.samples)).toEqual(Array.from(pcm.samples));
  });

  it.each([
    ['espeak-ng --stdout (sizes near 2^31)', 0x7ffff000],
    ['0xFFFFFFFF', 0xffffffff],
    ['0', 0],
  ])('reads a streaming header whose data size is %s as "to the end of the file"', (_, size) => {
    const read = readWav(wavBytes({ riffSize: size, dataSize: size, frames: [[1], [2], [3]] }));
    expect(Array.from(read.samples)).toEqual([1, 2, 3]);
  });

  it('drops a trailing half frame of a streamed file', () => {
    const bytes = wavBytes({ dataSize: 0xffffffff, frames: [[1], [2]] });
    const read = readWav(bytes.subarray(0, bytes.length - 1));
    expect(Array.from(read.samples)).toEqual([1]);
  });

  it('mixes several channels down to one', () => {
    const read = readWav(
      wavBytes({
        channels: 2,
        frames: [
          [100, 300],
          [-100, -300],
          [7, 8],
        ],
      }),
    );
    expect(Array.from(read.samples)).toEqual([200, -200, 8]);
  });

  it('skips chunks it does not know, with their padding', () => {
    const list = new Uint8Array([76, 73, 83, 84, 3, 0, 0, 0, 1, 2, 3, 0]); // "LIST", 3 bytes + pad
    const read = readWav(wavBytes({ extraChunk: list, frames: [[5], [6]] }));
    expect(Array.from(read.samples)).toEqual([5, 6]);
  });

  it('refuses what is not 16-bit PCM WAV', () => {
    expect(() => readWav(new TextEncoder().encode('ID3 not a wave file at all'))).toThrow(WavFormatError);
    expect(() => readWav(wavBytes({ format: 3, frames: [[1]] }))).toThrow(/16-bit PCM/);
    expect(() => readWav(wavBytes({ bits: 8, frames: [[1]] }))).toThrow(/16-bit PCM/);
  });
});

describe('edits', () => {
  const padded = concat([silence(rate, 300), tone(200), silence(rate, 400)]);

  it('trims leading and trailing silence, keeping a margin', () => {
    const trimmed = trimSilence(padded, { keepMs: 20 });
    expect(durationMs(trimmed)).toBeGreaterThanOrEqual(200);
    expect(durationMs(trimmed)).toBeLessThanOrEqual(200 + 2 * 20 + 2 * 10);
  });

  it('trims silence to nothing', () => {
    expect(trimSilence(silence(rate, 500)).samples.length).toBe(0);
  });

  it('fades the edges to zero', () => {
    const faded = fadeEdges({ sampleRate: rate, samples: new Int16Array(1000).fill(20_000) }, 5);
    expect(faded.samples[0]).toBe(0);
    expect(faded.samples.at(-1)).toBe(0);
    expect(faded.samples[500]).toBe(20_000);
    // Monotonic ramp: no step a listener would hear as a click.
    for (let i = 1; i < 80; i++) expect(faded.samples[i]!).toBeGreaterThanOrEqual(faded.samples[i - 1]!);
  });

  it('joins pieces with exactly the pause between them, whatever silence they brought', () => {
    const joined = joinSpeech([padded, tone(150), padded], { pauseMs: 250, edgeMs: 50 });
    const gap = longestInnerSilenceMs(joined);
    // The pause plus the margins trimming keeps (up to 20 ms a side, measured in 10 ms windows).
    expect(gap).toBeGreaterThanOrEqual(250);
    expect(gap).toBeLessThanOrEqual(250 + 2 * 20 + 10);
    expect(durationMs(joined)).toBeLessThan(200 + 150 + 200 + 2 * 250 + 2 * 50 + 6 * 30);
  });

  it('refuses to join different sample rates', () => {
    expect(() => concat([tone(10), { sampleRate: 22_050, samples: new Int16Array(10) }])).toThrow(/22050 Hz/);
  });
});

describe('measurements', () => {
  it('measures duration, level, peak and clipping', () => {
    const sine = tone(1000, 1);
    expect(durationMs(sine)).toBe(1000);
    expect(rmsDbfs(sine)).toBeCloseTo(-3.01, 1);
    expect(rmsDbfs(silence(rate, 10))).toBe(-Infinity);
    expect(peak(tone(100, 0.5))).toBeCloseTo(0.5, 2);
    expect(clippedShare(tone(100, 0.5))).toBe(0);
    const clipped = { sampleRate: rate, samples: new Int16Array([32767, -32768, 0, 100]) };
    expect(clippedShare(clipped)).toBe(0.5);
  });

  it('finds the longest silence between sounds, not at the ends', () => {
    const audio = concat([silence(rate, 500), tone(100), silence(rate, 120), tone(100), silence(rate, 800)]);
    expect(longestInnerSilenceMs(audio)).toBeGreaterThanOrEqual(110);
    expect(longestInnerSilenceMs(audio)).toBeLessThanOrEqual(130);
  });
});
