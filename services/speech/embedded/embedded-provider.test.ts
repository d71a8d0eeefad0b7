// Runs the real engines (about a second).
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { durationMs } from '../pcm.ts';
import { SpeechUnavailableError } from '../provider.ts';
import { voiceQualities } from '../voice.ts';
import {
  createEmbeddedSpeechProvider,
  embeddedSpeechLimits,
  festivalEnglishVoice,
} from './embedded-provider.ts';

const provider = createEmbeddedSpeechProvider();
afterAll(() => provider.close?.());

describe('the embedded speech provider', () => {
  it('offers Festival for US English first, then two espeak-ng voices per language', async () => {
    const voices = await provider.voices();
    expect(voices[0]).toEqual(festivalEnglishVoice);
    expect(festivalEnglishVoice).toMatchObject({
      id: 'en-US-slt-hts',
      gender: 'female',
      quality: 'parametric',
    });
    const byQuality = Object.fromEntries(
      voiceQualities.map((q) => [q, voices.filter((v) => v.quality === q).length]),
    );
    expect(byQuality).toEqual({ neural: 0, parametric: 1, formant: voices.length - 1, standard: 0 });
    expect(new Set(voices.map((v) => v.id)).size).toBe(voices.length);
    expect(voices.every((v) => v.provider === 'embedded')).toBe(true);
  });

  it('keeps requests within the engines: 500 characters for Festival, 5,000 for espeak-ng, speed 0.5 to 2.5', async () => {
    expect(embeddedSpeechLimits).toEqual({ maxChars: 500, speed: { min: 0.5, max: 2.5 } });
    const german = (await provider.voices()).find((v) => v.id === 'de-espeak-f')!;
    expect(provider.textLimits?.(festivalEnglishVoice)).toEqual({ maxChars: 500 });
    expect(provider.textLimits?.(german)).toEqual({ maxChars: 5_000 });
  });

  it('speaks the Festival voice with Festival and the others with espeak-ng, at their real rates', async () => {
    const voices = await provider.voices();
    const english = await provider.synthesize({
      text: 'Good morning.',
      voice: festivalEnglishVoice,
      speed: 1,
    });
    expect(english.sampleRate).toBe(festivalEnglishVoice.sampleRateHz);
    const german = voices.find((v) => v.id === 'de-espeak-f')!;
    const spoken = await provider.synthesize({ text: 'Guten Morgen.', voice: german, speed: 1 });
    expect(spoken.sampleRate).toBe(german.sampleRateHz);
  });

  it('gives Festival the text in ASCII, so accents, curly quotes and money are read as words', async () => {
    const seconds = async (text: string) =>
      durationMs(await provider.synthesize({ text, voice: festivalEnglishVoice, speed: 1 })) / 1_000;
    // Festival took each byte beyond ASCII for a letter to spell out: "Zürich" lasted 2.5 times "Zurich".
    const written = await seconds('The café in Zürich, it’s Müller’s.');
    const plain = await seconds("The cafe in Zurich, it's Muller's.");
    expect(Math.abs(written - plain)).toBeLessThan(0.15 * plain);
    expect(await seconds('It costs £53m.')).toBeCloseTo(await seconds('It costs 53 million pounds.'), 1);
    expect(provider.unreadable?.(festivalEnglishVoice, 'Банк повысил ставку.')).toMatch(/only Latin letters/);
    expect(provider.unreadable?.(festivalEnglishVoice, 'The Kremlin said Путин will visit.')).toBeNull();
  });

  it("tells each engine's sentence pause", () => {
    expect(provider.sentencePauseMs?.(festivalEnglishVoice)).toBe(200);
  });

  it('asks espeak-ng again after it failed to list its voices', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'espeak-'));
    const command = join(directory, 'espeak-ng');
    const later = createEmbeddedSpeechProvider({ espeakCommand: command });
    const error = await later.voices().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SpeechUnavailableError);
    expect((error as Error).message).toMatch(/Debian package `espeak-ng`/);
    // Installed in the meantime: the next call lists it.
    const header = 'Pty Language       Age/Gender VoiceName          File                 Other Languages';
    const row = ' 5  de              --/M      German             gmw/de               ';
    await writeFile(command, `#!/bin/sh\nprintf '%s\\n%s\\n' '${header}' '${row}'\n`, { mode: 0o755 });
    expect((await later.voices()).map((v) => v.id)).toEqual(['en-US-slt-hts', 'de-espeak-m', 'de-espeak-f']);
    await later.close?.();
    await rm(directory, { recursive: true, force: true });
  });
});
