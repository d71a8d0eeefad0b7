import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Registry } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { audioKey } from '../../audio/audio-key.ts';
import { audioUrls } from '../../audio/audio-urls.ts';
import { parseAudioUrlKeys, signArticleAudioUrl, signAudioUrl } from '../../audio/signed-url.ts';
import { ApiError } from '../../runtime/api-error.ts';
import { createLogger } from '../../runtime/logger.ts';
import { createApp } from '../app.ts';
import type { ArticleNarration } from '../articles/article-store.ts';
import { articleAudioRoutes, narrationRetryAfterSeconds } from './article-audio-route.ts';

const keys = parseAudioUrlKeys(`k1:${Buffer.alloc(32, 5).toString('base64url')}`);
const signedAt = new Date('2030-06-01T10:00:00Z');
const key = audioKey('mp3', ['article-audio-route', 'art_narrated']);

/** The read model of the test: one article per state. */
const narrations: Record<string, ArticleNarration> = {
  art_narrated: { state: 'narrated', audioKey: key },
  art_pending: { state: 'pending' },
  art_skipped: { state: 'none', status: 'skipped' },
};

describe('GET /v1/articles/{id}/audio', () => {
  let base: string;
  let server: Server;
  const looked: string[] = [];
  const clock = () => signedAt;

  beforeAll(async () => {
    const app = createApp({
      routes: [],
      publicRoutes: (router) =>
        articleAudioRoutes(router, {
          narrationOf: async (id) => {
            looked.push(id);
            return narrations[id] ?? { state: 'unknown' };
          },
          keys,
          audio: audioUrls({ baseUrl: () => base, keys, ttlSeconds: 86_400, now: clock }),
          now: clock,
        }),
      authenticate: () => Promise.reject(new ApiError('unauthorized', 'no')),
      limits: { maxBodyBytes: 1024, maxJsonDepth: 32 },
      logger: createLogger('article-audio-route-test', 'silent'),
      metrics: new Registry(),
    });
    server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  const urlOf = (id: string, at = signedAt) =>
    signArticleAudioUrl(id, at, { baseUrl: base, keys, ttlSeconds: 86_400 });
  const get = (url: string, method = 'GET') => fetch(url, { method, redirect: 'manual' });
  const errorOf = async (response: Response) => [
    response.status,
    ((await response.json()) as { error: { code: string } }).error.code,
  ];

  it("redirects a narrated article, without an API key, to the signed URL of its narration's file", async () => {
    for (const method of ['GET', 'HEAD']) {
      const response = await get(urlOf('art_narrated'), method);
      expect(response.status).toBe(302);
      expect(response.headers.get('location')).toBe(
        signAudioUrl(key, signedAt, { baseUrl: base, keys, ttlSeconds: 86_400 }),
      );
      expect(response.headers.get('cache-control')).toBe('no-store');
    }
  });

  it('answers 404 narration_not_ready with Retry-After while the article is not narrated', async () => {
    const response = await get(urlOf('art_pending'));
    expect(response.headers.get('retry-after')).toBe(String(narrationRetryAfterSeconds));
    const body = (await response.json()) as { error: { code: string; message: string } };
    expect(response.status).toBe(404);
    expect(body.error.code).toBe('narration_not_ready');
    expect(body.error.message).toMatch(/narration of article "art_pending" is not ready yet/);
  });

  it('answers 404 not_found, without Retry-After, for an unknown article and one the narrator skipped', async () => {
    const unknown = await get(urlOf('art_unknown'));
    expect(unknown.headers.get('retry-after')).toBeNull();
    expect(await errorOf(unknown)).toEqual([404, 'not_found']);
    const skipped = await get(urlOf('art_skipped'));
    expect(skipped.headers.get('retry-after')).toBeNull();
    const body = (await skipped.json()) as { error: { code: string; message: string } };
    expect([skipped.status, body.error.code]).toEqual([404, 'not_found']);
    expect(body.error.message).toMatch(/has no narration: the narrator skipped it/);
  });

  it("refuses, before reading anything, an unsigned, tampered or expired URL, and a file's signature", async () => {
    looked.length = 0;
    const url = new URL(urlOf('art_narrated'));
    const otherArticle = new URL(url.href.replace('art_narrated', 'art_pending'));
    const stretched = new URL(url);
    stretched.searchParams.set('expires', String(Number(url.searchParams.get('expires')) + 86_400));
    const unsigned = `${base}/v1/articles/art_narrated/audio`;
    // the signature of a file URL whose key is spelt like an article id does not open that article
    const file = new URL(signAudioUrl(key, signedAt, { baseUrl: base, keys, ttlSeconds: 86_400 }));
    const fileSignature = `${base}/v1/articles/${key}/audio${file.search}`;
    for (const refused of [otherArticle.href, stretched.href, unsigned, fileSignature]) {
      expect(await errorOf(await get(refused)), refused).toEqual([403, 'forbidden']);
    }
    const twoDaysAgo = new Date(signedAt.getTime() - 2 * 86_400_000);
    expect(await errorOf(await get(urlOf('art_narrated', twoDaysAgo)))).toEqual([403, 'url_expired']);
    expect(looked).toEqual([]);
  });
});
