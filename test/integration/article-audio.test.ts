// GET /v1/articles/{id}/audio on the real stack (Kafka -> the projector -> ClickHouse 18.16 -> the API):
// the audio_url a webhook alert carries when it was raised before the narrator finished, and the one an
// article list gives for an article without a narration file. Built as the dispatcher builds it
// (alertPayload, with its own keys), it is resolved when fetched: a narrated article's URL redirects to
// the signed URL of its file, which serves the audio without an API key; an article discovered moments
// ago and not narrated yet answers 404 narration_not_ready with Retry-After, then redirects as soon as the
// narration reaches the read model; an article the narrator skipped as too old is narrated on request by
// the API's own (embedded) speech engine and stored; one no voice speaks and an unknown article are 404
// not_found; a tampered URL, or a file's signature put on an article, is refused.
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { audioKey } from '../../services/audio/audio-key.ts';
import { audioUrls } from '../../services/audio/audio-urls.ts';
import { LocalAudioStore } from '../../services/audio/local-store.ts';
import { parseAudioUrlKeys } from '../../services/audio/signed-url.ts';
import { alertPayload } from '../../services/dispatcher/fan-out.ts';
import type { ArticleNarrated } from '../../services/runtime/events/types.generated.ts';
import { articleRows, type Row } from '../../services/projector/rows.ts';
import { topicNames } from '../../services/runtime/kafka/topics.ts';
import { alertWith } from '../support/webhook-records.ts';
import { startApiStack, type ApiStack } from './support/api-stack.ts';
import { sampleArticle, sampleNarration } from './support/kafka.ts';
import { waitFor } from './support/wait.ts';

const urlKeys = `aa1:${Buffer.alloc(32, 21).toString('base64url')}`;
const keys = parseAudioUrlKeys(urlKeys);

/** One second of a tone as mp3, made by ffmpeg. */
const tone = (frequency: number): Buffer =>
  execFileSync(
    'ffmpeg',
    [
      ...[
        '-hide_banner',
        '-loglevel',
        'error',
        '-f',
        'lavfi',
        '-i',
        `sine=frequency=${frequency}:duration=1`,
      ],
      ...['-c:a', 'libmp3lame', '-b:a', '64k', '-f', 'mp3', 'pipe:1'],
    ],
    { maxBuffer: 10 * 1_048_576 },
  );

const errorOf = async (response: Response) => [
  response.status,
  ((await response.json()) as { error: { code: string } }).error.code,
];

describe("an article's signed audio URL, resolved when fetched", () => {
  let stack: ApiStack;
  let directory: string;
  let store: LocalAudioStore;
  let ids: { narrated: string; late: string; skipped: string; old: string };
  const mp3 = tone(440);
  const lateMp3 = tone(660);
  const key = audioKey('mp3', ['article-audio', 'narrated', Date.now()]);
  const lateKey = audioKey('mp3', ['article-audio', 'late', Date.now()]);

  /** data.audio_url of the news.alert the dispatcher would send for an alert raised without the key. */
  const alertAudioUrl = (articleId: string) => {
    const audio = audioUrls({ baseUrl: () => stack.api.url, keys, ttlSeconds: 7 * 86_400 });
    const alert = alertWith({ article_id: articleId, audio_key: null, audio_url: null });
    return (JSON.parse(alertPayload(alert, audio)) as { data: { audio_url: string } }).data.audio_url;
  };

  const narration = (articleId: string, overrides: Partial<ArticleNarrated>): ArticleNarrated => ({
    ...sampleNarration(articleId, Date.now()),
    ...overrides,
  });

  beforeAll(async () => {
    directory = await mkdtemp(path.join(tmpdir(), 'article-audio-'));
    store = new LocalAudioStore(path.join(directory, 'audio'));
    await store.put(key, mp3, { contentType: 'audio/mpeg', durationMs: 1_000 });
    stack = await startApiStack('article_audio', {
      AUDIO_STORE: 'local',
      AUDIO_DIR: path.join(directory, 'audio'),
      AUDIO_URL_KEYS: urlKeys,
    });
    const run = stack.run;
    ids = {
      narrated: `art_${run}_narrated`,
      late: `art_${run}_late`,
      skipped: `art_${run}_skipped`,
      old: `art_${run}_old`,
    };
    const monthAgo = Date.now() - 30 * 86_400_000;
    const articles = Object.values(ids).map((id, n) =>
      sampleArticle(n + 1, {
        article_id: id,
        source_id: `source-${run}`,
        published_at: id === ids.old ? monthAgo : Date.now(),
        // first seen just now: the narrator is waited for two minutes before an article is narrated on request.
        // The late one is dated ten minutes ahead so that a slow machine cannot run its two minutes out before
        // its narration reaches the read model (the API would narrate it itself, under another key).
        discovered_at: id === ids.late ? Date.now() + 600_000 : Date.now(),
        // no voice speaks Hausa here, so the narrator skipped it and no request can narrate it either
        language: id === ids.skipped ? 'ha' : 'en',
        ...(id === ids.old
          ? { title: `Harbour reopens ${run}`, summary: 'The harbour reopened on Monday.' }
          : {}),
      }),
    );
    // The articles are written straight into this file's read models, as the projector writes them: on the
    // shared topic, the enricher and narrator another file runs at the same time would narrate them under
    // keys of theirs, which could land after the narrations this test sends (CI saw it).
    const tables = new Map<string, Row[]>();
    for (const { table, row } of articles.flatMap((a, n) => articleRows(a, n + 1)))
      tables.set(table, [...(tables.get(table) ?? []), row]);
    for (const [table, rows] of tables) await stack.clickhouse.insert(table, rows);
    await stack.producer.send(topicNames.articlesNarrated, [
      {
        key: ids.narrated,
        value: narration(ids.narrated, { audio_key: key, audio_url: `${stack.api.url}/v1/audio/${key}` }),
      },
      {
        key: ids.old,
        value: narration(ids.old, {
          status: 'skipped',
          failure_reason: 'published more than 168 hours ago (NARRATOR_MAX_AGE_HOURS)',
          audio_key: null,
          audio_url: null,
          voice: null,
          format: null,
          duration_ms: null,
          characters: null,
        }),
      },
      {
        key: ids.skipped,
        value: narration(ids.skipped, {
          status: 'skipped',
          failure_reason: 'no voice speaks ha',
          audio_key: null,
          audio_url: null,
          voice: null,
          format: null,
          duration_ms: null,
          characters: null,
        }),
      },
    ]);
    await waitFor(
      async () => {
        const articleRows = await stack.clickhouse.query(
          `SELECT article_id FROM articles WHERE source_id = 'source-${run}'`,
        );
        const narrationRows = await stack.clickhouse.query(
          `SELECT article_id FROM article_narrations WHERE article_id IN ('${ids.narrated}', '${ids.skipped}', '${ids.old}')`,
        );
        return articleRows.length === 4 && narrationRows.length === 3;
      },
      'the articles and narrations in the read model',
      60_000,
    );
  }, 120_000);

  afterAll(async () => {
    await stack?.close();
    await rm(directory, { recursive: true, force: true });
  });

  it("redirects a narrated article's URL to its file's signed URL, which serves the audio without a key", async () => {
    const url = alertAudioUrl(ids.narrated);
    expect(url).toMatch(
      new RegExp(
        `^${stack.api.url}/v1/articles/${ids.narrated}/audio\\?expires=\\d+&signature=aa1\\.[\\w-]{43}$`,
      ),
    );
    const redirect = await fetch(url, { redirect: 'manual' });
    expect(redirect.status).toBe(302);
    expect(redirect.headers.get('cache-control')).toBe('no-store');
    const location = redirect.headers.get('location')!;
    expect(location).toMatch(new RegExp(`^${stack.api.url}/v1/audio/${key}\\?expires=\\d+&signature=aa1\\.`));
    const file = await fetch(location);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('audio/mpeg');
    expect(Buffer.from(await file.arrayBuffer()).equals(mp3)).toBe(true);
    // as a player fetches it: following the redirect by itself
    const played = await fetch(url);
    expect(played.status).toBe(200);
    expect(Buffer.from(await played.arrayBuffer()).equals(mp3)).toBe(true);
  });

  it('answers 404 narration_not_ready with Retry-After until the narration arrives, then redirects to it', async () => {
    const url = alertAudioUrl(ids.late);
    const early = await fetch(url, { redirect: 'manual' });
    expect(early.headers.get('retry-after')).toBe('30');
    expect(await errorOf(early)).toEqual([404, 'narration_not_ready']);

    // the same URL, handed out before, leads to the audio once the narrator has made it
    await store.put(lateKey, lateMp3, { contentType: 'audio/mpeg', durationMs: 1_000 });
    await stack.producer.send(topicNames.articlesNarrated, [
      {
        key: ids.late,
        value: narration(ids.late, { audio_key: lateKey, audio_url: `${stack.api.url}/v1/audio/${lateKey}` }),
      },
    ]);
    const location = await waitFor(
      async () => {
        const response = await fetch(url, { redirect: 'manual' });
        return response.status === 302 ? response.headers.get('location') : null;
      },
      'the late narration to be redirected to',
      30_000,
    );
    expect(new URL(location).pathname).toBe(`/v1/audio/${lateKey}`);
    const played = await fetch(url);
    expect(Buffer.from(await played.arrayBuffer()).equals(lateMp3)).toBe(true);
  });

  it('narrates on request an article the narrator skipped as too old: the URL the list gives plays it', async () => {
    const list = await stack.call<{ articles: { id: string; audio_url: string }[] }>(
      'GET',
      `/v1/articles?source=source-${stack.run}&limit=10`,
    );
    expect(list.status).toBe(200);
    const listed = new Map(list.body.articles.map((a) => [a.id, new URL(a.audio_url)]));
    // every article has a URL: the file's when narrated, else the article's narration
    expect(listed.get(ids.narrated)?.pathname).toBe(`/v1/audio/${key}`);
    for (const id of [ids.old, ids.skipped])
      expect(listed.get(id)?.pathname, id).toBe(`/v1/articles/${id}/audio`);

    const url = listed.get(ids.old)!.href;
    const first = await fetch(url, { redirect: 'manual' });
    expect(first.status).toBe(302);
    const location = new URL(first.headers.get('location')!);
    expect(location.pathname).toMatch(/^\/v1\/audio\/[0-9a-f]{40,64}\.mp3$/);
    const file = await fetch(location);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('audio/mpeg');
    const mp3 = Buffer.from(await file.arrayBuffer());
    // an mp3 of the headline and summary: an ID3 tag or an MPEG frame sync, and more than a second of it
    expect(
      mp3.subarray(0, 3).toString('latin1') === 'ID3' || (mp3[0] === 0xff && (mp3[1]! & 0xe0) === 0xe0),
    ).toBe(true);
    expect(mp3.length).toBeGreaterThan(4_000);
    // stored: asked again, the same file, from the store
    const again = await fetch(url, { redirect: 'manual' });
    expect(new URL(again.headers.get('location')!).pathname).toBe(location.pathname);
  }, 60_000);

  it('answers 404 not_found for an article no voice speaks and for one that does not exist', async () => {
    const skipped = await fetch(alertAudioUrl(ids.skipped), { redirect: 'manual' });
    expect(skipped.headers.get('retry-after')).toBeNull();
    const body = (await skipped.json()) as { error: { code: string; message: string } };
    expect([skipped.status, body.error.code]).toEqual([404, 'not_found']);
    expect(body.error.message).toBe(`article "${ids.skipped}" has no narration: no voice speaks ha`);
    const unknown = await fetch(alertAudioUrl(`art_${stack.run}_unknown`), { redirect: 'manual' });
    expect(await errorOf(unknown)).toEqual([404, 'not_found']);
  });

  it("refuses a tampered URL, an unsigned one, and a file's signature put on an article", async () => {
    const url = new URL(alertAudioUrl(ids.narrated));
    const signature = url.searchParams.get('signature')!;
    const flipped = new URL(url);
    flipped.searchParams.set(
      'signature',
      `${signature.slice(0, -2)}${signature.at(-2) === 'A' ? 'B' : 'A'}${signature.at(-1)}`,
    );
    const otherArticle = new URL(url.href.replace(ids.narrated, ids.late));
    const stretched = new URL(url);
    stretched.searchParams.set('expires', String(Number(url.searchParams.get('expires')) + 86_400));
    const unsigned = `${stack.api.url}/v1/articles/${ids.narrated}/audio`;
    const file = new URL(audioUrls({ baseUrl: () => stack.api.url, keys, ttlSeconds: 86_400 }).urlFor(key));
    const fileSignature = `${stack.api.url}/v1/articles/${key}/audio${file.search}`;
    for (const refused of [flipped.href, otherArticle.href, stretched.href, unsigned, fileSignature]) {
      expect(await errorOf(await fetch(refused, { redirect: 'manual' })), refused).toEqual([
        403,
        'forbidden',
      ]);
    }
  });
});
