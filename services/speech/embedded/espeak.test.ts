import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { durationMs, rmsDbfs } from '../pcm.ts';
import { SpeechRejectedError, SpeechUnavailableError } from '../provider.ts';
import { speaks } from '../voice.ts';
import {
  espeakVoices,
  listEspeakVoices,
  parseVoiceList,
  plainForEspeak,
  synthesizeEspeak,
  toBcp47,
  wordsPerMinute,
} from './espeak.ts';

// `espeak-ng --voices` of espeak-ng 1.51 (Debian bookworm).
const listing = readFileSync(new URL('./fixtures/espeak-ng-voices.txt', import.meta.url), 'utf8');
const entries = parseVoiceList(listing);
const voices = espeakVoices(entries);

describe('the espeak-ng catalogue', () => {
  it('reads every voice row', () => {
    expect(entries).toHaveLength(131);
    expect(entries.find((e) => e.language === 'pt-br')).toEqual({
      language: 'pt-br',
      priority: 5,
      name: 'Portuguese_(Brazil)',
      file: 'roa/pt-BR',
      others: [{ language: 'pt', priority: 6 }],
    });
  });

  it.each([
    ['en-us', 'en-US'],
    ['pt-br', 'pt-BR'],
    ['pt', 'pt-PT'],
    ['es-419', 'es-419'],
    ['fa-latn', 'fa-Latn'],
    ['en-gb-scotland', 'en-GB-scotland'],
    ['en-gb-x-rp', 'en-GB-x-rp'],
    ['vi-vn-x-central', 'vi-VN-x-central'],
    ['chr-US-Qaaa-x-west', 'chr-Qaaa-US-x-west'],
    ['cmn', 'zh'],
    ['yue', 'yue'],
    ['hak', 'hak'],
    ['en-us-nyc', 'en-US-x-nyc'],
    ['piqd', 'tlh-Piqd'],
    ['py', 'art-x-pyash'],
  ])('maps %s to %s', (code, tag) => {
    expect(toBcp47(code)).toBe(tag);
  });

  it('tags every voice with valid BCP 47, its main tag canonical', () => {
    for (const voice of voices) {
      expect(Intl.getCanonicalLocales(voice.languageCodes[0])).toEqual([voice.languageCodes[0]]);
      // The others are valid; `cmn`, kept so a filter on it finds Mandarin, is one CLDR folds into `zh`.
      for (const tag of voice.languageCodes) expect(() => Intl.getCanonicalLocales(tag)).not.toThrow();
    }
  });

  it('offers a male and a female voice for each of 129 languages and dialects, ids unique and locale-first', () => {
    expect(voices).toHaveLength(258);
    expect(new Set(voices.map((v) => v.id)).size).toBe(voices.length);
    expect(new Set(voices.map((v) => v.languageCodes[0])).size).toBe(129);
    for (const voice of voices) {
      expect(voice.id.startsWith(`${voice.languageCodes[0]}-espeak-`)).toBe(true);
      expect(voice).toMatchObject({ provider: 'embedded', quality: 'formant', sampleRateHz: 22_050 });
    }
    expect(voices.filter((v) => v.languageCodes[0] === 'pt-BR')).toMatchObject([
      { id: 'pt-BR-espeak-m', gender: 'male', engineVoice: 'roa/pt-BR' },
      { id: 'pt-BR-espeak-f', gender: 'female', engineVoice: 'roa/pt-BR+f3' },
    ]);
  });

  it('answers for Chinese with Mandarin, and for Hong Kong with Cantonese', () => {
    const zh = voices.find((v) => v.id === 'zh-espeak-m')!;
    expect(zh.languageCodes).toEqual(['zh', 'cmn']);
    expect(voices.find((v) => v.id === 'yue-espeak-m')!.languageCodes).toEqual(['yue', 'zh-HK', 'zh']);
    expect(voices.find((v) => v.id === 'hak-espeak-m')!.languageCodes).toEqual(['hak']);
    // The Pinyin and Jyutping versions (for Chinese written in Latin letters) are not offered.
    expect(voices.filter((v) => speaks(v, 'cmn'))).toHaveLength(2);
  });

  it("lists espeak's preferred voice of a language first", () => {
    expect(voices.find((v) => speaks(v, 'en'))!.id).toBe('en-GB-espeak-m');
    expect(voices.find((v) => speaks(v, 'pt'))!.id).toBe('pt-PT-espeak-m');
    expect(voices.find((v) => speaks(v, 'fr'))!.id).toBe('fr-FR-espeak-m');
    expect(voices.find((v) => speaks(v, 'es-MX'))!.id).toBe('es-419-espeak-m');
  });
});

describe('text and speed for espeak-ng', () => {
  it('breaks phoneme brackets and removes control characters, changing nothing else', () => {
    expect(plainForEspeak('say [[h@loU]] and [[[x]]]')).toBe('say [ [h@loU]] and [ [ [x]]]');
    expect(plainForEspeak('a\u0001b\nc <b>d</b> &amp;')).toBe('a b c <b>d</b> &amp;');
  });

  it('maps speed onto words a minute within what espeak accepts', () => {
    expect(wordsPerMinute(1)).toBe(175);
    expect(wordsPerMinute(2)).toBe(350);
    expect(wordsPerMinute(0.1)).toBe(80);
    expect(wordsPerMinute(9)).toBe(450);
  });
});

describe('the real espeak-ng', () => {
  it('lists the installed catalogue', async () => {
    const installed = await listEspeakVoices();
    expect(installed.length).toBeGreaterThanOrEqual(200);
    expect(installed.some((v) => v.id === 'de-espeak-f')).toBe(true);
  });

  it('speaks at 22,050 Hz, faster at a higher speed', async () => {
    const text = 'Die Regierung hat am Montag einen neuen Haushalt vorgestellt.';
    const normal = await synthesizeEspeak(text, 'gmw/de', 1);
    const fast = await synthesizeEspeak(text, 'gmw/de+f3', 2);
    expect(normal.sampleRate).toBe(22_050);
    expect(rmsDbfs(normal)).toBeGreaterThan(-35);
    expect(durationMs(normal) / durationMs(fast)).toBeGreaterThan(1.6);
  });

  it('reads phoneme brackets as text instead of as phonemes', async () => {
    const bracketed = await synthesizeEspeak('x [[h@loU]] y', 'gmw/en-US', 1);
    const asPhonemes = await synthesizeEspeak('x hello y', 'gmw/en-US', 1);
    // Read out ("h at l o u") it is much longer than the word it would spell.
    expect(durationMs(bracketed)).toBeGreaterThan(1.5 * durationMs(asPhonemes));
  });

  it('fails as unavailable when stopped by SIGTERM from outside, and rejects the text when it crashes', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'espeak-test-'));
    const script = (signal: string) => {
      const path = join(directory, `espeak-${signal}`);
      writeFileSync(path, `#!/bin/sh\ncat > /dev/null\nkill -${signal} $$\n`);
      chmodSync(path, 0o755);
      return path;
    };
    try {
      const stopped = await synthesizeEspeak('x', 'gmw/de', 1, { command: script('TERM') }).catch(
        (e: unknown) => e,
      );
      expect(stopped).toBeInstanceOf(SpeechUnavailableError);
      expect((stopped as Error).message).toMatch(/espeak-ng was stopped by SIGTERM from outside/);
      const crashed = await synthesizeEspeak('x', 'gmw/de', 1, { command: script('SEGV') }).catch(
        (e: unknown) => e,
      );
      expect(crashed).toBeInstanceOf(SpeechRejectedError);
      expect((crashed as Error).message).toMatch(/espeak-ng failed \(SIGSEGV\)/);
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });

  it('says which package to install when espeak-ng is missing', async () => {
    const error = await synthesizeEspeak('x', 'gmw/de', 1, { command: 'espeak-ng-missing' }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(SpeechUnavailableError);
    expect((error as Error).message).toMatch(/Debian package `espeak-ng`/);
    await expect(listEspeakVoices({ command: 'espeak-ng-missing' })).rejects.toThrow(/espeak-ng/);
  });
});
