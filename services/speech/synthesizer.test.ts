import { Readable } from 'node:stream';
import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import type { AudioStore, StoredAudio } from '../audio/audio-store.ts';
import { isAudioKey } from '../audio/audio-key.ts';
import { durationMs, longestInnerSilenceMs, readWav, writeWav } from './pcm.ts';
import { SpeechUnavailableError, type Pcm, type SpeechProvider, type SpeechRequest } from './provider.ts';
import { InvalidSpeechRequest, type SynthesisRequest } from './synthesis.ts';
import { createSynthesizer, type SynthesizerOptions } from './synthesizer.ts';
import type { Voice, VoiceQuality } from './voice.ts';

/** An audio store in memory: the contract, nothing more. */
function memoryStore(): AudioStore & { files: Map<string, { bytes: Uint8Array; audio: StoredAudio }> } {
  const files = new Map<string, { bytes: Uint8Array; audio: StoredAudio }>();
  return {
    files,
    async head(key) {
      return files.get(key)?.audio ?? null;
    },
    async put(key, bytes, meta) {
      const audio = { key, size: bytes.length, ...meta };
      files.set(key, { bytes, audio });
      return audio;
    },
    async read(key, range) {
      const file = files.get(key);
      if (!file) return null;
      const body = range ? file.bytes.subarray(range.start, range.end + 1) : file.bytes;
      return { audio: file.audio, body: Readable.from([Buffer.from(body)]) };
    },
  };
}

const voice = (
  id: string,
  languageCodes: string[],
  provider: string,
  quality: VoiceQuality = 'formant',
  gender: Voice['gender'] = 'male',
): Voice => ({
  id,
  name: id,
  languageCodes,
  gender,
  provider,
  quality,
  sampleRateHz: 16_000,
  engineVoice: id,
});

/**
 * A provider speaking 10 ms of tone per character with 100 ms of silence either side (which the join
 * trims), recording every request and how many ran at once.
 */
function fakeProvider(name: string, voices: Voice[], limits: Partial<SpeechProvider['limits']> = {}) {
  const calls: SpeechRequest[] = [];
  let running = 0;
  let mostAtOnce = 0;
  let failWith: Error | null = null;
  const provider: SpeechProvider = {
    name,
    limits: { maxChars: 200, speed: { min: 0.25, max: 4 }, ...limits },
    voices: async () => voices,
    async synthesize(request) {
      calls.push(request);
      running++;
      mostAtOnce = Math.max(mostAtOnce, running);
      await new Promise((resolve) => setTimeout(resolve, 5));
      running--;
      if (failWith) throw failWith;
      const speech = Math.round((160 * request.text.length) / request.speed);
      const samples = new Int16Array(1600 + speech + 1600);
      for (let i = 0; i < speech; i++) samples[1600 + i] = Math.round(6000 * Math.sin(i / 4));
      return { sampleRate: 16_000, samples } satisfies Pcm;
    },
  };
  return {
    provider,
    calls,
    mostAtOnce: () => mostAtOnce,
    fail: (error: Error | null) => (failWith = error),
  };
}

const embeddedVoices = [
  voice('en-US-slt-hts', ['en-US'], 'embedded', 'parametric', 'female'),
  voice('en-GB-espeak-m', ['en-GB'], 'embedded'),
  voice('en-US-espeak-m', ['en-US'], 'embedded'),
  voice('de-espeak-m', ['de'], 'embedded'),
  voice('de-espeak-f', ['de'], 'embedded', 'formant', 'female'),
  voice('pt-PT-espeak-m', ['pt-PT'], 'embedded'),
  voice('pt-BR-espeak-m', ['pt-BR'], 'embedded'),
  voice('yue-espeak-m', ['yue', 'zh-HK', 'zh'], 'embedded'),
  voice('zh-espeak-m', ['zh', 'cmn'], 'embedded'),
];
const remoteVoices = [
  voice('de-DE-Neural2-A', ['de-DE'], 'remote', 'neural', 'female'),
  voice('pt-PT-Neural2-B', ['pt-PT'], 'remote', 'neural'),
];

function setup(options: Partial<SynthesizerOptions> = {}) {
  const embedded = fakeProvider('embedded', embeddedVoices);
  const remote = fakeProvider('remote', remoteVoices, { maxChars: 1000, speed: { min: 0.5, max: 2 } });
  const store = memoryStore();
  const wav = async (pcm: Pcm) => writeWav(pcm);
  const synthesis = createSynthesizer({
    providers: [embedded.provider, remote.provider],
    store,
    encode: wav,
    ...options,
  });
  return { synthesis, embedded, remote, store };
}

const rejection = async (promise: Promise<unknown>) => {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(InvalidSpeechRequest);
  return error as InvalidSpeechRequest;
};

describe('voices', () => {
  it('merges every provider, the default first, in a stable order', async () => {
    const { synthesis } = setup();
    const ids = (await synthesis.voices()).map((v) => v.id);
    expect(ids).toEqual([...embeddedVoices, ...remoteVoices].map((v) => v.id));
    expect((await synthesis.voices()).map((v) => v.id)).toEqual(ids);
  });

  it('filters by language (ISO 639-1 or locale), gender and provider', async () => {
    const { synthesis } = setup();
    const ids = async (filter: Parameters<typeof synthesis.voices>[0]) =>
      (await synthesis.voices(filter)).map((v) => v.id);
    expect(await ids({ language: 'de' })).toEqual(['de-espeak-m', 'de-espeak-f', 'de-DE-Neural2-A']);
    expect(await ids({ language: 'pt-br' })).toEqual(['pt-BR-espeak-m']);
    expect(await ids({ language: 'de', gender: 'female' })).toEqual(['de-espeak-f', 'de-DE-Neural2-A']);
    expect(await ids({ language: 'de', provider: 'remote' })).toEqual(['de-DE-Neural2-A']);
    expect(await ids({ language: 'xx' })).toEqual([]);
    expect(await ids({ language: 'xx-YY' })).toEqual([]);
  });

  it("lists a locale no voice has by its language's voices, which synthesis falls back to", async () => {
    const { synthesis } = setup();
    const ids = async (filter: Parameters<typeof synthesis.voices>[0]) =>
      (await synthesis.voices(filter)).map((v) => v.id);
    expect(await ids({ language: 'de-AT' })).toEqual(['de-espeak-m', 'de-espeak-f', 'de-DE-Neural2-A']);
    expect(await ids({ language: 'de_AT', gender: 'female' })).toEqual(['de-espeak-f', 'de-DE-Neural2-A']);
    expect((await synthesis.voiceFor({ language: 'de-AT' })).id).toBe('de-espeak-m');
  });

  it('lists the voice synthesis picks for a language first', async () => {
    const { synthesis } = setup();
    for (const language of ['zh', 'zh-CN', 'zh-HK', 'zh-TW', 'de-DE', 'pt'])
      expect((await synthesis.voices({ language }))[0]?.id, language).toBe(
        (await synthesis.voiceFor({ language })).id,
      );
    expect((await synthesis.voices({ language: 'zh-CN' })).map((v) => v.id)).toEqual([
      'zh-espeak-m',
      'yue-espeak-m',
    ]);
  });
});

describe('voiceFor', () => {
  const pick = async (request: Pick<SynthesisRequest, 'voiceId' | 'language'>) =>
    (await setup().synthesis.voiceFor(request)).id;

  it('finds a voice by id', async () => {
    expect(await pick({ voiceId: 'pt-BR-espeak-m' })).toBe('pt-BR-espeak-m');
    expect(await pick({ voiceId: 'de-DE-Neural2-A', language: 'de' })).toBe('de-DE-Neural2-A');
  });

  it('refuses an unknown voice, pointing at the list', async () => {
    for (const voiceId of ['nobody', 'alloy', 'xx-XX-SomeoneNeural']) {
      const error = await rejection(setup().synthesis.voiceFor({ voiceId }));
      expect(error.field).toBe('voice');
      expect(error.message).toMatch(/GET \/v1\/voices/);
    }
  });

  it("refuses a cloud voice's name of another language than the one asked for, saying so", async () => {
    // Not "unknown voice": the same name without `language` is spoken, so the conflict is what to name.
    const error = await rejection(
      setup().synthesis.voiceFor({ voiceId: 'en-US-JennyNeural', language: 'de' }),
    );
    expect(error.field).toBe('language');
    expect(error.message).toBe(
      'language: voice "en-US-JennyNeural" names another language than "de"; leave out voice to get the ' +
        'default voice of "de"',
    );
  });

  it("speaks a cloud voice's name not offered here in its locale's default voice", async () => {
    expect(await pick({ voiceId: 'en-US-JennyNeural' })).toBe('en-US-slt-hts');
    expect(await pick({ voiceId: 'en-GB-Neural2-A' })).toBe('en-GB-espeak-m');
    expect(await pick({ voiceId: 'pt-BR-Wavenet-A', language: 'pt' })).toBe('pt-BR-espeak-m');
    expect(await pick({ voiceId: 'de-AT-IngridNeural' })).toBe('de-espeak-m');
  });

  it('refuses a voice that does not speak the language', async () => {
    const error = await rejection(setup().synthesis.voiceFor({ voiceId: 'de-espeak-m', language: 'pt' }));
    expect(error.field).toBe('language');
  });

  it("picks a language's default voice: the default provider's, the closest locale, the best quality", async () => {
    expect(await pick({ language: 'en' })).toBe('en-US-slt-hts');
    expect(await pick({ language: 'en-US' })).toBe('en-US-slt-hts');
    expect(await pick({ language: 'en-GB' })).toBe('en-GB-espeak-m');
    expect(await pick({ language: 'pt-BR' })).toBe('pt-BR-espeak-m');
    expect(await pick({ language: 'pt_br' })).toBe('pt-BR-espeak-m');
    expect(await pick({ language: 'pt-AO' })).toBe('pt-PT-espeak-m');
    expect(await pick({ language: 'zh' })).toBe('zh-espeak-m');
    expect(await pick({ language: 'zh-HK' })).toBe('yue-espeak-m');
    // The default provider first, even where another provider has a better voice.
    expect(await pick({ language: 'de' })).toBe('de-espeak-m');
    expect(await pick({})).toBe('en-US-slt-hts');
  });

  it("prefers the remote provider's voices when it is the default", async () => {
    const embedded = fakeProvider('embedded', embeddedVoices);
    const remote = fakeProvider('remote', remoteVoices);
    const synthesis = createSynthesizer({
      providers: [remote.provider, embedded.provider],
      store: memoryStore(),
    });
    expect((await synthesis.voiceFor({ language: 'de' })).id).toBe('de-DE-Neural2-A');
    expect((await synthesis.voiceFor({ language: 'pt' })).id).toBe('pt-PT-Neural2-B');
    // A locale the default provider lacks is found with another provider.
    expect((await synthesis.voiceFor({ language: 'pt-BR' })).id).toBe('pt-BR-espeak-m');
    expect((await synthesis.voiceFor({ language: 'zh' })).id).toBe('zh-espeak-m');
  });

  it('speaks US English when no language is asked for, whatever order the default provider lists', async () => {
    // Google lists its voices by name: Afrikaans comes first.
    const listedByName = fakeProvider('remote', [
      voice('af-ZA-Standard-A', ['af-ZA'], 'remote', 'standard', 'female'),
      voice('en-AU-Neural2-A', ['en-AU'], 'remote', 'neural', 'female'),
      voice('en-US-Standard-B', ['en-US'], 'remote', 'standard'),
      voice('en-US-Neural2-F', ['en-US'], 'remote', 'neural', 'female'),
    ]);
    const synthesis = createSynthesizer({
      providers: [listedByName.provider, fakeProvider('embedded', embeddedVoices).provider],
      store: memoryStore(),
    });
    expect((await synthesis.voiceFor({})).id).toBe('en-US-Neural2-F');
    const withoutEnglish = createSynthesizer({
      providers: [fakeProvider('remote', remoteVoices).provider],
      store: memoryStore(),
    });
    expect((await withoutEnglish.voiceFor({})).id).toBe('de-DE-Neural2-A');
  });

  it('refuses a language no voice speaks', async () => {
    const error = await rejection(setup().synthesis.voiceFor({ language: 'xh' }));
    expect(error.field).toBe('language');
  });
});

describe('synthesize', () => {
  it('refuses a text the chosen voice cannot read, as its provider says, before synthesizing', async () => {
    const { synthesis, embedded } = setup();
    embedded.provider.unreadable = (voice, text) =>
      voice.id === 'zh-espeak-m' && /\p{Script=Han}/u.test(text) ? 'it spells hanzi out' : null;
    const error = await rejection(
      synthesis.synthesize({ text: '中国人民银行', language: 'zh', format: 'wav' }),
    );
    expect(error.field).toBe('text');
    expect(error.message).toContain('cannot be read by zh-espeak-m: it spells hanzi out');
    expect(embedded.calls).toHaveLength(0);
    // Another voice of the language reads it; text in the voice's other script is read.
    await synthesis.synthesize({ text: '中国人民银行', voiceId: 'yue-espeak-m', format: 'wav' });
    await synthesis.synthesize({ text: 'zhongguo', voiceId: 'zh-espeak-m', format: 'wav' });
    expect(embedded.calls).toHaveLength(2);
  });

  const request = (overrides: Partial<SynthesisRequest> = {}): SynthesisRequest => ({
    text: 'Hello there. This is the news.',
    language: 'en',
    format: 'wav',
    ...overrides,
  });

  it.each([
    ['empty text', { text: '' }, 'text'],
    ['whitespace-only text', { text: ' \n\t ' }, 'text'],
    ['a speed the provider cannot do', { speed: 4.5 }, 'speed'],
    ['a speed below its range', { speed: 0.1 }, 'speed'],
    ['a speed that is no number', { speed: Number.NaN }, 'speed'],
    ['an unknown format', { format: 'flac' as never }, 'format'],
  ])('refuses %s, naming the field', async (_, overrides, field) => {
    const { synthesis, embedded } = setup();
    expect((await rejection(synthesis.synthesize(request(overrides)))).field).toBe(field);
    expect(embedded.calls).toHaveLength(0);
  });

  it("speaks a text with no voice or language asked for in its own language's voice, told by its script", async () => {
    const { synthesis } = setup();
    const spoken = async (text: string) =>
      (await synthesis.synthesize(request({ text, language: undefined }))).voice.id;
    // Too short to detect, but Han: Chinese, whose default voice is the embedded one.
    expect(await spoken('央行宣布降息。')).toBe('zh-espeak-m');
    // Latin letters tell no language: US English, the documented default.
    expect(await spoken('Die Bank hob den Zins.')).toBe('en-US-slt-hts');
    expect(await spoken('Hello there.')).toBe('en-US-slt-hts');
    // Detected from 120 characters on.
    expect(
      await spoken(
        'Die Europäische Zentralbank hat den Leitzins am Donnerstag erneut angehoben, um die hohe Inflation ' +
          'im Euroraum zu bekämpfen, teilte die Notenbank in Frankfurt mit.',
      ),
    ).toBe('de-espeak-m');
    // A script no voice here reads is refused rather than spoken by the English voice as silence.
    const error = await rejection(
      synthesis.synthesize(request({ text: 'Банк повысил ставку.', language: undefined })),
    );
    expect(error.field).toBe('language');
    expect(error.message).toMatch(/reads as "ru", which no voice here speaks/);
    // So is a script that tells no language at all (Cherokee, Runic, Javanese), with no Latin letter.
    for (const text of ['ᏣᎳᎩ ᎦᏬᏂᎯᏍᏗ', 'ᚠᛇᚻ᛫ᛒᛦᚦ', 'ꦧꦱꦗꦮ!']) {
      const refused = await rejection(synthesis.synthesize(request({ text, language: undefined })));
      expect(refused.field).toBe('language');
      expect(refused.message).toMatch(/script whose language could not be told/);
    }
    // A Latin letter among them: the English voice reads that.
    expect(await spoken('ᚠᛇᚻ OK')).toBe('en-US-slt-hts');
  });

  it("checks speed against the voice's own provider", async () => {
    const { synthesis } = setup();
    const error = await rejection(
      synthesis.synthesize(request({ voiceId: 'de-DE-Neural2-A', language: 'de', speed: 3 })),
    );
    expect(error.message).toMatch(/remote's range, 0.5 to 2/);
  });

  it('refuses text over 5,000 characters as too long, naming the limit', async () => {
    const { synthesis } = setup();
    const error = await rejection(synthesis.synthesize(request({ text: 'a'.repeat(5_001) })));
    expect(error).toMatchObject({ field: 'text' });
    expect(error.message).toMatch(/5,000/);
    // Characters, not UTF-16 units: 2,500 emoji and 2,500 letters are within the limit.
    await synthesis.synthesize(request({ text: '😀a'.repeat(2_500) }));
  });

  it('refuses a text with nothing to speak: no letter or digit', async () => {
    const { synthesis } = setup();
    for (const text of ['\u0000', '😀🎉', '!!! ???', '---', '\u200b']) {
      const error = await rejection(synthesis.synthesize(request({ text })));
      expect(error).toMatchObject({ field: 'text' });
      expect(error.message).toMatch(/nothing to speak/);
    }
    await synthesis.synthesize(request({ text: '42' }));
    await synthesis.synthesize(request({ text: 'Ба!' }));
  });

  it('speaks text in pieces within the provider limit and stores the joined audio', async () => {
    const { synthesis, embedded, store } = setup();
    const text = 'This is one sentence of the news. '.repeat(20);
    const result = await synthesis.synthesize(request({ text }));
    expect(embedded.calls.length).toBeGreaterThan(3);
    expect(embedded.calls.every((call) => call.text.length <= 200 && call.voice.id === 'en-US-slt-hts')).toBe(
      true,
    );
    expect(embedded.calls.map((call) => call.text).join(' ')).toBe(text.trim());
    expect(result).toMatchObject({ format: 'wav', cached: false, characters: text.trim().length });
    expect(result.voice.id).toBe('en-US-slt-hts');
    expect(isAudioKey(result.audio.key)).toBe(true);
    const stored = store.files.get(result.audio.key)!;
    expect(stored.audio).toMatchObject({ contentType: 'audio/wav', durationMs: result.durationMs });
    const pcm = readWav(stored.bytes);
    expect(Math.round(durationMs(pcm))).toBe(result.durationMs);
    // 10 ms a character spoken, the 350 ms pause at each join, a little margin at the edges.
    const pauses = (embedded.calls.length - 1) * 350;
    expect(result.durationMs).toBeGreaterThan(text.trim().length * 10 * 0.9 + pauses);
    expect(result.durationMs).toBeLessThan(text.trim().length * 10 + pauses + 500);
  });

  it('gives the engine a run of marks as three of them, and no emoji, billing the text as written', async () => {
    const { synthesis, embedded } = setup();
    const text = `${'.'.repeat(4_000)} Rates rose 😀😀😀😀 today!!!!!!!`;
    const result = await synthesis.synthesize(request({ text }));
    expect(embedded.calls.map((call) => call.text)).toEqual(['... Rates rose today!!!']);
    expect(result.characters).toBe([...text].length);
  });

  it("cuts text to the voice's own limits where the provider has them", async () => {
    const embedded = fakeProvider('embedded', embeddedVoices, { maxChars: 40 });
    embedded.provider.textLimits = (voice) =>
      voice.id === 'de-espeak-m' ? { maxChars: 400 } : { maxChars: 40 };
    const synthesis = createSynthesizer({
      providers: [embedded.provider],
      store: memoryStore(),
      encode: async (pcm) => writeWav(pcm),
    });
    const text = 'Ein Satz zum Vorlesen. '.repeat(6).trim();
    await synthesis.synthesize(request({ text, language: 'de', voiceId: 'de-espeak-m' }));
    expect(embedded.calls.map((call) => call.text)).toEqual([text]);
    await synthesis.synthesize(request({ text, language: 'de', voiceId: 'de-espeak-f' }));
    expect(embedded.calls.length).toBeGreaterThan(3);
    expect(embedded.calls.slice(1).every((call) => call.text.length <= 40)).toBe(true);
  });

  it("puts the voice's own sentence pause between pieces", async () => {
    const embedded = fakeProvider('embedded', embeddedVoices, { maxChars: 40 });
    embedded.provider.sentencePauseMs = () => 120;
    const store = memoryStore();
    const synthesis = createSynthesizer({
      providers: [embedded.provider],
      store,
      encode: async (pcm) => writeWav(pcm),
    });
    const result = await synthesis.synthesize(request({ text: 'A sentence to read out. '.repeat(6) }));
    expect(embedded.calls.length).toBeGreaterThan(2);
    const gap = longestInnerSilenceMs(readWav(store.files.get(result.audio.key)!.bytes));
    expect(gap).toBeGreaterThanOrEqual(120);
    expect(gap).toBeLessThanOrEqual(120 + 2 * 20 + 10);
  });

  it('finds a stored request and synthesizes nothing', async () => {
    const { synthesis, embedded } = setup();
    const first = await synthesis.synthesize(request());
    const calls = embedded.calls.length;
    const again = await synthesis.synthesize(request({ text: '  Hello there.\nThis is the news. ' }));
    expect(again).toMatchObject({ cached: true, durationMs: first.durationMs });
    expect(again.audio.key).toBe(first.audio.key);
    expect(embedded.calls).toHaveLength(calls);
    // Anything that changes the sound is another file.
    const faster = await synthesis.synthesize(request({ speed: 1.5 }));
    const otherVoice = await synthesis.synthesize(request({ voiceId: 'en-GB-espeak-m' }));
    expect(new Set([first.audio.key, faster.audio.key, otherVoice.audio.key]).size).toBe(3);
  });

  it('speaks two identical requests arriving together once', async () => {
    const { synthesis, embedded } = setup();
    const [a, b] = await Promise.all([synthesis.synthesize(request()), synthesis.synthesize(request())]);
    expect(a.audio.key).toBe(b.audio.key);
    expect(embedded.calls).toHaveLength(1);
  });

  it('counts provider requests through the hook and the metric', async () => {
    const metrics = new Registry();
    const seen: [string, number][] = [];
    const { synthesis } = setup({
      metrics,
      onProviderCall: (provider, characters) => seen.push([provider, characters]),
    });
    await synthesis.synthesize(request({ text: 'Ein Satz. '.repeat(30), language: 'de' }));
    await synthesis.synthesize(request({ text: 'Ein Satz. '.repeat(30), language: 'de' }));
    expect(seen.length).toBeGreaterThan(1);
    expect(seen.every(([provider, characters]) => provider === 'embedded' && characters <= 200)).toBe(true);
    expect(await metrics.getSingleMetricAsString('speech_provider_requests_total')).toContain(
      `speech_provider_requests_total{provider="embedded"} ${seen.length}`,
    );
  });

  it('speaks at most `concurrency` pieces at once', async () => {
    const { synthesis, embedded } = setup({ concurrency: 3 });
    await synthesis.synthesize(request({ text: 'A short sentence here. '.repeat(40) }));
    expect(embedded.calls.length).toBeGreaterThan(3);
    expect(embedded.mostAtOnce()).toBe(3);
  });

  it('speaks a 20,000-character article when the caller allows it', async () => {
    const { synthesis, embedded } = setup({ maxCharacters: 50_000, concurrency: 4 });
    const text = 'The council met again on Tuesday to discuss the budget for next year. '.repeat(286);
    expect(text.trim().length).toBeGreaterThan(20_000);
    const result = await synthesis.synthesize(request({ text }));
    expect(result.characters).toBe(text.trim().length);
    expect(embedded.calls.length).toBeGreaterThanOrEqual(100);
    expect(result.durationMs).toBeGreaterThan(200_000);
  });

  it('passes a provider outage on and stores nothing', async () => {
    const { synthesis, embedded, store } = setup();
    embedded.fail(new SpeechUnavailableError('engine down'));
    await expect(synthesis.synthesize(request())).rejects.toBeInstanceOf(SpeechUnavailableError);
    expect(store.files.size).toBe(0);
    embedded.fail(null);
    expect((await synthesis.synthesize(request())).cached).toBe(false);
  });

  it('refuses text with a character sequence longer than the provider takes', async () => {
    const { synthesis } = setup();
    const error = await rejection(synthesis.synthesize(request({ text: `a${'\u0301'.repeat(300)}` })));
    expect(error.field).toBe('text');
  });
});
