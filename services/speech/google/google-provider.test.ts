// The Google provider with its real client against a local gRPC server built from the client package's
// own protos (test/support/google-tts-server.ts): the wire protocol is the provider's boundary.
import { generateKeyPairSync } from 'node:crypto';
import { Writable } from 'node:stream';
import { grpc } from 'google-gax';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  startGoogleTtsServer,
  type GoogleTtsServer,
  type SynthesizeRequest,
} from '../../../test/support/google-tts-server.ts';
import { pcmBytes, toneSamples, wavFile } from '../../../test/support/speech-audio.ts';
import { loadConfig } from '../../runtime/config.ts';
import { createLogger } from '../../runtime/logger.ts';
import {
  SpeechConfigurationError,
  SpeechRejectedError,
  SpeechUnavailableError,
  type SpeechProvider,
} from '../provider.ts';
import type { Voice } from '../voice.ts';
import { googleSpeechEnv } from './config.ts';
import { createGoogleProvider } from './google-provider.ts';
import { refusingUrl } from '../../../test/support/http-test-servers.ts';

// The client must never look for a cloud metadata server from a test machine.
process.env.METADATA_SERVER_DETECTION = 'none';

let privateKey: string;
beforeAll(() => {
  privateKey = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({
    type: 'pkcs8',
    format: 'pem',
  }) as string;
});

const serviceAccountKey = () =>
  JSON.stringify({
    type: 'service_account',
    project_id: 'news-test',
    private_key_id: 'k1',
    private_key: privateKey,
    client_email: 'speech@news-test.iam.gserviceaccount.com',
  });

let server: GoogleTtsServer;
let provider: SpeechProvider | undefined;
let logLines: string[];

beforeEach(async () => {
  server = await startGoogleTtsServer();
  logLines = [];
});

afterEach(async () => {
  await provider?.close?.();
  provider = undefined;
  await server.close();
});

function start(env: Record<string, string> = {}, clock?: () => number): SpeechProvider {
  const config = loadConfig(googleSpeechEnv, {
    GOOGLE_TTS_ENDPOINT: server.endpoint,
    GOOGLE_TTS_SERVICE_ACCOUNT_KEY: serviceAccountKey(),
    GOOGLE_TTS_TIMEOUT_MS: '2000',
    GOOGLE_TTS_MAX_RETRIES: '3',
    ...env,
  });
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      logLines.push(chunk.toString('utf8'));
      done();
    },
  });
  provider = createGoogleProvider(config, {
    logger: createLogger('speech-test', 'debug', sink),
    backoff: { initialBackoffMs: 5, maxBackoffMs: 20 },
    ...(clock ? { clock } : {}),
  });
  return provider;
}

async function voiceNamed(speech: SpeechProvider, name: string): Promise<Voice> {
  const voice = (await speech.voices()).find((v) => v.engineVoice === name);
  if (!voice) throw new Error(`no voice ${name}`);
  return voice;
}

const synthesizeRequests = () =>
  server.callsOf('SynthesizeSpeech').map((c) => c.request as SynthesizeRequest);

describe('Google voices', () => {
  it('lists every voice of listVoices, mapped: locale-prefixed id, languages, gender, quality, rate', async () => {
    const voices = await start().voices();
    expect(voices).toHaveLength(server.voices.length);
    expect(voices.every((v) => v.provider === 'google')).toBe(true);
    const byId = new Map(voices.map((v) => [v.id, v]));
    expect(byId.get('en-US-Neural2-F')).toEqual({
      id: 'en-US-Neural2-F',
      name: 'Neural2 F (American English)',
      languageCodes: ['en-US'],
      gender: 'female',
      provider: 'google',
      quality: 'neural',
      sampleRateHz: 24_000,
      engineVoice: 'en-US-Neural2-F',
    });
    expect(byId.get('en-US-Standard-B')).toMatchObject({ quality: 'standard', gender: 'male' });
    expect(byId.get('en-US-Chirp3-HD-Achernar')).toMatchObject({
      quality: 'neural',
      name: 'Chirp3-HD Achernar (American English)',
    });
    expect(byId.get('cmn-CN-Wavenet-B')).toMatchObject({ quality: 'neural', languageCodes: ['cmn-CN'] });
    expect(byId.get('en-US-Casual-K')?.gender).toBe('neutral');
    expect(byId.get('fr-FR-Neural2-A')).toMatchObject({ gender: 'neutral', sampleRateHz: 22_050 });
  });

  it('asks once per TTL, and once for concurrent callers', async () => {
    let now = 1_000_000;
    const speech = start({ GOOGLE_TTS_VOICES_TTL_SECONDS: '60' }, () => now);
    await Promise.all([speech.voices(), speech.voices(), speech.voices()]);
    now += 59_000;
    await speech.voices();
    expect(server.callsOf('ListVoices')).toHaveLength(1);
    now += 2_000;
    await speech.voices();
    expect(server.callsOf('ListVoices')).toHaveLength(2);
  });

  it('serves the last list when a refresh finds the service down', async () => {
    let now = 0;
    const speech = start({ GOOGLE_TTS_VOICES_TTL_SECONDS: '1', GOOGLE_TTS_MAX_RETRIES: '1' }, () => now);
    const first = await speech.voices();
    now += 5_000;
    const down = { error: { code: grpc.status.UNAVAILABLE, details: 'backend down' } };
    server.plan('ListVoices', down, down);
    expect(await speech.voices()).toEqual(first);
    expect(server.callsOf('ListVoices')).toHaveLength(3);
  });
});

describe('Google synthesis', () => {
  it('returns the PCM the server sent, from a LINEAR16 answer with its WAV header', async () => {
    const speech = start();
    const voice = await voiceNamed(speech, 'en-US-Neural2-F');
    const samples = toneSamples(24_000, 250, 440);
    server.plan('SynthesizeSpeech', { audioContent: wavFile(pcmBytes(samples), { sampleRate: 24_000 }) });
    const pcm = await speech.synthesize({ text: 'Hello there.', voice, speed: 1 });
    expect(pcm.sampleRate).toBe(24_000);
    expect(Array.from(pcm.samples)).toEqual(Array.from(samples));
  });

  it('sends the text as plain text (markup is read, not interpreted), the voice, LINEAR16 and the rate', async () => {
    const speech = start();
    const voice = await voiceNamed(speech, 'en-GB-Wavenet-A');
    const text = '<speak>Prices <break time="3s"/> rose & fell</speak>';
    await speech.synthesize({ text, voice, speed: 1.5 });
    const [request] = synthesizeRequests();
    expect(request?.input).toMatchObject({ text, inputSource: 'text' });
    expect(request?.input?.ssml).toBeUndefined();
    expect(request?.voice).toMatchObject({ name: 'en-GB-Wavenet-A', languageCode: 'en-GB' });
    expect(request?.audioConfig).toMatchObject({ audioEncoding: 'LINEAR16', speakingRate: 1.5 });
  });

  it('retries RESOURCE_EXHAUSTED and then succeeds', async () => {
    const speech = start();
    const voice = await voiceNamed(speech, 'en-US-Neural2-F');
    const quota = { error: { code: grpc.status.RESOURCE_EXHAUSTED, details: 'Quota exceeded' } };
    server.plan('SynthesizeSpeech', quota, quota);
    const pcm = await speech.synthesize({ text: 'Third time lucky.', voice, speed: 1 });
    expect(pcm.samples.length).toBeGreaterThan(0);
    expect(synthesizeRequests()).toHaveLength(3);
  });

  it('gives up on RESOURCE_EXHAUSTED after its retries as unavailable, not as a refusal of the text', async () => {
    const speech = start({ GOOGLE_TTS_MAX_RETRIES: '2' });
    const voice = await voiceNamed(speech, 'en-US-Neural2-F');
    const quota = { error: { code: grpc.status.RESOURCE_EXHAUSTED, details: 'Quota exceeded' } };
    server.plan('SynthesizeSpeech', quota, quota, quota, quota);
    await expect(speech.synthesize({ text: 'Busy.', voice, speed: 1 })).rejects.toBeInstanceOf(
      SpeechUnavailableError,
    );
    expect(synthesizeRequests()).toHaveLength(3);
  });

  it.each([
    ['an empty answer', Buffer.alloc(0)],
    [
      'MP3 instead of LINEAR16',
      Buffer.concat([Buffer.from('ID3\x04\x00\x00', 'latin1'), Buffer.alloc(64, 1)]),
    ],
    ['a JSON error body', Buffer.from('{"error":{"code":500,"message":"oops"}}')],
    [
      'mu-law in a WAV header',
      wavFile(Buffer.alloc(100, 0x7f), { sampleRate: 8_000, bitsPerSample: 8, formatTag: 7 }),
    ],
    ['a WAV cut mid-sample', wavFile(Buffer.alloc(101, 1), { sampleRate: 24_000 })],
    ['a WAV header without samples', wavFile(Buffer.alloc(0), { sampleRate: 24_000 })],
  ])('refuses %s as SpeechRejectedError, without retrying', async (_case, audioContent) => {
    const speech = start();
    const voice = await voiceNamed(speech, 'en-US-Neural2-F');
    server.plan('SynthesizeSpeech', { audioContent });
    await expect(speech.synthesize({ text: 'Hello.', voice, speed: 1 })).rejects.toBeInstanceOf(
      SpeechRejectedError,
    );
    expect(synthesizeRequests()).toHaveLength(1);
  });

  it('refuses what Google refuses (INVALID_ARGUMENT) without retrying', async () => {
    const speech = start();
    const voice = await voiceNamed(speech, 'en-US-Neural2-F');
    server.voices = server.voices.filter((v) => v.name !== 'en-US-Neural2-F');
    const failure = await speech.synthesize({ text: 'Hello.', voice, speed: 1 }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(SpeechRejectedError);
    expect((failure as Error).message).toMatch(/INVALID_ARGUMENT.*does not exist/);
    expect(synthesizeRequests()).toHaveLength(1);
  });

  it.each([
    ['UNAUTHENTICATED', grpc.status.UNAUTHENTICATED],
    ['PERMISSION_DENIED', grpc.status.PERMISSION_DENIED],
  ])('reports %s as a configuration error naming the settings, without retrying', async (_name, code) => {
    const speech = start();
    const voice = await voiceNamed(speech, 'en-US-Neural2-F');
    server.plan('SynthesizeSpeech', { error: { code, details: 'Request had invalid credentials.' } });
    const failure = await speech.synthesize({ text: 'Hello.', voice, speed: 1 }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(SpeechConfigurationError);
    expect(failure).not.toBeInstanceOf(SpeechUnavailableError);
    expect(failure).not.toBeInstanceOf(SpeechRejectedError);
    expect((failure as Error).message).toContain('GOOGLE_TTS_KEY_FILE or GOOGLE_TTS_SERVICE_ACCOUNT_KEY');
    expect(synthesizeRequests()).toHaveLength(1);
  });

  it('never sends a text over 5,000 bytes, however few characters it has', async () => {
    const speech = start();
    const voice = await voiceNamed(speech, 'fr-FR-Neural2-A');
    const text = 'é'.repeat(2_501); // 2,501 characters, 5,002 bytes
    const failure = await speech.synthesize({ text, voice, speed: 1 }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(SpeechRejectedError);
    expect((failure as Error).message).toMatch(/5002 bytes.*5000/);
    expect(synthesizeRequests()).toHaveLength(0);
    await speech.synthesize({ text: 'é'.repeat(2_500), voice, speed: 1 });
    expect(synthesizeRequests()).toHaveLength(1);
  });

  it.each([
    ['a blank text', '  \n ', 1],
    ['a speed over 2.0', 'Hello.', 2.5],
    ['a speed under 0.25', 'Hello.', 0.2],
  ])('never sends %s', async (_case, text, speed) => {
    const speech = start();
    const voice = await voiceNamed(speech, 'en-US-Neural2-F');
    await expect(speech.synthesize({ text, voice, speed })).rejects.toBeInstanceOf(SpeechRejectedError);
    expect(synthesizeRequests()).toHaveLength(0);
  });

  it('speaks at the asked rate: speed 2.0 answers half as many samples', async () => {
    const speech = start();
    const voice = await voiceNamed(speech, 'en-US-Neural2-F');
    const text = 'The harbour city opened its first tidal power station today.';
    const normal = await speech.synthesize({ text, voice, speed: 1 });
    const fast = await speech.synthesize({ text, voice, speed: 2 });
    expect(fast.samples.length / normal.samples.length).toBeCloseTo(0.5, 2);
  });
});

describe('Google provider unreachable or stuck', () => {
  it('answers SpeechUnavailableError quickly when nothing listens at the endpoint', async () => {
    const config = loadConfig(googleSpeechEnv, {
      GOOGLE_TTS_ENDPOINT: await refusingUrl(),
      GOOGLE_TTS_SERVICE_ACCOUNT_KEY: serviceAccountKey(),
      GOOGLE_TTS_MAX_RETRIES: '2',
    });
    provider = createGoogleProvider(config, { backoff: { initialBackoffMs: 5, maxBackoffMs: 20 } });
    const started = Date.now();
    await expect(provider.voices()).rejects.toBeInstanceOf(SpeechUnavailableError);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('bounds a call the server never answers by the deadline, retried, then unavailable', async () => {
    const speech = start({ GOOGLE_TTS_TIMEOUT_MS: '200', GOOGLE_TTS_MAX_RETRIES: '1' });
    const voice = await voiceNamed(speech, 'en-US-Neural2-F');
    server.plan('SynthesizeSpeech', { hang: true }, { hang: true });
    const started = Date.now();
    const failure = await speech.synthesize({ text: 'Anyone?', voice, speed: 1 }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(SpeechUnavailableError);
    expect((failure as Error).message).toMatch(/DEADLINE_EXCEEDED/);
    expect(synthesizeRequests()).toHaveLength(2);
    expect(Date.now() - started).toBeLessThan(3_000);
  });
});

describe('Google credentials', () => {
  it('keeps the private key out of logs and error messages', async () => {
    const speech = start();
    const voice = await voiceNamed(speech, 'en-US-Neural2-F');
    server.plan(
      'SynthesizeSpeech',
      { error: { code: grpc.status.UNAUTHENTICATED, details: 'no' } },
      { error: { code: grpc.status.INVALID_ARGUMENT, details: 'no' } },
    );
    const failures = [
      await speech.synthesize({ text: 'a', voice, speed: 1 }).catch((e: unknown) => e),
      await speech.synthesize({ text: 'b', voice, speed: 1 }).catch((e: unknown) => e),
    ];
    const keyBody = privateKey.split('\n')[1]!;
    expect(logLines.length).toBeGreaterThan(0);
    for (const shown of [...logLines, ...failures.map((f) => String(f))])
      expect(shown).not.toContain(keyBody);
  });
});
