import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Registry } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { audioKey } from '../../audio/audio-key.ts';
import { audioUrls } from '../../audio/audio-urls.ts';
import { parseAudioUrlKeys, signArticleAudioUrl, signAudioUrl } from '../../audio/signed-url.ts';
import { ApiError } from '../../runtime/api-error.ts';
import { SpeechUnavailableError } from '../../speech/provider.ts';
import { createLogger } from '../../runtime/logger.ts';
import { createApp } from '../app.ts';
import type { ArticleNarration } from '../articles/article-store.ts';
import {
  articleAudioRoutes,
  busyRetryAfterSeconds,
  narrationRetryAfterSeconds,
  type ArticleAudioRouteDependencies,
} from './article-audio-route.ts';
import type { OnRequestNarration } from './narration-on-request.ts';

const keys = parseAudioUrlKeys(`k1:${Buffer.alloc(32, 5).toString('base64url')}`);
const signedAt = new Date('2030-06-01T10:00:00Z');
const key = audioKey('mp3', ['article-audio-route', 'art_narrated']);

/** The read model of the test: one article per state. */
const narrations: Record<string, ArticleNarration> = {
  art_narrated: { state: 'narrated', audioKey: key },
  art_pending: { state: 'pending', discoveredAt: signedAt.getTime() - 10_000 },
  art_skipped: { state: 'none', status: 'skipped' },
};

const clock = () => signedAt;
const get = (url: string, method = 'GET') => fetch(url, { method, redirect: 'manual' });
const errorOf = async (response: Response) => [
  response.status,
  ((await response.json()) as { error: { code: string } }).error.code,
];

/** The route on a server of its own, over the test's read model; `base` is known once it listens. */
function serveRoute(extra: Partial<ArticleAudioRouteDependencies> = {}) {
  const served = { base: '', server: undefined as Server | undefined, looked: [] as string[] };
  beforeAll(async () => {
    const app = createApp({
      routes: [],
      publicRoutes: (router) =>
        articleAudioRoutes(router, {
          narrationOf: async (id) => {
            served.looked.push(id);
            return narrations[id] ?? { state: 'unknown' };
          },
          keys,
          audio: audioUrls({ baseUrl: () => served.base, keys, ttlSeconds: 86_400, now: clock }),
          now: clock,
          ...extra,
        }),
      authenticate: () => Promise.reject(new ApiError('unauthorized', 'no')),
      limits: { maxBodyBytes: 1024, maxJsonDepth: 32 },
      logger: createLogger('article-audio-route-test', 'silent'),
      metrics: new Registry(),
    });
    const server = app.listen(0, '127.0.0.1');
    served.server = server;
    await new Promise((resolve) => server.once('listening', resolve));
    served.base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((resolve) => served.server?.close(resolve)));
  return served;
}

describe('GET /v1/articles/{id}/audio', () => {
  const served = serveRoute();
  const looked = served.looked;
  const urlOf = (id: string, at = signedAt) =>
    signArticleAudioUrl(id, at, { baseUrl: served.base, keys, ttlSeconds: 86_400 });

  it("redirects a narrated article, without an API key, to the signed URL of its narration's file", async () => {
    for (const method of ['GET', 'HEAD']) {
      const response = await get(urlOf('art_narrated'), method);
      expect(response.status).toBe(302);
      expect(response.headers.get('location')).toBe(
        signAudioUrl(key, signedAt, { baseUrl: served.base, keys, ttlSeconds: 86_400 }),
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
    const unsigned = `${served.base}/v1/articles/art_narrated/audio`;
    // the signature of a file URL whose key is spelt like an article id does not open that article
    const file = new URL(signAudioUrl(key, signedAt, { baseUrl: served.base, keys, ttlSeconds: 86_400 }));
    const fileSignature = `${served.base}/v1/articles/${key}/audio${file.search}`;
    for (const refused of [otherArticle.href, stretched.href, unsigned, fileSignature]) {
      expect(await errorOf(await get(refused)), refused).toEqual([403, 'forbidden']);
    }
    const twoDaysAgo = new Date(signedAt.getTime() - 2 * 86_400_000);
    expect(await errorOf(await get(urlOf('art_narrated', twoDaysAgo)))).toEqual([403, 'url_expired']);
    expect(looked).toEqual([]);
  });
});

describe('GET /v1/articles/{id}/audio, narrating on request', () => {
  const narrated = audioKey('mp3', ['article-audio-route', 'on-request']);
  /** What the narrations on request answer, by article; a missing one is "busy" (null). */
  const made: Record<string, () => Promise<OnRequestNarration>> = {
    art_skipped: async () => ({ kind: 'narrated', audioKey: narrated }),
    art_late: async () => ({ kind: 'narrated', audioKey: narrated }),
    art_silent: async () => ({ kind: 'none', reason: 'no voice speaks ha' }),
    art_gone: async () => ({ kind: 'unknown' }),
    art_down: () => Promise.reject(new SpeechUnavailableError('the engine is not installed')),
  };
  const asked: string[] = [];
  Object.assign(narrations, {
    art_late: { state: 'pending', discoveredAt: signedAt.getTime() - 121_000 },
    art_silent: { state: 'none', status: 'skipped' },
    art_gone: { state: 'none', status: 'failed' },
    art_down: { state: 'none', status: 'failed' },
    art_busy: { state: 'none', status: 'skipped' },
  } satisfies Record<string, ArticleNarration>);
  const served = serveRoute({
    narratorGraceMs: 120_000,
    onRequest: {
      narrate: (id) => {
        asked.push(id);
        return made[id]?.() ?? null;
      },
    },
  });
  const urlOf = (id: string) =>
    signArticleAudioUrl(id, signedAt, { baseUrl: served.base, keys, ttlSeconds: 86_400 });
  const fileUrl = (audio: string) =>
    signAudioUrl(audio, signedAt, { baseUrl: served.base, keys, ttlSeconds: 86_400 });

  it('narrates an article the narrator skipped, or is over two minutes late with, and redirects to the file', async () => {
    for (const id of ['art_skipped', 'art_late']) {
      const response = await get(urlOf(id));
      expect(response.status, id).toBe(302);
      expect(response.headers.get('location')).toBe(fileUrl(narrated));
    }
    // a narrated article is redirected without narrating; a young pending one waits for the narrator
    expect((await get(urlOf('art_narrated'))).status).toBe(302);
    expect(asked).toEqual(['art_skipped', 'art_late']);
  });

  it('waits for the narrator in the first two minutes, saying how long is left', async () => {
    const response = await get(urlOf('art_pending'));
    expect(await errorOf(response)).toEqual([404, 'narration_not_ready']);
    // discovered 10 s ago: 110 s of the grace are left, capped at the usual 30
    expect(response.headers.get('retry-after')).toBe(String(narrationRetryAfterSeconds));
    expect(asked).not.toContain('art_pending');
  });

  it('answers 404 with the reason when nothing can be narrated, and for an article gone meanwhile', async () => {
    const silent = await get(urlOf('art_silent'));
    const body = (await silent.json()) as { error: { code: string; message: string } };
    expect([silent.status, body.error.code]).toEqual([404, 'not_found']);
    expect(body.error.message).toBe('article "art_silent" has no narration: no voice speaks ha');
    expect(await errorOf(await get(urlOf('art_gone')))).toEqual([404, 'not_found']);
  });

  it('answers 503 with Retry-After while busy, and when the speech provider is down', async () => {
    const busy = await get(urlOf('art_busy'));
    expect(await errorOf(busy)).toEqual([503, 'service_unavailable']);
    expect(busy.headers.get('retry-after')).toBe(String(busyRetryAfterSeconds));
    const down = await get(urlOf('art_down'));
    expect(await errorOf(down)).toEqual([503, 'provider_unavailable']);
    expect(down.headers.get('retry-after')).toBe('5');
  });
});
