// GET /v1/voices, POST /v1/synthesize and POST /api/v1/summarize with voice_enabled on real API
// processes (services/api/main.ts) over the real stack: the embedded provider speaks (Festival HTS for
// US English, espeak-ng for the rest), and what the API answers is decoded with ffprobe/ffmpeg and
// measured (container, codec, rate, duration against the words, loudness, clipping). A second API on the
// OpenAI provider speaks through a local server speaking OpenAI's protocol, then answers 503 once that
// server is gone.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventProducer } from '../../services/runtime/kafka/producer.ts';
import { createSchemaRegistry, EventCodec } from '../../services/runtime/kafka/registry.ts';
import { decodeAudio, probeAudio } from '../../services/speech/audio-probe.ts';
import { clippedShare, durationMs, peak, rmsDbfs } from '../../services/speech/pcm.ts';
import type { components } from '../api-client/schema.d.ts';
import { startOpenAiSpeechServer, type OpenAiSpeechServer } from '../support/openai-speech-server.ts';
import { startApiProcess, type ApiProcess } from './support/api-process.ts';
import { testKafka } from './support/kafka.ts';
import { stack } from './support/stack.ts';
import { createTestClient, type TestClient } from './support/test-clients.ts';
import { waitFor } from './support/wait.ts';

type VoiceList = components['schemas']['VoiceList'];
type Synthesized = components['schemas']['Synthesized'];
type Summary = components['schemas']['Summary'];
interface ErrorBody {
  error: { code: string; message: string };
}

const urlKeys = `sp1:${Buffer.alloc(32, 7).toString('base64url')}`;

const texts = {
  en:
    'The city council approved a new budget on Tuesday after a long debate. The plan raises spending on ' +
    'schools and public transport, and it cuts the cost of parking permits for residents. Critics said the ' +
    'council had ignored the rising price of housing.',
  de:
    'Der Stadtrat hat am Dienstag nach einer langen Debatte einen neuen Haushalt beschlossen. Der Plan ' +
    'erhöht die Ausgaben für Schulen und den öffentlichen Verkehr und senkt die Kosten für Parkausweise. ' +
    'Kritiker sagten, der Rat habe die steigenden Wohnkosten ignoriert.',
  'pt-BR':
    'A câmara municipal aprovou um novo orçamento na terça-feira, depois de um longo debate. O plano ' +
    'aumenta os gastos com escolas e transporte público e reduz o custo das licenças de estacionamento. ' +
    'Os críticos disseram que a câmara ignorou o aumento do preço da moradia.',
};
const words = (text: string) => text.split(/\s+/).filter(Boolean).length;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
/** The key of a signed audio URL: its path after /v1/audio/. */
const keyOf = (url: string) => new URL(url).pathname.replace('/v1/audio/', '');

interface Answer<T> {
  status: number;
  headers: Headers;
  body: T;
  bytes: Buffer;
  ms: number;
}

/** One call; the body parsed as JSON when it is JSON, the raw bytes kept either way. */
async function request<T = ErrorBody>(
  api: ApiProcess,
  method: string,
  path: string,
  options: { body?: unknown; apiKey?: string | null; headers?: Record<string, string> } = {},
): Promise<Answer<T>> {
  const started = performance.now();
  const response = await fetch(`${api.url}${path}`, {
    method,
    headers: {
      ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {}),
      ...options.headers,
    },
    body:
      options.body === undefined
        ? null
        : typeof options.body === 'string'
          ? options.body
          : JSON.stringify(options.body),
  });
  const bytes = Buffer.from(await response.arrayBuffer());
  const ms = performance.now() - started;
  let body: unknown = undefined;
  if (response.headers.get('content-type')?.startsWith('application/json'))
    body = JSON.parse(bytes.toString());
  return { status: response.status, headers: response.headers, body: body as T, bytes, ms };
}

/** What a player would find in `bytes`, measured. */
async function measure(bytes: Uint8Array) {
  const probed = await probeAudio(bytes);
  const pcm = await decodeAudio(bytes);
  return {
    ...probed,
    seconds: durationMs(pcm) / 1000,
    rmsDb: rmsDbfs(pcm),
    peak: peak(pcm),
    clipped: clippedShare(pcm),
  };
}

describe('speech on the API', () => {
  let producer: EventProducer;
  let codec: EventCodec;
  const kafka = testKafka();
  let audioDir: string;
  let api: ApiProcess;
  let key: string;
  let noAudio: TestClient;
  let aiOnly: TestClient;
  let openAi: OpenAiSpeechServer | undefined;
  let openAiApi: ApiProcess | undefined;

  const synthesize = (body: unknown, headers: Record<string, string> = {}) =>
    request<Synthesized>(api, 'POST', '/v1/synthesize', { body, apiKey: key, headers });
  const asJson = { accept: 'application/json' };
  const expectInvalid = (answer: Answer<ErrorBody>, field: string, message?: RegExp) => {
    expect([answer.status, answer.body?.error.code], answer.bytes.toString()).toEqual([
      400,
      'invalid_parameter',
    ]);
    expect(answer.body.error.message.startsWith(`${field}: `), answer.body.error.message).toBe(true);
    if (message) expect(answer.body.error.message).toMatch(message);
  };
  /** speech_provider_requests_total of the embedded provider on the API's /metrics. */
  const providerRequests = async (on: ApiProcess, provider = 'embedded') => {
    const metrics = (await request(on, 'GET', '/metrics')).bytes.toString();
    const line = new RegExp(`^speech_provider_requests_total\\{provider="${provider}"\\} (\\d+)`, 'm');
    return Number(line.exec(metrics)?.[1] ?? 0);
  };

  beforeAll(async () => {
    codec = new EventCodec(createSchemaRegistry(stack.SCHEMA_REGISTRY_URL));
    producer = await EventProducer.connect(kafka, codec);
    const run = Date.now().toString(36);
    const [full, reader, writer] = await Promise.all([
      createTestClient({ kafka, codec, producer }, { name: `speech ${run}` }),
      createTestClient({ kafka, codec, producer }, { name: `speech reader ${run}`, scopes: ['read:feeds'] }),
      createTestClient({ kafka, codec, producer }, { name: `speech ai only ${run}`, scopes: ['use:ai'] }),
    ]);
    key = full.apiKey;
    noAudio = reader;
    aiOnly = writer;
    audioDir = await mkdtemp(path.join(tmpdir(), 'speech-api-'));
    api = await startApiProcess({
      LOG_LEVEL: 'info',
      AUDIO_STORE: 'local',
      AUDIO_DIR: audioDir,
      AUDIO_URL_KEYS: urlKeys,
      REDIS_KEY_PREFIX: `test:speech:${run}:`,
    });
    // The API learns of new clients from news.clients.v1.
    for (const apiKey of [key, noAudio.apiKey])
      await waitFor(
        async () => (await request(api, 'GET', '/v1/voices?language=de', { apiKey })).status !== 401,
        'the API to know the test clients',
        30_000,
      );
  }, 120_000);

  afterAll(async () => {
    await openAiApi?.stop();
    await openAi?.close();
    await api?.stop();
    await producer?.disconnect();
    if (audioDir) await rm(audioDir, { recursive: true, force: true });
  }, 30_000);

  describe('GET /v1/voices', () => {
    it('lists every offline voice once, locale-prefixed, with an honest quality and no neural voice', async () => {
      const answer = await request<VoiceList>(api, 'GET', '/v1/voices', { apiKey: key });
      expect(answer.status).toBe(200);
      const { voices, count } = answer.body;
      expect(count).toBe(voices.length);
      expect(new Set(voices.map((v) => v.id)).size).toBe(count);
      for (const voice of voices) {
        // The id starts with the voice's main locale: its first language code.
        expect(voice.id.startsWith(`${voice.language_codes[0]}-`), voice.id).toBe(true);
        expect(voice.provider).toBe('embedded');
        expect(voice.sample_rate_hz).toBe(voice.quality === 'parametric' ? 32_000 : 22_050);
      }
      const byQuality = {
        neural: voices.filter((v) => v.quality === 'neural'),
        parametric: voices.filter((v) => v.quality === 'parametric'),
        formant: voices.filter((v) => v.quality === 'formant'),
      };
      expect(byQuality.neural).toEqual([]);
      expect(byQuality.parametric.map((v) => v.id)).toEqual(['en-US-slt-hts']);
      expect(voices[0]!.id).toBe('en-US-slt-hts');
      expect(byQuality.formant.length).toBe(count - 1);
      expect(voices.filter((v) => v.id.includes('-espeak-')).length).toBe(count - 1);
      const locales = new Set(voices.map((v) => v.language_codes[0]));
      const languages = new Set(voices.map((v) => v.language_codes[0]!.split('-')[0]));
      // Far fewer than "140 languages": what espeak-ng really speaks, plus Festival's US English.
      expect(count).toBeGreaterThan(200);
      expect(languages.size).toBeGreaterThan(100);
      console.log(
        `voices offline: ${count} (${byQuality.parametric.length} parametric, ${byQuality.formant.length} formant, ` +
          `0 neural), ${locales.size} locales, ${languages.size} base languages`,
      );
    });

    it('filters by language (code or locale), gender and provider', async () => {
      const list = async (query: string) => {
        const answer = await request<VoiceList>(api, 'GET', `/v1/voices?${query}`, { apiKey: key });
        expect(answer.status, answer.bytes.toString()).toBe(200);
        return answer.body.voices;
      };
      const portuguese = await list('language=pt');
      expect(portuguese.map((v) => v.id).sort()).toEqual(
        ['pt-BR-espeak-f', 'pt-BR-espeak-m', 'pt-PT-espeak-f', 'pt-PT-espeak-m'].sort(),
      );
      const brazilian = await list('language=pt-BR');
      expect(brazilian.map((v) => v.id).sort()).toEqual(['pt-BR-espeak-f', 'pt-BR-espeak-m']);
      expect(brazilian.every((v) => v.language_codes.includes('pt-BR'))).toBe(true);
      // The locale is matched whatever its case, as BCP 47 tags are.
      expect((await list('language=pt-br')).map((v) => v.id).sort()).toEqual(
        brazilian.map((v) => v.id).sort(),
      );

      const all = await list('');
      const female = await list('gender=female');
      expect(female.length).toBeGreaterThan(100);
      expect(female.every((v) => v.gender === 'female')).toBe(true);
      expect(female.length).toBe(all.filter((v) => v.gender === 'female').length);
      expect((await list('gender=female&language=pt-BR')).map((v) => v.id)).toEqual(['pt-BR-espeak-f']);
      expect((await list('provider=embedded')).length).toBe(all.length);
      expect((await list('provider=EMBEDDED')).length).toBe(all.length);
      // A locale no voice has lists its language's voices, which /v1/synthesize falls back to for it.
      expect((await list('language=pt-AO')).map((v) => v.id).sort()).toEqual(
        portuguese.map((v) => v.id).sort(),
      );
      expect(await list('provider=openai')).toEqual([]);
      const english = await list('language=en');
      expect(english[0]!.id).toBe('en-US-slt-hts');
      expect(english.map((v) => v.id)).toEqual(expect.arrayContaining(['en-GB-espeak-m', 'en-US-espeak-f']));
      // A language no voice speaks is an empty list, not an error (a code of three letters, ISO 639-3, too).
      expect(await list('language=ii')).toEqual([]);
      expect((await list('language=yue')).map((v) => v.id)).toEqual(expect.any(Array));
      // ISO 639-2/3 codes of languages that have a two-letter one are read as it (what such systems send).
      expect((await list('language=eng')).map((v) => v.id)).toEqual(english.map((v) => v.id));
      expect((await list('language=por-BR')).map((v) => v.id).sort()).toEqual(
        brazilian.map((v) => v.id).sort(),
      );
      // the withdrawn codes Java's Locale and Android still send: iw is Hebrew, in Indonesian
      const hebrew = await list('language=he');
      expect(hebrew.length).toBeGreaterThan(0);
      expect((await list('language=iw')).map((v) => v.id)).toEqual(hebrew.map((v) => v.id));
      expect((await list('language=in-ID')).map((v) => v.id)).toEqual(
        (await list('language=id')).map((v) => v.id),
      );
    });

    it.each([
      ['language=portuguese!', 'language', /language code such as en/],
      ['language=xx', 'language', /"xx" does not start with an ISO 639-1 language code/],
      ['language=zz-ZZ', 'language', /"zz-ZZ" does not start with an ISO 639-1 language code/],
      ['gender=robot', 'gender', /female, male, neutral/],
      ['provider=azure', 'provider', /embedded, google, openai/],
      ['colour=blue', 'colour', /unknown parameter/],
    ])('answers 400 naming the parameter for %s', async (query, field, message) => {
      const answer = await request(api, 'GET', `/v1/voices?${query}`, { apiKey: key });
      expectInvalid(answer, field, message);
    });

    it('needs the scope use:audio, on both endpoints', async () => {
      for (const [method, path, body] of [
        ['GET', '/v1/voices', undefined],
        ['POST', '/v1/synthesize', { text: 'Hello.' }],
      ] as const) {
        const answer = await request(api, method, path, { apiKey: noAudio.apiKey, body });
        expect([answer.status, answer.body.error.code]).toEqual([403, 'insufficient_scope']);
        expect(answer.body.error.message).toMatch(/use:audio/);
      }
      expect((await request(api, 'GET', '/v1/voices', {})).status).toBe(401);
    });
  });

  describe('POST /v1/synthesize', () => {
    it.each([
      ['mp3', 'audio/mpeg', 'mp3', 'mp3', 32_000],
      ['wav', 'audio/wav', 'wav', 'pcm_s16le', 32_000],
      ['ogg', 'audio/ogg', 'ogg', 'opus', 48_000],
    ] as const)(
      'answers %s as %s bytes that decode as %s/%s at %i Hz, as long as the words take to say',
      async (format, contentType, container, codec, rate) => {
        // A cloud provider's neural voice name: spoken by its locale's default voice, which is named.
        const answer = await synthesize({ text: texts.en, format, voice: 'en-US-JennyNeural' });
        expect(answer.status, answer.bytes.toString()).toBe(200);
        expect(answer.headers.get('content-type')).toBe(contentType);
        expect(answer.headers.get('content-length')).toBe(String(answer.bytes.length));
        expect(answer.headers.get('audio-voice')).toBe('en-US-slt-hts');
        const audio = await measure(answer.bytes);
        expect(audio).toMatchObject({ container, codec, sampleRate: rate, channels: 1 });
        const wpm = words(texts.en) / (audio.seconds / 60);
        expect(wpm).toBeGreaterThan(120);
        expect(wpm).toBeLessThan(220);
        expect(Number(answer.headers.get('audio-duration-ms')) / 1000).toBeCloseTo(audio.seconds, 0);
        expect(audio.rmsDb).toBeGreaterThan(-35);
        expect(audio.clipped).toBeLessThan(0.0001);
        expect(audio.peak).toBeLessThan(1);
        console.log(
          `en ${format}: ${audio.seconds.toFixed(2)} s for ${words(texts.en)} words (${wpm.toFixed(0)} wpm), ` +
            `RMS ${audio.rmsDb.toFixed(1)} dBFS, peak ${audio.peak.toFixed(2)}, ${answer.ms.toFixed(0)} ms to answer`,
        );
      },
    );

    it.each([
      ['de', 'de-espeak-m'],
      ['pt-BR', 'pt-BR-espeak-m'],
    ] as const)(
      'speaks %s in that language’s default voice (espeak-ng) at a speaking rate',
      async (language, voice) => {
        const answer = await synthesize({ text: texts[language], language }, asJson);
        expect(answer.status, answer.bytes.toString()).toBe(200);
        expect(answer.body).toMatchObject({ format: 'mp3', voice, characters: [...texts[language]].length });
        const file = await fetch(answer.body.audio_url);
        const audio = await measure(Buffer.from(await file.arrayBuffer()));
        expect(audio).toMatchObject({ container: 'mp3', codec: 'mp3', sampleRate: 22_050 });
        const wpm = words(texts[language]) / (audio.seconds / 60);
        expect(wpm).toBeGreaterThan(120);
        expect(wpm).toBeLessThan(220);
        // mp3 adds the encoder's delay and padding, under 0.15 s at these rates.
        expect(Math.abs(audio.seconds * 1000 - answer.body.duration_ms)).toBeLessThan(150);
        expect(audio.rmsDb).toBeGreaterThan(-35);
        expect(audio.clipped).toBeLessThan(0.0001);
        console.log(
          `${language} (${voice}): ${audio.seconds.toFixed(2)} s for ${words(texts[language])} words (${wpm.toFixed(0)} wpm), ` +
            `RMS ${audio.rmsDb.toFixed(1)} dBFS, peak ${audio.peak.toFixed(2)}`,
        );
      },
    );

    it('speaks at speed 2.0 in well under two thirds of the time, in English and German', async () => {
      for (const [language, text] of [
        ['en', texts.en],
        ['de', texts.de],
      ] as const) {
        const durations = [];
        for (const speed of [1, 2]) {
          const answer = await synthesize({ text, language, speed, format: 'wav' });
          expect(answer.status, answer.bytes.toString()).toBe(200);
          durations.push((await measure(answer.bytes)).seconds);
        }
        const [normal, fast] = durations as [number, number];
        console.log(
          `${language}: speed 1.0 ${normal.toFixed(2)} s, speed 2.0 ${fast.toFixed(2)} s (${(normal / fast).toFixed(2)}x shorter)`,
        );
        expect(normal / fast).toBeGreaterThanOrEqual(1.6);
      }
    });

    it('answers JSON for Accept: application/json, whose signed audio_url downloads the same bytes without a key', async () => {
      const text = 'Markets closed higher on Friday.';
      const bytes = await synthesize({ text, format: 'ogg' });
      expect(bytes.status).toBe(200);
      const answer = await synthesize({ text, format: 'ogg' }, asJson);
      expect(answer.status).toBe(200);
      expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
      expect(Object.keys(answer.body).sort()).toEqual([
        'audio_url',
        'characters',
        'duration_ms',
        'format',
        'voice',
      ]);
      expect(answer.body).toMatchObject({ format: 'ogg', voice: 'en-US-slt-hts', characters: text.length });
      expect(answer.body.duration_ms).toBeGreaterThan(1_000);
      const url = new URL(answer.body.audio_url);
      expect(url.origin).toBe(api.url);
      expect(url.pathname).toMatch(/^\/v1\/audio\/[^/]+\.ogg$/);
      expect(url.searchParams.get('expires')).toMatch(/^\d+$/);
      const file = await fetch(answer.body.audio_url);
      expect(file.status).toBe(200);
      expect(file.headers.get('content-type')).toBe('audio/ogg');
      expect(Buffer.from(await file.arrayBuffer()).equals(bytes.bytes)).toBe(true);

      // format "url": the mp3, answered as JSON whatever Accept says (the same file as format mp3).
      const byFormat = await synthesize({ text, format: 'url' });
      expect(byFormat.status).toBe(200);
      expect(byFormat.headers.get('content-type')).toMatch(/^application\/json/);
      expect(byFormat.body).toMatchObject({ format: 'mp3', voice: 'en-US-slt-hts' });
      const mp3 = await synthesize({ text, format: 'mp3' });
      const stored = await fetch(byFormat.body.audio_url);
      expect(stored.headers.get('content-type')).toBe('audio/mpeg');
      expect(Buffer.from(await stored.arrayBuffer()).equals(mp3.bytes)).toBe(true);
    });

    it('answers the audio type Accept names when no format is given, and 406 when Accept refuses the format', async () => {
      const text = 'Rates held steady.';
      for (const [accept, type] of [
        ['audio/wav', 'audio/wav'],
        ['audio/ogg', 'audio/ogg'],
        ['audio/ogg;q=0.5, audio/wav', 'audio/wav'],
        ['*/*', 'audio/mpeg'],
        // The legacy spellings players still send.
        ['audio/x-wav', 'audio/wav'],
        ['audio/mp3', 'audio/mpeg'],
        // Opus in Ogg as browsers write it.
        ['audio/ogg; codecs=opus', 'audio/ogg'],
      ] as const) {
        const answer = await synthesize({ text }, { accept });
        expect(answer.status, `${accept}: ${answer.bytes.toString().slice(0, 200)}`).toBe(200);
        expect(answer.headers.get('content-type'), accept).toBe(type);
      }
      expect((await synthesize({ text })).headers.get('content-type')).toBe('audio/mpeg');
      const refused = await request<ErrorBody>(api, 'POST', '/v1/synthesize', {
        body: { text, format: 'mp3' },
        apiKey: key,
        headers: { accept: 'audio/wav' },
      });
      expect([refused.status, refused.body.error.code]).toEqual([406, 'not_acceptable']);
      expect(refused.body.error.message).toMatch(/format mp3 is sent as audio\/mpeg/);
      // format "url" is JSON whatever audio type Accept names, but not to an Accept that refuses JSON.
      const noJson = await request<ErrorBody>(api, 'POST', '/v1/synthesize', {
        body: { text, format: 'url' },
        apiKey: key,
        headers: { accept: 'audio/mpeg, application/json;q=0' },
      });
      expect([noJson.status, noJson.body.error.code]).toEqual([406, 'not_acceptable']);
      const audioOnly = await synthesize({ text, format: 'url' }, { accept: 'audio/mpeg' });
      expect(audioOnly.headers.get('content-type')).toMatch(/^application\/json/);
    });

    it('picks the default voice of a language or locale when no voice is named', async () => {
      const voiceFor = async (body: object) => {
        const answer = await synthesize({ text: 'Bonjour. Hola. Olá.', format: 'wav', ...body }, asJson);
        expect(answer.status, answer.bytes.toString()).toBe(200);
        return answer.body.voice;
      };
      expect(await voiceFor({})).toBe('en-US-slt-hts');
      expect(await voiceFor({ language: 'en' })).toBe('en-US-slt-hts');
      expect(await voiceFor({ language: 'en-GB' })).toBe('en-GB-espeak-m');
      expect(await voiceFor({ language: 'fr' })).toBe('fr-FR-espeak-m');
      expect(await voiceFor({ language: 'pt' })).toMatch(/^pt-(PT|BR)-espeak-m$/);
      expect(await voiceFor({ language: 'pt-BR' })).toBe('pt-BR-espeak-m');
      expect(await voiceFor({ voice: 'es-ES-espeak-f' })).toBe('es-ES-espeak-f');
      expect(await voiceFor({ voice: 'es-ES-espeak-f', language: 'es' })).toBe('es-ES-espeak-f');
    });

    it('serves the same request again from storage: same file, no synthesis, and faster', async () => {
      // Five texts of about 200 characters, each asked for twice.
      const sentences = Array.from(
        { length: 5 },
        (_, i) =>
          `Report ${i + 1}: the central bank held interest rates steady on Thursday, saying inflation was ` +
          `falling faster than expected while growth in the second quarter remained weak across the region.`,
      );
      const first: number[] = [];
      const repeat: number[] = [];
      for (const text of sentences) {
        const before = await providerRequests(api);
        const one = await synthesize({ text }, asJson);
        const synthesized = await providerRequests(api);
        const two = await synthesize({ text }, asJson);
        expect([one.status, two.status]).toEqual([200, 200]);
        expect(keyOf(two.body.audio_url)).toBe(keyOf(one.body.audio_url));
        expect(two.body.duration_ms).toBe(one.body.duration_ms);
        expect(synthesized).toBe(before + 1);
        expect(await providerRequests(api)).toBe(synthesized);
        first.push(one.ms);
        repeat.push(two.ms);
      }
      // And as bytes: the stored file, byte for byte.
      const bytes = await synthesize({ text: sentences[0] });
      const stored = await fetch((await synthesize({ text: sentences[0] }, asJson)).body.audio_url).then(
        async (r) => Buffer.from(await r.arrayBuffer()),
      );
      expect(bytes.bytes.equals(stored)).toBe(true);
      console.log(
        `synthesize ${sentences[0]!.length} characters (Festival, mp3): p50 ${median(first).toFixed(0)} ms ` +
          `first time, ${median(repeat).toFixed(0)} ms from storage (${first.map((ms) => ms.toFixed(0)).join(', ')} / ` +
          `${repeat.map((ms) => ms.toFixed(0)).join(', ')})`,
      );
      expect(median(repeat)).toBeLessThan(median(first));
    });

    it('speaks the same request asked three times at once only once', async () => {
      const before = await providerRequests(api);
      const body = { text: 'Three listeners asked for this sentence at the same moment.', format: 'wav' };
      const answers = await Promise.all([synthesize(body), synthesize(body), synthesize(body)]);
      expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
      expect(answers[1].bytes.equals(answers[0].bytes)).toBe(true);
      expect(answers[2].bytes.equals(answers[0].bytes)).toBe(true);
      expect(await providerRequests(api)).toBe(before + 1);
    });

    it.each([
      ['Festival', 'en-US'],
      ['espeak-ng', 'en-GB'],
    ])(
      'reads markup in the text as text in %s: nothing stripped, nothing interpreted',
      async (_, language) => {
        const plain = 'bold and alert 1';
        const markup = '<b>bold</b> & <script>alert("1")</script> \\';
        const spoken: Record<string, Synthesized> = {};
        for (const text of [plain, markup]) {
          const answer = await synthesize({ text, language }, asJson);
          expect(answer.status, answer.bytes.toString()).toBe(200);
          expect(answer.body.characters).toBe(text.length);
          spoken[text] = answer.body;
        }
        const file = await fetch(spoken[markup]!.audio_url);
        const audio = await measure(Buffer.from(await file.arrayBuffer()));
        expect(audio.rmsDb).toBeGreaterThan(-35);
        console.log(
          `markup in ${spoken[markup]!.voice}: ${spoken[markup]!.duration_ms} ms for ${JSON.stringify(markup)}, ` +
            `${spoken[plain]!.duration_ms} ms for "${plain}"`,
        );
        // The tags are read out ("less than b greater than..."), so it takes clearly longer than its words.
        expect(spoken[markup]!.duration_ms).toBeGreaterThan(1.5 * spoken[plain]!.duration_ms);
      },
    );

    it('takes 5,000 characters (counted as characters, not bytes) and answers 400 naming the limit beyond', async () => {
      const sentence = 'Grüße aus München, wo es heute regnet. ';
      const text = sentence.repeat(Math.ceil(5_000 / sentence.length)).slice(0, 5_000);
      expect(Buffer.byteLength(text)).toBeGreaterThan(5_000);
      // Trailing whitespace is not spoken, so the 5,000th character must be a letter.
      const exact = `${text.slice(0, 4_999)}x`;
      const accepted = await synthesize({ text: exact, language: 'de' }, asJson);
      expect(accepted.status, accepted.bytes.toString()).toBe(200);
      expect(accepted.body.characters).toBe(5_000);
      const over = await synthesize({ text: `${exact}y`, language: 'de' });
      expect([over.status, (over.body as unknown as ErrorBody).error.code]).toEqual([
        400,
        'invalid_parameter',
      ]);
      expect((over.body as unknown as ErrorBody).error.message).toBe(
        'text: is 5,001 characters; the limit is 5,000 per request',
      );
    });
  });

  describe('POST /v1/synthesize refuses bad input', () => {
    const refused = (body: unknown) =>
      request(api, 'POST', '/v1/synthesize', { body, apiKey: key, headers: asJson });

    it.each([
      ['empty text', { text: '' }, 'text', /empty/],
      ['a NUL alone', { text: '\u0000' }, 'text', /nothing to speak/],
      ['emoji alone', { text: '😀🎉' }, 'text', /nothing to speak/],
      ['punctuation alone', { text: '!!! ???' }, 'text', /nothing to speak/],
      ['whitespace-only text', { text: ' \n\t  ' }, 'text', /empty/],
      ['no text', { voice: 'en-US-slt-hts' }, 'text', /required/],
      ['text of the wrong type', { text: 42 }, 'text', /string/],
      ['an unknown voice', { text: 'Hi.', voice: 'nobody' }, 'voice', /GET \/v1\/voices/],
      ['a voice of the wrong type', { text: 'Hi.', voice: 7 }, 'voice', undefined],
      [
        'a voice that does not speak the language',
        { text: 'Hallo.', voice: 'en-US-slt-hts', language: 'de' },
        'language',
        /does not speak "de"/,
      ],
      ['a language no voice speaks', { text: 'Hi.', language: 'qq' }, 'language', /GET \/v1\/voices/],
      ['a malformed language', { text: 'Hi.', language: 'english!' }, 'language', /locale such as pt-BR/],
      ['speed below the range', { text: 'Hi.', speed: 0.4 }, 'speed', /0\.5 to 2\.5/],
      ['speed above the range', { text: 'Hi.', speed: 2.6 }, 'speed', /0\.5 to 2\.5/],
      ['speed of the wrong type', { text: 'Hi.', speed: 'fast' }, 'speed', /number/],
      ['an unknown format', { text: 'Hi.', format: 'flac' }, 'format', /mp3, wav, ogg/],
      ['an unknown field', { text: 'Hi.', pitch: 3 }, 'pitch', /accepted: text, voice/],
      // The offline voices of these languages say "Chinese letter" for a kanji, or spell hanzi out.
      [
        'kanji, no voice named',
        { text: '日本銀行は金利を引き上げた。' },
        'text',
        /cannot be read by ja-.*kanji/,
      ],
      [
        'hanzi for the Mandarin voice',
        { text: '中国人民银行宣布降息。', language: 'zh' },
        'text',
        /Mandarin/,
      ],
    ])('%s: 400 naming the field', async (_, body, field, message) => {
      expectInvalid(await refused(body), field, message);
    });

    it('answers malformed JSON with 400 invalid_json and a wrong method with 405', async () => {
      const malformed = await refused('{"text": "Hi.",');
      expect([malformed.status, malformed.body.error.code]).toEqual([400, 'invalid_json']);
      const notJson = await request(api, 'POST', '/v1/synthesize', {
        body: 'Hello.',
        apiKey: key,
        headers: { 'content-type': 'text/plain' },
      });
      expect([notJson.status, notJson.body.error.code]).toEqual([415, 'unsupported_media_type']);
      for (const method of ['GET', 'PUT', 'DELETE']) {
        const wrong = await request(api, method, '/v1/synthesize', { apiKey: key });
        expect([wrong.status, wrong.body.error.code]).toEqual([405, 'method_not_allowed']);
        expect(wrong.headers.get('allow')).toMatch(/POST/);
      }
    });
  });

  describe('POST /api/v1/summarize with voice_enabled', () => {
    const content =
      'The city council approved a new budget on Tuesday after a long debate. The plan raises spending on ' +
      'schools and public transport. Critics said the council had ignored the rising price of housing, and ' +
      'the mayor promised to return to the question in the spring, when the next report on rents is due.';

    it('narrates the summary: a signed mp3 URL, its voice and duration; without it those are null', async () => {
      const voiced = await request<Summary>(api, 'POST', '/api/v1/summarize', {
        body: { content, voice_enabled: true },
        apiKey: key,
      });
      expect(voiced.status, voiced.bytes.toString()).toBe(200);
      expect(voiced.body.summary.length).toBeGreaterThan(20);
      expect(voiced.body.voice).toBe('en-US-slt-hts');
      const file = await fetch(voiced.body.audio_url!);
      expect(file.status).toBe(200);
      expect(file.headers.get('content-type')).toBe('audio/mpeg');
      const audio = await measure(Buffer.from(await file.arrayBuffer()));
      expect(audio).toMatchObject({ container: 'mp3', codec: 'mp3', sampleRate: 32_000 });
      expect(Math.abs(audio.seconds * 1000 - voiced.body.duration_ms!)).toBeLessThan(150);
      const wpm = words(voiced.body.summary) / (audio.seconds / 60);
      expect(wpm).toBeGreaterThan(100);
      expect(wpm).toBeLessThan(220);

      const german = await request<Summary>(api, 'POST', '/api/v1/summarize', {
        body: { content: texts.de, voice_enabled: true },
        apiKey: key,
      });
      expect(german.status, german.bytes.toString()).toBe(200);
      expect(german.body.voice).toBe('de-espeak-m');

      // Too short to detect: Cyrillic tells Russian (the English voice read it as 0.1 s of silence), and
      // `language` names a short Latin-script text's language.
      const russian = await request<Summary>(api, 'POST', '/api/v1/summarize', {
        body: { content: 'Центральный банк повысил ключевую ставку.', voice_enabled: true },
        apiKey: key,
      });
      expect(russian.status, russian.bytes.toString()).toBe(200);
      expect(russian.body.voice).toBe('ru-espeak-m');
      const spoken = await measure(Buffer.from(await (await fetch(russian.body.audio_url!)).arrayBuffer()));
      expect(spoken.seconds).toBeGreaterThan(1);
      expect(spoken.rmsDb).toBeGreaterThan(-40);
      const named = await request<Summary>(api, 'POST', '/api/v1/summarize', {
        body: { content: 'Die Bank hob den Zins.', language: 'de', voice_enabled: true },
        apiKey: key,
      });
      expect([named.status, named.body.voice]).toEqual([200, 'de-espeak-m']);

      // A summary its voice cannot read is refused naming this request's field, `content`, not `text`.
      const kanji = await request<{ error: { code: string; message: string } }>(
        api,
        'POST',
        '/api/v1/summarize',
        {
          body: {
            content: '日本の首相が辞任を表明した。与党は後継者の選出に向けて動き出した。',
            voice_enabled: true,
          },
          apiKey: key,
        },
      );
      expect(kanji.status, kanji.bytes.toString()).toBe(400);
      expect(kanji.body.error.message).toMatch(/^content: its summary cannot be read by ja-espeak-/);
      expect(kanji.body.error.message).toMatch(/send voice_enabled: false for the summary alone$/);

      const silent = await request<Summary>(api, 'POST', '/api/v1/summarize', {
        body: { content },
        apiKey: key,
      });
      expect(silent.status).toBe(200);
      expect(silent.body).toMatchObject({ audio_url: null, voice: null, duration_ms: null });
    });

    it('narrates only for a key with use:audio; without it, the summary alone is still served', async () => {
      const voiced = await request(api, 'POST', '/api/v1/summarize', {
        body: { content, voice_enabled: true },
        apiKey: aiOnly.apiKey,
      });
      expect([voiced.status, voiced.body.error.code]).toEqual([403, 'insufficient_scope']);
      expect(voiced.body.error.message).toMatch(/voice_enabled needs the scope use:audio/);
      // The challenge names the scope, as for a whole endpoint: a client asks for a token with it.
      expect(voiced.headers.get('www-authenticate')).toBe(
        'Bearer realm="news-intelligence", error="insufficient_scope", scope="use:audio"',
      );
      const silent = await request(api, 'POST', '/api/v1/summarize', {
        body: { content },
        apiKey: aiOnly.apiKey,
      });
      expect(silent.status).toBe(200);
    });
  });

  it('counts every speech call against the plan’s hourly calls', async () => {
    const remaining = async (answer: Promise<Answer<unknown>>) => {
      const { status, headers } = await answer;
      expect(status).toBe(200);
      return Number(headers.get('ratelimit-remaining'));
    };
    const a = await remaining(request(api, 'GET', '/v1/voices?language=de', { apiKey: key }));
    const b = await remaining(synthesize({ text: 'Counted.' }));
    const c = await remaining(synthesize({ text: 'Counted.' }, asJson));
    const d = await remaining(request(api, 'GET', '/v1/voices', { apiKey: key }));
    expect([b, c, d]).toEqual([a - 1, a - 2, a - 3]);
  });

  describe('on the OpenAI provider', () => {
    beforeAll(async () => {
      openAi = await startOpenAiSpeechServer();
      openAiApi = await startApiProcess({
        SPEECH_PROVIDER: 'openai',
        OPENAI_API_KEY: 'sk-test-not-the-speech-key',
        OPENAI_SPEECH_API_KEY: openAi.apiKey,
        OPENAI_SPEECH_BASE_URL: openAi.baseUrl,
        OPENAI_SPEECH_MAX_RETRIES: '1',
        OPENAI_SPEECH_TIMEOUT_MS: '2000',
        AUDIO_STORE: 'local',
        AUDIO_DIR: audioDir,
        AUDIO_URL_KEYS: urlKeys,
      });
      await waitFor(
        async () =>
          (await request(openAiApi!, 'GET', '/v1/voices?language=de', { apiKey: key })).status === 200,
        'the OpenAI API to know the test client',
        30_000,
      );
    }, 120_000);

    it('lists the OpenAI voices first, then the embedded ones', async () => {
      const answer = await request<VoiceList>(openAiApi!, 'GET', '/v1/voices', { apiKey: key });
      expect(answer.status).toBe(200);
      const openAiVoices = answer.body.voices.filter((v) => v.provider === 'openai');
      const embedded = answer.body.voices.filter((v) => v.provider === 'embedded');
      expect(openAiVoices.map((v) => v.id)).toContain('en-US-openai-alloy');
      expect(openAiVoices.every((v) => v.quality === 'neural' && v.id.startsWith('en-'))).toBe(true);
      expect(embedded.length).toBeGreaterThan(200);
      expect(answer.body.voices[0]!.provider).toBe('openai');
      expect(answer.body.count).toBe(openAiVoices.length + embedded.length);
      const filtered = await request<VoiceList>(openAiApi!, 'GET', '/v1/voices?provider=openai', {
        apiKey: key,
      });
      expect(filtered.body.voices.map((v) => v.id)).toEqual(openAiVoices.map((v) => v.id));
      console.log(
        `voices with SPEECH_PROVIDER=openai: ${openAiVoices.length} openai + ${embedded.length} embedded`,
      );
    });

    it('speaks through the provider, whose speed range applies', async () => {
      const text = 'Shares rose in early trading.';
      const answer = await request<Synthesized>(openAiApi!, 'POST', '/v1/synthesize', {
        body: { text, voice: 'en-US-openai-alloy', speed: 3, format: 'wav' },
        apiKey: key,
      });
      expect(answer.status, answer.bytes.toString()).toBe(200);
      expect(await probeAudio(answer.bytes)).toMatchObject({ container: 'wav', sampleRate: 24_000 });
      const sent = openAi!.requests.at(-1)!.body!;
      expect(sent).toMatchObject({ input: text, voice: 'alloy', speed: 3 });
      // Beyond the embedded range, inside OpenAI's; a language alone picks the default (OpenAI) provider.
      const german = await request<Synthesized>(openAiApi!, 'POST', '/v1/synthesize', {
        body: { text: 'Guten Morgen.', language: 'de' },
        apiKey: key,
        headers: asJson,
      });
      expect(german.status).toBe(200);
      expect(german.body.voice).toMatch(/-openai-/);
      expectInvalid(
        await request(openAiApi!, 'POST', '/v1/synthesize', {
          body: { text, voice: 'en-US-openai-alloy', speed: 4.5 },
          apiKey: key,
        }),
        'speed',
        /0\.25 to 4/,
      );
    });

    it('answers 503 provider_unavailable, never a 500, when the provider answers no audio or refuses the key', async () => {
      const ask = (text: string) =>
        request(openAiApi!, 'POST', '/v1/synthesize', {
          body: { text, voice: 'en-US-openai-nova' },
          apiKey: key,
        });
      openAi!.plan({ status: 200, body: '<html>Service temporarily moved</html>' });
      const malformed = await ask('A malformed answer.');
      expect([malformed.status, malformed.body.error.code], malformed.bytes.toString()).toEqual([
        503,
        'provider_unavailable',
      ]);
      // Where the provider lives is not the caller's business.
      expect(malformed.body.error.message).not.toMatch(/127\.0\.0\.1/);
      openAi!.plan({ status: 401, body: { error: { message: 'Incorrect API key provided', type: 'x' } } });
      const refused = await ask('A refused key.');
      expect([refused.status, refused.body.error.code], refused.bytes.toString()).toEqual([
        503,
        'provider_unavailable',
      ]);
      expect(refused.body.error.message).not.toMatch(/127\.0\.0\.1|sk-/);
      console.log(`malformed: ${malformed.body.error.message}; refused key: ${refused.body.error.message}`);
    });

    it('answers 503 provider_unavailable with Retry-After when the provider cannot be reached', async () => {
      await openAi!.close();
      const started = Date.now();
      const answer = await request(openAiApi!, 'POST', '/v1/synthesize', {
        body: { text: 'Nobody is there to say this.', voice: 'en-US-openai-alloy' },
        apiKey: key,
      });
      expect([answer.status, answer.body.error.code], answer.bytes.toString()).toEqual([
        503,
        'provider_unavailable',
      ]);
      expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(answer.body.error.message).not.toMatch(/sk-/);
      console.log(`provider down: 503 after ${Date.now() - started} ms`);
      // The embedded voices still speak.
      const embedded = await request(openAiApi!, 'POST', '/v1/synthesize', {
        body: { text: 'Immer noch da.', voice: 'de-espeak-m' },
        apiKey: key,
      });
      expect(embedded.status).toBe(200);
      // and the voice list does not depend on the provider being up
      expect((await request(openAiApi!, 'GET', '/v1/voices', { apiKey: key })).status).toBe(200);
    });
  });
});
