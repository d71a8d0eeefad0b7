// GET/HEAD /v1/audio/{key} on the real API process: a file put in the store (a local directory, and an
// S3 bucket on a real S3-compatible server) is fetched by its signed URL without an API key, plays
// (ffprobe decodes the downloaded bytes), honours ranges as players use them, and a tampered or expired
// URL is refused.
import { execFile, execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { audioKey } from '../../services/audio/audio-key.ts';
import type { AudioStore } from '../../services/audio/audio-store.ts';
import { LocalAudioStore } from '../../services/audio/local-store.ts';
import { S3AudioStore } from '../../services/audio/s3-store.ts';
import { parseAudioUrlKeys, signAudioUrl } from '../../services/audio/signed-url.ts';
import { startS3Server } from '../support/s3-server.ts';
import { startApiProcess, type ApiProcess } from './support/api-process.ts';

const run = promisify(execFile);
const urlKeys = `it1:${Buffer.alloc(32, 11).toString('base64url')}`;
const keys = parseAudioUrlKeys(urlKeys);

/** One second of a 440 Hz tone as mp3, made by ffmpeg. */
const tone = (): Buffer =>
  execFileSync(
    'ffmpeg',
    [
      ...['-hide_banner', '-loglevel', 'error', '-f', 'lavfi', '-i', 'sine=frequency=440:duration=1'],
      ...['-c:a', 'libmp3lame', '-b:a', '64k', '-f', 'mp3', 'pipe:1'],
    ],
    { maxBuffer: 10 * 1_048_576 },
  );

interface Probe {
  streams: { codec_name: string; sample_rate: string; channels: number }[];
  format: { format_name: string; duration: string };
}

async function probe(bytes: Buffer, directory: string): Promise<Probe> {
  const file = path.join(directory, `probe-${Date.now()}.mp3`);
  await writeFile(file, bytes);
  const { stdout } = await run('ffprobe', [
    ...['-v', 'error', '-of', 'json'],
    ...['-show_entries', 'stream=codec_name,sample_rate,channels:format=format_name,duration', file],
  ]);
  // Decoding every frame is what a player does; any error is printed.
  const decoded = await run('ffmpeg', ['-v', 'error', '-i', file, '-f', 'null', '-']);
  expect(decoded.stderr).toBe('');
  return JSON.parse(stdout) as Probe;
}

async function curlHead(url: string): Promise<{ status: number; headers: Map<string, string> }> {
  const { stdout } = await run('curl', ['-sS', '-I', '--max-time', '10', url]);
  const [statusLine, ...lines] = stdout.trim().split(/\r?\n/);
  const headers = new Map(
    lines.map((line) => {
      const colon = line.indexOf(':');
      return [line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim()] as const;
    }),
  );
  return { status: Number(statusLine!.split(' ')[1]), headers };
}

const setups: [
  string,
  (
    directory: string,
  ) => Promise<{ store: AudioStore; env: Record<string, string>; close: () => Promise<void> }>,
][] = [
  [
    'a local directory',
    async (directory) => {
      const audioDir = path.join(directory, 'audio');
      return {
        store: new LocalAudioStore(audioDir),
        env: { AUDIO_STORE: 'local', AUDIO_DIR: audioDir },
        close: async () => undefined,
      };
    },
  ],
  [
    'an S3 bucket',
    async () => {
      const server = await startS3Server(['narrations']);
      return {
        store: new S3AudioStore(server.client(), { bucket: 'narrations', prefix: 'audio/' }),
        env: {
          AUDIO_STORE: 's3',
          AUDIO_S3_BUCKET: 'narrations',
          AUDIO_S3_PREFIX: 'audio/',
          AUDIO_S3_ENDPOINT: server.endpoint,
          AUDIO_S3_FORCE_PATH_STYLE: 'true',
          AUDIO_S3_ACCESS_KEY_ID: server.credentials.accessKeyId,
          AUDIO_S3_SECRET_ACCESS_KEY: server.credentials.secretAccessKey,
        },
        close: () => server.close(),
      };
    },
  ],
];

describe.each(setups)('audio files served by the API from %s', (_, setup) => {
  let directory: string;
  let api: ApiProcess;
  let close: () => Promise<void>;
  const mp3 = tone();
  const key = audioKey('mp3', ['integration', 'tone-440', Date.now()]);
  const signed = (k: string, at = new Date()) =>
    signAudioUrl(k, at, { baseUrl: api.url, keys, ttlSeconds: 86_400 });

  beforeAll(async () => {
    directory = await mkdtemp(path.join(tmpdir(), 'audio-files-'));
    const made = await setup(directory);
    close = made.close;
    await made.store.put(key, mp3, { contentType: 'audio/mpeg', durationMs: 1_000 });
    api = await startApiProcess({ ...made.env, AUDIO_URL_KEYS: urlKeys });
  }, 120_000);

  afterAll(async () => {
    await api?.stop();
    await close?.();
    await rm(directory, { recursive: true, force: true });
  });

  it('serves the file by its signed URL without an API key, and what it serves plays', async () => {
    const response = await fetch(signed(key));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('audio/mpeg');
    expect(response.headers.get('content-length')).toBe(String(mp3.length));
    // Cached no longer than the URL is valid (a day, give or take the rounding of its expiry).
    const maxAge = Number(
      /^public, max-age=(\d+), immutable$/.exec(response.headers.get('cache-control') ?? '')?.[1],
    );
    const left = Number(new URL(signed(key)).searchParams.get('expires')) - Date.now() / 1000;
    expect(Math.abs(maxAge - left)).toBeLessThan(60);
    const body = Buffer.from(await response.arrayBuffer());
    expect(body.equals(mp3)).toBe(true);
    const { streams, format } = await probe(body, directory);
    expect(format.format_name).toBe('mp3');
    expect(streams).toEqual([{ codec_name: 'mp3', sample_rate: '44100', channels: 1 }]);
    expect(Number(format.duration)).toBeGreaterThan(0.95);
    expect(Number(format.duration)).toBeLessThan(1.1);
  });

  it('answers a Range with 206 and exactly those bytes, and a bad one with 416', async () => {
    const part = await fetch(signed(key), { headers: { range: 'bytes=100-1099' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 100-1099/${mp3.length}`);
    expect(Buffer.from(await part.arrayBuffer()).equals(mp3.subarray(100, 1_100))).toBe(true);
    // what a browser's <audio> element sends first, and a seek to the end
    const open = await fetch(signed(key), { headers: { range: 'bytes=0-' } });
    expect(open.status).toBe(206);
    expect(Buffer.from(await open.arrayBuffer()).equals(mp3)).toBe(true);
    const suffix = await fetch(signed(key), { headers: { range: 'bytes=-500' } });
    expect(Buffer.from(await suffix.arrayBuffer()).equals(mp3.subarray(mp3.length - 500))).toBe(true);

    const bad = await fetch(signed(key), { headers: { range: `bytes=${mp3.length}-` } });
    expect(bad.status).toBe(416);
    expect(bad.headers.get('content-range')).toBe(`bytes */${mp3.length}`);
    expect(((await bad.json()) as { error: { code: string } }).error.code).toBe('range_not_satisfiable');
  });

  it('answers HEAD as curl -I sees it: the headers of the file, no body', async () => {
    const { status, headers } = await curlHead(signed(key));
    expect(status).toBe(200);
    expect(headers.get('content-type')).toBe('audio/mpeg');
    expect(headers.get('content-length')).toBe(String(mp3.length));
    expect(headers.get('accept-ranges')).toBe('bytes');
    expect(headers.get('etag')).toBe(`"${key}"`);
  });

  it('refuses a tampered or an expired URL with 403, and answers 404 for a signed key not stored', async () => {
    const errorCode = async (url: string) => {
      const response = await fetch(url);
      return [response.status, ((await response.json()) as { error: { code: string } }).error.code];
    };
    const url = new URL(signed(key));
    const stretched = new URL(url);
    stretched.searchParams.set('expires', String(Number(url.searchParams.get('expires')) + 86_400));
    expect(await errorCode(stretched.href)).toEqual([403, 'forbidden']);
    const otherKey = audioKey('mp3', ['integration', 'not stored', Date.now()]);
    expect(await errorCode(url.href.replace(key, otherKey))).toEqual([403, 'forbidden']);
    expect(await errorCode(`${api.url}/v1/audio/${key}`)).toEqual([403, 'forbidden']);
    const twoDaysAgo = new Date(Date.now() - 2 * 86_400_000);
    expect(await errorCode(signed(key, twoDaysAgo))).toEqual([403, 'url_expired']);
    expect(await errorCode(signed(otherKey))).toEqual([404, 'not_found']);
  });
});
