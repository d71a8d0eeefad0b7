import { describe, expect, it } from 'vitest';
import { pcmBytes, wavFile } from '../../../test/support/speech-audio.ts';
import { NotPcmWavError, readPcmWav } from './wav.ts';

const samples = Int16Array.from([0, 1000, -1000, 32767, -32768, 5]);

const reasonOf = (bytes: Uint8Array): string => {
  try {
    readPcmWav(bytes);
  } catch (error) {
    if (error instanceof NotPcmWavError) return error.reason;
    throw error;
  }
  throw new Error('expected a refusal');
};

/** A WAV with an extra chunk between the format and the data, as some encoders write. */
function withListChunk(wav: Buffer): Buffer {
  const list = Buffer.concat([
    Buffer.from('LIST', 'ascii'),
    Buffer.from([5, 0, 0, 0]),
    Buffer.from('INFOx'),
    Buffer.alloc(1),
  ]);
  return Buffer.concat([wav.subarray(0, 36), list, wav.subarray(36)]);
}

describe('readPcmWav', () => {
  it('reads the samples and rate of a 16-bit mono WAV, after any chunk it does not need', () => {
    const wav = withListChunk(wavFile(pcmBytes(samples), { sampleRate: 22_050 }));
    const pcm = readPcmWav(wav);
    expect(pcm.sampleRate).toBe(22_050);
    expect(Array.from(pcm.samples)).toEqual(Array.from(samples));
  });

  it('reads to the end a streamed WAV whose header does not know the length', () => {
    const wav = wavFile(pcmBytes(samples), { sampleRate: 24_000, declaredDataSize: 0xffffffff });
    expect(Array.from(readPcmWav(wav).samples)).toEqual(Array.from(samples));
  });

  it('mixes stereo down to mono', () => {
    const stereo = Int16Array.from([100, 300, -200, -400]);
    const pcm = readPcmWav(wavFile(pcmBytes(stereo), { sampleRate: 16_000, channels: 2 }));
    expect(Array.from(pcm.samples)).toEqual([200, -300]);
  });

  it('reads WAVE_FORMAT_EXTENSIBLE whose sub-format is PCM', () => {
    const data = pcmBytes(samples);
    const header = Buffer.alloc(68);
    header.write('RIFF', 0, 'ascii');
    header.writeUInt32LE(60 + data.length, 4);
    header.write('WAVEfmt ', 8, 'ascii');
    header.writeUInt32LE(40, 16);
    header.writeUInt16LE(0xfffe, 20);
    header.writeUInt16LE(1, 22);
    header.writeUInt32LE(48_000, 24);
    header.writeUInt32LE(96_000, 28);
    header.writeUInt16LE(2, 32);
    header.writeUInt16LE(16, 34);
    header.writeUInt16LE(22, 36);
    header.writeUInt16LE(16, 38);
    header.writeUInt16LE(1, 44); // sub-format GUID starts with the PCM tag
    header.write('data', 60, 'ascii');
    header.writeUInt32LE(data.length, 64);
    expect(readPcmWav(Buffer.concat([header, data])).sampleRate).toBe(48_000);
  });

  it.each([
    ['empty', Buffer.alloc(0), /empty/],
    ['JSON', Buffer.from('{"error":{"message":"quota"}}'), /bytes of JSON/],
    ['HTML', Buffer.from('<!DOCTYPE html><title>502</title>'), /bytes of HTML/],
    ['MP3', Buffer.concat([Buffer.from([0xff, 0xfb, 0x90, 0x00]), Buffer.alloc(40)]), /bytes of MP3/],
    [
      'mu-law',
      wavFile(Buffer.alloc(10), { sampleRate: 8_000, bitsPerSample: 8, formatTag: 7 }),
      /format 7 \(mu-law\)/,
    ],
    ['8-bit PCM', wavFile(Buffer.alloc(10), { sampleRate: 8_000, bitsPerSample: 8 }), /8-bit/],
    ['cut mid-sample', wavFile(Buffer.alloc(7), { sampleRate: 8_000 }), /cut mid-sample/],
    [
      'shorter than announced',
      wavFile(Buffer.alloc(8), { sampleRate: 8_000, declaredDataSize: 80 }),
      /cut short/,
    ],
    ['without samples', wavFile(Buffer.alloc(0), { sampleRate: 8_000 }), /no samples/],
    ['at an implausible rate', wavFile(Buffer.alloc(8), { sampleRate: 100 }), /implausible sample rate/],
  ])('refuses %s, saying what it is', (_case, bytes, reason) => {
    expect(reasonOf(bytes)).toMatch(reason);
  });
});
