import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Registry } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startS3Server } from '../../../test/support/s3-server.ts';
import { freshKey } from '../../../test/support/audio-store-contract.ts';
import type { AudioStore } from '../../audio/audio-store.ts';
import { LocalAudioStore } from '../../audio/local-store.ts';
import { S3AudioStore } from '../../audio/s3-store.ts';
import { audioKey } from '../../audio/audio-key.ts';
import { parseAudioUrlKeys, signAudioUrl } from '../../audio/signed-url.ts';
import { ApiError } from '../../runtime/api-error.ts';
import { createLogger } from '../../runtime/logger.ts';
import { createApp } from '../app.ts';
import { audioRoutes } from './audio-route.ts';

const keys = parseAudioUrlKeys(`k1:${Buffer.alloc(32, 5).toString('base64url')}`);
const signedAt = new Date('2030-06-01T10:00:00Z');
const hour = 3_600_000;

async function serve(store: AudioStore, now: () => Date) {
  const app = createApp({
    routes: [],
    publicRoutes: (router) => audioRoutes(router, { store, keys, now }),
    authenticate: () => Promise.reject(new ApiError('unauthorized', 'no')),
    limits: { maxBodyBytes: 1024, maxJsonDepth: 32 },
    logger: createLogger('audio-route-test', 'silent'),
    metrics: new Registry(),
  });
  const server: Server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { base, close: () => new Promise((resolve) => server.close(resolve)) };
}

const stores: [string, () => Promise<{ store: AudioStore; close: () => Promise<unknown> }>][] = [
  [
    'a local directory',
    async () => {
      const directory = await mkdtemp(path.join(tmpdir(), 'audio-route-'));
      return { store: new LocalAudioStore(directory), close: () => rm(directory, { recursive: true }) };
    },
  ],
  [
    'an S3 bucket',
    async () => {
      const server = await startS3Server(['audio']);
      return { store: new S3AudioStore(server.client(), { bucket: 'audio' }), close: () => server.close() };
    },
  ],
];

describe.each(stores)('GET /v1/audio/{key} from %s', (_, makeStore) => {
  let clock = signedAt;
  let store: AudioStore;
  let base: string;
  const closers: (() => Promise<unknown>)[] = [];
  const key = freshKey();
  const bytes = randomBytes(20_000);

  beforeAll(async () => {
    const made = await makeStore();
    store = made.store;
    closers.push(made.close);
    await store.put(key, bytes, { contentType: 'audio/mpeg', durationMs: 1_000 });
    const server = await serve(store, () => clock);
    base = server.base;
    closers.push(server.close);
  });
  afterAll(async () => {
    for (const close of closers.reverse()) await close();
  });

  const urlOf = (k: string) => signAudioUrl(k, signedAt, { baseUrl: base, keys, ttlSeconds: 86_400 });
  const get = (url: string, headers: Record<string, string> = {}, method = 'GET') => {
    clock = signedAt;
    return fetch(url, { method, headers });
  };

  it('answers the whole file with its type, length, ranges, and cache headers until the URL expires', async () => {
    const url = urlOf(key);
    const response = await get(url);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('audio/mpeg');
    expect(response.headers.get('content-length')).toBe('20000');
    expect(response.headers.get('accept-ranges')).toBe('bytes');
    // A cache must not serve the file after its URL has expired: that is what ends a leaked URL's use.
    const expires = Number(new URL(url).searchParams.get('expires'));
    const left = expires - Math.floor(signedAt.getTime() / 1000);
    expect(left).toBeGreaterThan(86_000);
    expect(left).toBeLessThan(31_536_000);
    expect(response.headers.get('cache-control')).toBe(`public, max-age=${left}, immutable`);
    expect(response.headers.get('etag')).toBe(`"${key}"`);
    expect(Buffer.from(await response.arrayBuffer()).equals(bytes)).toBe(true);
  });

  it('answers a range with 206, Content-Range and exactly those bytes', async () => {
    for (const [header, start, end] of [
      ['bytes=0-0', 0, 0],
      ['bytes=100-1099', 100, 1_099],
      ['bytes=19000-', 19_000, 19_999],
      ['bytes=-500', 19_500, 19_999],
      ['bytes=19990-30000', 19_990, 19_999],
    ] as const) {
      const response = await get(urlOf(key), { range: header });
      expect(response.status, header).toBe(206);
      expect(response.headers.get('content-range'), header).toBe(`bytes ${start}-${end}/20000`);
      expect(response.headers.get('content-length'), header).toBe(String(end - start + 1));
      const got = Buffer.from(await response.arrayBuffer());
      expect(got.equals(bytes.subarray(start, end + 1)), header).toBe(true);
    }
  });

  it('answers 416 with Content-Range bytes */size to a malformed or unsatisfiable range', async () => {
    for (const header of ['bytes=20000-', 'bytes=5-1', 'bytes=abc', 'bytes=-0']) {
      const response = await get(urlOf(key), { range: header });
      expect(response.status, header).toBe(416);
      expect(response.headers.get('content-range'), header).toBe('bytes */20000');
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe(
        'range_not_satisfiable',
      );
    }
  });

  it('answers the whole file to several ranges, and to a Range whose If-Range names another version', async () => {
    const several = await get(urlOf(key), { range: 'bytes=0-9,20-29' });
    expect(several.status).toBe(200);
    expect((await several.arrayBuffer()).byteLength).toBe(20_000);
    const stale = await get(urlOf(key), { range: 'bytes=0-9', 'if-range': '"something-else"' });
    expect(stale.status).toBe(200);
    await stale.arrayBuffer();
    const current = await get(urlOf(key), { range: 'bytes=0-9', 'if-range': `"${key}"` });
    expect(current.status).toBe(206);
    await current.arrayBuffer();
  });

  it('serves a transcript as stored, never compressed: one representation for its strong ETag and ranges', async () => {
    const transcriptKey = audioKey('json', ['route-test', randomBytes(8).toString('hex')]);
    const transcript = Buffer.from(
      JSON.stringify({
        cues: Array.from({ length: 100 }, (_, i) => ({ start: i, text: 'words '.repeat(10) })),
      }),
    );
    await store.put(transcriptKey, transcript, { contentType: 'application/json', durationMs: null });
    const response = await get(urlOf(transcriptKey), { 'accept-encoding': 'br, gzip' });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-encoding')).toBeNull();
    expect(response.headers.get('content-length')).toBe(String(transcript.length));
    expect(Buffer.from(await response.arrayBuffer()).equals(transcript)).toBe(true);
  });

  it('answers 304 to a matching If-None-Match', async () => {
    const response = await get(urlOf(key), { 'if-none-match': `W/"x", "${key}"` });
    expect(response.status).toBe(304);
    expect(response.headers.get('etag')).toBe(`"${key}"`);
  });

  it('answers 412 to an If-Match that names another tag, and the file to its own or *', async () => {
    const refused = await get(urlOf(key), { 'if-match': '"other"' });
    expect(refused.status).toBe(412);
    expect(refused.headers.get('etag')).toBe(`"${key}"`);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('precondition_failed');
    // Compared strongly: a weak tag of the file does not match.
    expect((await get(urlOf(key), { 'if-match': `W/"${key}"` })).status).toBe(412);
    expect((await get(urlOf(key), { 'if-match': `"other", "${key}"` })).status).toBe(200);
    expect((await get(urlOf(key), { 'if-match': '*' })).status).toBe(200);
  });

  it('answers HEAD with the same headers and no body', async () => {
    const whole = await get(urlOf(key), {}, 'HEAD');
    expect(whole.status).toBe(200);
    expect(whole.headers.get('content-length')).toBe('20000');
    expect(whole.headers.get('content-type')).toBe('audio/mpeg');
    expect((await whole.arrayBuffer()).byteLength).toBe(0);
    const part = await get(urlOf(key), { range: 'bytes=-500' }, 'HEAD');
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe('bytes 19500-19999/20000');
    expect(part.headers.get('content-length')).toBe('500');
  });

  it('refuses an unsigned, altered or expired URL with 403 and says which', async () => {
    const url = new URL(urlOf(key));
    const code = async (target: string, at = signedAt) => {
      clock = at;
      const response = await fetch(target);
      if (response.ok) return [response.status, (await response.arrayBuffer()).byteLength];
      return [response.status, ((await response.json()) as { error: { code: string } }).error.code];
    };
    expect(await code(`${base}/v1/audio/${key}`)).toEqual([403, 'forbidden']);
    const otherKey = new URL(url);
    otherKey.pathname = `/v1/audio/${freshKey()}`;
    expect(await code(otherKey.href)).toEqual([403, 'forbidden']);
    const later = new URL(url);
    later.searchParams.set('expires', String(Number(url.searchParams.get('expires')) + 3_600));
    expect(await code(later.href)).toEqual([403, 'forbidden']);
    const twice = `${url.href}&signature=${url.searchParams.get('signature')}`;
    expect(await code(twice)).toEqual([403, 'forbidden']);
    // Said as it is: the URL has both, one of them twice.
    const message = ((await (await fetch(twice)).json()) as { error: { message: string } }).error.message;
    expect(message).toMatch(/^this audio URL gives signature more than once/);
    expect(await code(url.href, new Date(signedAt.getTime() + 26 * hour))).toEqual([403, 'url_expired']);
    expect(await code(url.href, new Date(signedAt.getTime() + 23 * hour))).toEqual([200, 20_000]);
  });

  it('answers 404 to a signed URL for a key that is not stored', async () => {
    const response = await get(urlOf(freshKey('ogg')));
    expect(response.status).toBe(404);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('not_found');
  });
});
