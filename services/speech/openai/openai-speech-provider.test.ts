// The OpenAI speech provider with the real openai client against a local server speaking OpenAI's
// speech protocol (test/support/openai-speech-server.ts): the wire protocol is the provider's boundary.
import { Writable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  openAiErrorBody,
  startOpenAiSpeechServer,
  type OpenAiSpeechServer,
} from '../../../test/support/openai-speech-server.ts';
import { pcmBytes, toneSamples, wavFile } from '../../../test/support/speech-audio.ts';
import { ConfigError, loadConfig } from '../../runtime/config.ts';
import { createLogger } from '../../runtime/logger.ts';
import {
  SpeechConfigurationError,
  SpeechRejectedError,
  SpeechUnavailableError,
  type SpeechProvider,
} from '../provider.ts';
import type { Voice } from '../voice.ts';
import { openAiSpeechEnv } from './config.ts';
import { createOpenAiSpeechProvider } from './openai-speech-provider.ts';
import { refusingUrl } from '../../../test/support/http-test-servers.ts';

const apiKey = 'sk-test-speech-5f2c81d9e0a4';

let server: OpenAiSpeechServer;
let logLines: string[];

beforeEach(async () => {
  server = await startOpenAiSpeechServer({ apiKey });
  logLines = [];
});

afterEach(async () => {
  await server.close();
});

function start(env: Record<string, string> = {}): SpeechProvider {
  const settings = loadConfig(openAiSpeechEnv, {
    OPENAI_BASE_URL: server.baseUrl,
    OPENAI_API_KEY: apiKey,
    OPENAI_SPEECH_TIMEOUT_MS: '2000',
    OPENAI_SPEECH_MAX_RETRIES: '2',
    ...env,
  });
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      logLines.push(chunk.toString('utf8'));
      done();
    },
  });
  return createOpenAiSpeechProvider(settings, { logger: createLogger('speech-test', 'debug', sink) });
}

async function voice(speech: SpeechProvider, name = 'alloy'): Promise<Voice> {
  const found = (await speech.voices()).find((v) => v.engineVoice === name);
  if (!found) throw new Error(`no voice ${name}`);
  return found;
}

const speechRequests = () => server.requests.filter((r) => r.path === '/v1/audio/speech');

describe('OpenAI voices', () => {
  it('offers the 13 built-in voices of gpt-4o-mini-tts, the 9 of tts-1, each neural and multilingual', async () => {
    const mini = await start().voices();
    expect(mini.map((v) => v.engineVoice).sort()).toEqual([
      'alloy',
      'ash',
      'ballad',
      'cedar',
      'coral',
      'echo',
      'fable',
      'marin',
      'nova',
      'onyx',
      'sage',
      'shimmer',
      'verse',
    ]);
    const classic = await start({ OPENAI_SPEECH_MODEL: 'tts-1' }).voices();
    expect(classic.map((v) => v.engineVoice).sort()).toEqual([
      'alloy',
      'ash',
      'coral',
      'echo',
      'fable',
      'nova',
      'onyx',
      'sage',
      'shimmer',
    ]);
    for (const v of mini) {
      expect(v).toMatchObject({ provider: 'openai', quality: 'neural', sampleRateHz: 24_000 });
      expect(v.id).toBe(`${v.languageCodes[0]}-openai-${v.engineVoice}`);
      expect(v.languageCodes).toEqual(expect.arrayContaining(['pt', 'de', 'zh', 'ja', 'cy', 'nb']));
    }
    const alloy = mini.find((v) => v.engineVoice === 'alloy')!;
    expect(alloy.languageCodes[0]).toBe('en-US');
    // 57 languages (Norwegian under two tags), English as the one locale.
    expect(alloy.languageCodes).toHaveLength(58);
    expect(mini.find((v) => v.engineVoice === 'fable')?.id).toBe('en-GB-openai-fable');
    expect(speechRequests()).toHaveLength(0);
  });
});

describe('OpenAI synthesis', () => {
  it('returns the PCM the server sent and asks with model, voice, speed, input, format and the Bearer key', async () => {
    const speech = start({ OPENAI_SPEECH_MODEL: 'tts-1-hd' });
    const samples = toneSamples(24_000, 300, 330);
    server.plan({
      body: wavFile(pcmBytes(samples), { sampleRate: 24_000 }),
      headers: { 'content-type': 'audio/wav' },
    });
    const text = 'Markup like <b>this</b> & "quotes" is read as text.';
    const pcm = await speech.synthesize({ text, voice: await voice(speech, 'nova'), speed: 1.25 });
    expect(pcm.sampleRate).toBe(24_000);
    expect(Array.from(pcm.samples)).toEqual(Array.from(samples));
    const [request] = speechRequests();
    expect(request?.headers.authorization).toBe(`Bearer ${apiKey}`);
    expect(request?.body).toEqual({
      model: 'tts-1-hd',
      voice: 'nova',
      input: text,
      response_format: 'wav',
      speed: 1.25,
    });
  });

  it('reads a streamed WAV whose header does not know its length, and speaks faster at speed 2', async () => {
    await server.close();
    server = await startOpenAiSpeechServer({ apiKey, streamedWav: true });
    const speech = start();
    const text = 'The harbour city opened its first tidal power station today.';
    const normal = await speech.synthesize({ text, voice: await voice(speech), speed: 1 });
    const fast = await speech.synthesize({ text, voice: await voice(speech), speed: 2 });
    expect(normal.samples.length).toBeGreaterThan(24_000);
    expect(fast.samples.length / normal.samples.length).toBeCloseTo(0.5, 2);
  });

  it('retries a 429 (honouring Retry-After) and then succeeds', async () => {
    const speech = start();
    server.plan({
      status: 429,
      headers: { 'retry-after-ms': '20' },
      body: openAiErrorBody('Rate limit reached for requests', 'requests', 'rate_limit_exceeded'),
    });
    const pcm = await speech.synthesize({ text: 'Second time lucky.', voice: await voice(speech), speed: 1 });
    expect(pcm.samples.length).toBeGreaterThan(0);
    expect(speechRequests()).toHaveLength(2);
  });

  it('gives up on 5xx after its retries as unavailable', async () => {
    const speech = start({ OPENAI_SPEECH_MAX_RETRIES: '1' });
    const busy = { status: 503, headers: { 'retry-after-ms': '10' } };
    server.plan(busy, busy);
    await expect(
      speech.synthesize({ text: 'Hello.', voice: await voice(speech), speed: 1 }),
    ).rejects.toBeInstanceOf(SpeechUnavailableError);
    expect(speechRequests()).toHaveLength(2);
  });

  it.each([
    ['a JSON error body with status 200', { body: openAiErrorBody('model overloaded', 'server_error') }],
    [
      'an HTML page',
      { body: '<!doctype html><html><body>Gateway</body></html>', headers: { 'content-type': 'text/html' } },
    ],
    ['zero bytes', { body: Buffer.alloc(0), headers: { 'content-type': 'audio/wav' } }],
    [
      'an odd byte count',
      {
        body: wavFile(Buffer.alloc(4_801, 3), { sampleRate: 24_000 }),
        headers: { 'content-type': 'audio/wav' },
      },
    ],
    [
      'headerless PCM',
      { body: pcmBytes(toneSamples(24_000, 100)), headers: { 'content-type': 'audio/pcm' } },
    ],
    [
      'JSON labelled as audio',
      { body: Buffer.from('{"error":{"message":"no"}}'), headers: { 'content-type': 'audio/wav' } },
    ],
    [
      'a WAV cut short of its announced length',
      { body: wavFile(Buffer.alloc(4_800, 3), { sampleRate: 24_000, declaredDataSize: 48_000 }) },
    ],
  ])('refuses %s as SpeechRejectedError, without retrying', async (_case, reply) => {
    const speech = start();
    server.plan(reply);
    await expect(
      speech.synthesize({ text: 'Hello.', voice: await voice(speech), speed: 1 }),
    ).rejects.toBeInstanceOf(SpeechRejectedError);
    expect(speechRequests()).toHaveLength(1);
  });

  it('refuses what the server refuses (400) without retrying', async () => {
    const speech = start();
    server.plan({
      status: 400,
      body: openAiErrorBody('Invalid input', 'invalid_request_error', null, 'input'),
    });
    await expect(
      speech.synthesize({ text: 'Hello.', voice: await voice(speech), speed: 1 }),
    ).rejects.toBeInstanceOf(SpeechRejectedError);
    expect(speechRequests()).toHaveLength(1);
  });

  it('answers SpeechUnavailableError quickly when nothing listens at the base URL', async () => {
    const speech = start({ OPENAI_BASE_URL: await refusingUrl('/v1'), OPENAI_SPEECH_MAX_RETRIES: '1' });
    const started = Date.now();
    const failure = await speech
      .synthesize({ text: 'Hello.', voice: await voice(speech), speed: 1 })
      .catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(SpeechUnavailableError);
    expect((failure as Error).message).toMatch(/could not reach/);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('bounds an answer that never comes by the timeout, retried, then unavailable', async () => {
    const speech = start({ OPENAI_SPEECH_TIMEOUT_MS: '200', OPENAI_SPEECH_MAX_RETRIES: '1' });
    server.plan({ delayMs: 5_000 }, { delayMs: 5_000 });
    const started = Date.now();
    const failure = await speech
      .synthesize({ text: 'Anyone?', voice: await voice(speech), speed: 1 })
      .catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(SpeechUnavailableError);
    expect((failure as Error).message).toMatch(/no answer within 200 ms/);
    expect(speechRequests()).toHaveLength(2);
    expect(Date.now() - started).toBeLessThan(4_000);
  });

  it('never sends a text over 4,096 characters, counted as characters, not bytes', async () => {
    // The one request counted below must not time out and be retried on a busy machine (CI, 2026-12-04).
    const speech = start({ OPENAI_SPEECH_TIMEOUT_MS: '30000' });
    const alloy = await voice(speech);
    const over = 'é'.repeat(4_097);
    const failure = await speech.synthesize({ text: over, voice: alloy, speed: 1 }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(SpeechRejectedError);
    expect((failure as Error).message).toMatch(/4097 characters.*4096/);
    expect(speechRequests()).toHaveLength(0);
    await speech.synthesize({ text: '😀'.repeat(4_096), voice: alloy, speed: 1 });
    expect(speechRequests()).toHaveLength(1);
  });

  it.each([
    ['a blank text', ' \t ', 1],
    ['a speed over 4.0', 'Hello.', 4.5],
    ['a speed under 0.25', 'Hello.', 0.1],
  ])('never sends %s', async (_case, text, speed) => {
    const speech = start();
    await expect(speech.synthesize({ text, voice: await voice(speech), speed })).rejects.toBeInstanceOf(
      SpeechRejectedError,
    );
    expect(speechRequests()).toHaveLength(0);
  });
});

describe('OpenAI credentials', () => {
  it('reports a refused key (401) as a configuration error naming the settings, without retrying', async () => {
    const speech = start({ OPENAI_API_KEY: 'sk-wrong-1234567890abcdef' });
    const failure = await speech
      .synthesize({ text: 'Hello.', voice: await voice(speech), speed: 1 })
      .catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(SpeechConfigurationError);
    expect(failure).not.toBeInstanceOf(SpeechUnavailableError);
    expect((failure as Error).message).toMatch(
      /refused the API key \(401 invalid_api_key\).*OPENAI_SPEECH_API_KEY or OPENAI_API_KEY/,
    );
    expect(speechRequests()).toHaveLength(1);
  });

  it.each([
    ['403', { status: 403, body: openAiErrorBody('Project does not have access', 'invalid_request_error') }],
    [
      '404 (an unknown model)',
      {
        status: 404,
        body: openAiErrorBody('The model `x` does not exist', 'invalid_request_error', 'model_not_found'),
      },
    ],
    [
      '429 insufficient_quota',
      {
        status: 429,
        headers: { 'retry-after-ms': '5' },
        body: openAiErrorBody('You exceeded your current quota', 'insufficient_quota', 'insufficient_quota'),
      },
    ],
  ])('reports %s as a configuration error', async (_case, reply) => {
    const speech = start({ OPENAI_SPEECH_MAX_RETRIES: '0' });
    server.plan(reply);
    await expect(
      speech.synthesize({ text: 'Hello.', voice: await voice(speech), speed: 1 }),
    ).rejects.toBeInstanceOf(SpeechConfigurationError);
  });

  it('prefers the speech-specific base URL and key over the shared account ones', async () => {
    const speech = start({
      OPENAI_BASE_URL: 'http://127.0.0.1:9/v1',
      OPENAI_API_KEY: 'sk-chat-only',
      OPENAI_SPEECH_BASE_URL: server.baseUrl,
      OPENAI_SPEECH_API_KEY: apiKey,
    });
    await speech.synthesize({ text: 'Hello.', voice: await voice(speech), speed: 1 });
    expect(speechRequests()[0]?.headers.authorization).toBe(`Bearer ${apiKey}`);
  });

  it('will not start without a key, naming both settings', () => {
    const settings = loadConfig(openAiSpeechEnv, { OPENAI_BASE_URL: server.baseUrl });
    expect(() => createOpenAiSpeechProvider(settings)).toThrow(ConfigError);
    expect(() => createOpenAiSpeechProvider(settings)).toThrow(/OPENAI_SPEECH_API_KEY or OPENAI_API_KEY/);
  });

  it('keeps the key out of every log line and error message', async () => {
    const wrong = 'sk-wrong-key-a1b2c3d4e5f6g7h8';
    const failures: unknown[] = [];
    const refused = start({ OPENAI_API_KEY: wrong });
    failures.push(
      await refused.synthesize({ text: 'a', voice: await voice(refused), speed: 1 }).catch((e: unknown) => e),
    );
    const speech = start();
    // A server that quotes the key back in an error it sends for a bad request.
    server.plan({
      status: 400,
      body: openAiErrorBody(`bad request from ${apiKey}`, 'invalid_request_error'),
    });
    failures.push(
      await speech.synthesize({ text: 'b', voice: await voice(speech), speed: 1 }).catch((e: unknown) => e),
    );
    server.plan({ status: 500 }, { status: 500 }, { status: 500 });
    failures.push(
      await speech.synthesize({ text: 'c', voice: await voice(speech), speed: 1 }).catch((e: unknown) => e),
    );
    expect(failures.every((f) => f instanceof Error)).toBe(true);
    expect(logLines.length).toBeGreaterThan(0);
    const shown = [...logLines, ...failures.map((f) => `${String(f)} ${JSON.stringify(f)}`)];
    for (const secret of [apiKey, wrong, wrong.slice(-4) + '.', 'a1b2c3d4']) {
      expect(shown.filter((line) => line.includes(secret))).toEqual([]);
    }
  });
});
