// Runs the real ffmpeg (installed with the speech engines): a few hundred milliseconds in all.
import { describe, expect, it } from 'vitest';
import { interruptedFfmpeg } from '../../test/support/interrupted-ffmpeg.ts';
import { decodeAudio, probeAudio } from './audio-probe.ts';
import { encodeAudio, EncoderError } from './encoder.ts';
import { durationMs, rmsDbfs } from './pcm.ts';
import { SpeechUnavailableError, type Pcm } from './provider.ts';

function tone(sampleRate: number, ms: number): Pcm {
  const samples = new Int16Array(Math.round((sampleRate * ms) / 1000));
  for (let i = 0; i < samples.length; i++)
    samples[i] = Math.round(8000 * Math.sin((2 * Math.PI * 300 * i) / sampleRate));
  return { sampleRate, samples };
}

describe('encodeAudio', () => {
  const speech = tone(22_050, 1500);

  it.each([
    ['mp3', 'mp3', 'mp3', 22_050],
    ['ogg', 'ogg', 'opus', 48_000],
    ['wav', 'wav', 'pcm_s16le', 22_050],
  ] as const)(
    'encodes %s as container %s, codec %s at %i Hz, mono, same length',
    async (format, container, codec, rate) => {
      const bytes = await encodeAudio(speech, format);
      expect(await probeAudio(bytes)).toEqual({ container, codec, sampleRate: rate, channels: 1 });
      const decoded = await decodeAudio(bytes);
      // Encoders pad a frame or two at the ends.
      expect(Math.abs(durationMs(decoded) - 1500)).toBeLessThan(80);
      // Same loudness, within what the padding and lossy coding change.
      expect(Math.abs(rmsDbfs(decoded) - rmsDbfs(speech))).toBeLessThan(1);
    },
  );

  it('keeps a 32 kHz voice at 32 kHz in mp3', async () => {
    expect((await probeAudio(await encodeAudio(tone(32_000, 300), 'mp3'))).sampleRate).toBe(32_000);
  });

  it('gives the same bytes for the same audio', async () => {
    for (const format of ['mp3', 'ogg'] as const) {
      const [a, b] = await Promise.all([encodeAudio(speech, format), encodeAudio(speech, format)]);
      expect(Buffer.from(a).equals(Buffer.from(b))).toBe(true);
    }
  });

  it("names ffmpeg's own complaint when it fails", async () => {
    const error = await encodeAudio({ sampleRate: 0, samples: new Int16Array(10) }, 'mp3').catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(EncoderError);
    expect((error as Error).message).toMatch(/ffmpeg failed \(exit code \d+\): \S/);
  });

  it('reports an ffmpeg stopped by SIGTERM from outside as unavailable, not as an encoding error', async () => {
    const ffmpeg = interruptedFfmpeg();
    try {
      const error = await encodeAudio(speech, 'mp3', { ffmpegPath: ffmpeg.path }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(SpeechUnavailableError);
      // Exit code 255 once ffmpeg handles the signal; SIGTERM itself when it came before that.
      expect((error as Error).message).toMatch(
        /was stopped by (a signal \(exit code 255\)|SIGTERM) from outside/,
      );
    } finally {
      ffmpeg.remove();
    }
  });

  it('says which Debian package to install when ffmpeg is missing', async () => {
    const error = await encodeAudio(speech, 'ogg', { ffmpegPath: 'ffmpeg-that-is-not-there' }).catch(
      (e: unknown) => e,
    );
    expect((error as Error).message).toMatch(/Debian package `ffmpeg`/);
  });
});
