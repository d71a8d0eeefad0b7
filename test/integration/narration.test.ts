// Narration end to end, every component real: BBC feed items served locally -> a poller process -> Kafka
// -> an enricher process -> a narrator process (embedded voices) -> news.articles.narrated.v1 -> the
// projector -> ClickHouse -> the API, whose audio_url downloads without an API key as real mp3. An article
// in a language no voice speaks is recorded as skipped, with no audio. Then a narrator on the OpenAI
// provider (against a local server speaking its speech API, slowed so the kill lands mid-batch) is
// SIGKILLed while it narrates and restarted: every article ends narrated, and no file is synthesized
// twice (counted per text at the server). A second narrator group replaying the same enrichments
// synthesizes nothing.
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isAudioKey } from '../../services/audio/audio-key.ts';
import type { ArticleEnriched, ArticleNarrated } from '../../services/runtime/events/types.generated.ts';
import { topicNames } from '../../services/runtime/kafka/topics.ts';
import { decodeAudio, probeAudio } from '../../services/speech/audio-probe.ts';
import { clippedShare, durationMs, rmsDbfs } from '../../services/speech/pcm.ts';
import type { components } from '../api-client/schema.d.ts';
import { startFeedServer, type FeedServer } from '../support/feed-server.ts';
import { startOpenAiSpeechServer, type OpenAiSpeechServer } from '../support/openai-speech-server.ts';
import { startApiStack, type ApiStack } from './support/api-stack.ts';
import { sampleArticle, sampleEnrichment } from './support/kafka.ts';
import { startPoller, type PollerProcess } from './support/poller-process.ts';
import { startServiceProcess, type ServiceProcess } from './support/service-process.ts';
import { spokenWords } from './support/spoken-words.ts';
import { placeGroup, recordTopics, topicEnds, type TopicRecorder } from './support/topic-recorder.ts';
import { waitFor } from './support/wait.ts';
import { withEnrichment } from './support/enriched.ts';

type ArticleList = components['schemas']['ArticleList'];
type ArticleDetail = components['schemas']['ArticleDetail'];
type Subscribed = components['schemas']['SourceSubscribed'];
type VoiceList = { voices: { id: string; sample_rate_hz: number }[] };

/** A BBC Hausa-style story: Hausa is detected from its text, and neither espeak-ng nor Festival speaks it. */
const hausaFeed = (run: string, base: string) => `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0"><channel><title>Labarai ${run}</title><link>${base}/</link><language>ha</language>
<item><title>Gwamnatin Kano ta fara gina sabuwar hanya (${run})</title>
<link>${base}/labarai/${run}/1</link><guid isPermaLink="false">labarai-${run}-1</guid>
<pubDate>${new Date().toUTCString()}</pubDate>
<description>Gwamnatin jihar Kano ta fara aikin sabuwar hanya wadda za ta hada garuruwa biyu. Gwamnan ya ce
za a kammala aikin a shekara mai zuwa, kuma jama'a suna jiran hakan sosai. Ma'aikata fiye da dari biyar ne
za su yi aiki a kan hanyar, in ji kwamishinan ayyuka na jihar.</description></item></channel></rss>`;

/** The keys of the audio files in a local store's directory (`<dir>/<2 hex>/<key>`). */
async function storedKeys(directory: string): Promise<Set<string>> {
  const keys = new Set<string>();
  for (const shard of await readdir(directory).catch(() => [])) {
    for (const name of await readdir(path.join(directory, shard)).catch(() => [])) {
      if (isAudioKey(name)) keys.add(name);
    }
  }
  return keys;
}

describe('narration end to end', () => {
  let stack: ApiStack;
  let server: FeedServer;
  let speech: OpenAiSpeechServer | undefined;
  let recorder: TopicRecorder;
  let audioDir: string;
  let run: string;
  let poller: PollerProcess | undefined;
  const services: ServiceProcess[] = [];

  const start = async (name: 'enricher' | 'narrator', env: Record<string, string>) => {
    const service = startServiceProcess(name, {
      CLICKHOUSE_DATABASE: stack.database,
      AUDIO_DIR: audioDir,
      API_PUBLIC_URL: stack.api.url,
      OUTBOUND_ALLOW_LIST: '127.0.0.1',
      LOG_LEVEL: 'info',
      ...env,
    });
    services.push(service);
    await waitFor(
      () => service.output().includes('partitions assigned'),
      `the ${name} to join`,
      90_000,
    ).catch((error: Error) => {
      throw new Error(`${error.message}\n${name} output:\n${service.output()}`);
    });
    return service;
  };

  /** A wait that, when it times out, says what the services printed last. */
  const watching = async <T>(wait: Promise<T>): Promise<T> => {
    try {
      return await wait;
    } catch (error) {
      const outputs = services.map((s) => s.output().slice(-3000)).join('\n---\n');
      throw new Error(`${(error as Error).message}\nservice output:\n${outputs}`);
    }
  };

  const narrationsOf = (articleId: string) =>
    recorder
      .of<ArticleNarrated>(topicNames.articlesNarrated)
      .filter((e) => e.value.article_id === articleId)
      .map((e) => e.value);

  /** The latest narration row of each article, as the read model has it. */
  const narrationRows = (ids: string[]) =>
    stack.clickhouse.query<{
      article_id: string;
      status: string;
      failure_reason: string | null;
      audio_key: string | null;
      audio_url: string | null;
      voice: string | null;
      provider: string;
      format: string | null;
      duration_ms: number | null;
    }>(
      `SELECT article_id, argMax(status, version) AS status, argMax(failure_reason, version) AS failure_reason,
  argMax(audio_key, version) AS audio_key, argMax(audio_url, version) AS audio_url,
  argMax(voice, version) AS voice, argMax(provider, version) AS provider, argMax(format, version) AS format,
  argMax(duration_ms, version) AS duration_ms
FROM article_narrations WHERE article_id IN (${ids.map((id) => `'${id}'`).join(',')}) GROUP BY article_id`,
    );

  /** Whether an audio_url is a file's (narrated), not the article's narration URL. */
  const isFileUrl = (url: string) => new URL(url).pathname.startsWith('/v1/audio/');

  /** GETs a signed audio_url as a player would: no API key. */
  const download = async (url: string) => {
    const response = await fetch(url);
    expect(response.status, url).toBe(200);
    return {
      contentType: response.headers.get('content-type'),
      bytes: new Uint8Array(await response.arrayBuffer()),
    };
  };

  beforeAll(async () => {
    audioDir = await mkdtemp(path.join(tmpdir(), 'narration-audio-'));
    stack = await startApiStack('narration', { AUDIO_DIR: audioDir });
    run = stack.run;
    recorder = await recordTopics(stack.kafka, stack.codec, [
      topicNames.articlesEnriched,
      topicNames.articlesNarrated,
    ]);
    server = await startFeedServer();
    await Promise.all([
      start('enricher', { ENRICHER_GROUP: `narration-enricher-${run}`, ENRICHER_FROM_BEGINNING: 'false' }),
      start('narrator', { NARRATOR_GROUP: `narration-embedded-${run}`, NARRATOR_FROM_BEGINNING: 'false' }),
    ]);
  }, 180_000);

  afterAll(async () => {
    poller?.child.kill('SIGKILL');
    await Promise.all(services.map((s) => s.stop()));
    await recorder?.stop();
    await speech?.close();
    await server?.close();
    await stack?.close();
    if (audioDir) await rm(audioDir, { recursive: true, force: true });
  }, 60_000);

  const subscribe = async (feedPath: string, name: string) => {
    const added = await stack.call<Subscribed>('POST', '/v1/sources', {
      url: `${server.url}${feedPath}`,
      name,
      category: 'business',
      country: 'gb',
    });
    expect(added.status, added.text).toBe(201);
    return added.body.source.id;
  };

  it('narrates polled BBC articles: audio_url in the list and the detail downloads, without a key, as mp3 that fits the text', async () => {
    const source = await subscribe('/corpus/business.rss?count=2&published=recent', `BBC business ${run}`);
    poller = startPoller({
      POLLER_GROUP: `narration-poller-${run}`,
      REDIS_KEY_PREFIX: `test:${run}:`,
      OUTBOUND_ALLOW_LIST: '127.0.0.1',
    });
    const articles = await watching(
      waitFor(
        async () => {
          const list = await stack.call<ArticleList>('GET', `/v1/articles?source=${source}&limit=10`);
          // not narrated yet, an article's audio_url is its narration URL (/v1/articles/{id}/audio)
          const narrated = await withEnrichment(
            stack.clickhouse,
            list.body.articles.filter((a) => isFileUrl(a.audio_url)),
          );
          return narrated.length === 2 ? narrated : null;
        },
        'both BBC articles to be enriched and narrated',
        150_000,
        250,
      ),
    );
    const voices = await stack.call<VoiceList>('GET', '/v1/voices?language=en');
    expect(voices.status, voices.text).toBe(200);
    const rows = new Map((await narrationRows(articles.map((a) => a.id))).map((r) => [r.article_id, r]));

    for (const article of articles) {
      const audioUrl = article.audio_url;
      // Absolute, on this API, signed (the key alone is refused), and the detail names the same file.
      expect(audioUrl.startsWith(`${stack.api.url}/v1/audio/`)).toBe(true);
      expect(audioUrl).toMatch(/[?&]signature=/);
      const detail = await stack.call<ArticleDetail>('GET', `/v1/articles/${article.id}`);
      expect(new URL(detail.body.audio_url).pathname).toBe(new URL(audioUrl).pathname);
      expect((await fetch(audioUrl.split('?')[0]!)).status).toBe(403);

      const row = rows.get(article.id)!;
      expect(row).toMatchObject({
        status: 'succeeded',
        provider: 'embedded',
        format: 'mp3',
        failure_reason: null,
      });
      expect(new URL(audioUrl).pathname).toBe(`/v1/audio/${row.audio_key}`);
      const voice = voices.body.voices.find((v) => v.id === row.voice);
      expect(voice, `voice ${row.voice} in GET /v1/voices`).toBeDefined();

      const { contentType, bytes } = await download(audioUrl);
      expect(contentType).toBe('audio/mpeg');
      expect(await probeAudio(bytes)).toMatchObject({
        container: 'mp3',
        codec: 'mp3',
        sampleRate: voice!.sample_rate_hz,
        channels: 1,
      });
      const pcm = await decodeAudio(bytes);
      const seconds = durationMs(pcm) / 1000;
      // The narration reads the headline and the AI summary (services/narration/narration-text.ts); its
      // figures count as the words they are read as.
      const spoken = spokenWords(`${article.title} ${article.ai_summary}`);
      const wordsPerMinute = (spoken / seconds) * 60;
      expect(wordsPerMinute, `${spoken} words in ${seconds} s`).toBeGreaterThanOrEqual(120);
      expect(wordsPerMinute, `${spoken} words in ${seconds} s`).toBeLessThanOrEqual(220);
      expect(Math.abs(row.duration_ms! - seconds * 1000)).toBeLessThan(0.05 * seconds * 1000);
      expect(rmsDbfs(pcm), 'loudness (dBFS)').toBeGreaterThan(-35);
      expect(clippedShare(pcm), 'share of clipped samples').toBeLessThan(0.001);

      const enriched = recorder
        .of<ArticleEnriched>(topicNames.articlesEnriched)
        .find((e) => e.value.article_id === article.id)!.value;
      const narrated = narrationsOf(article.id)[0]!;
      console.log(
        `narrated "${article.title}": ${spoken} words, ${seconds.toFixed(1)} s of audio ` +
          `(${Math.round(wordsPerMinute)} wpm, ${row.voice}), ${narrated.occurred_at - enriched.occurred_at} ms ` +
          'from its enrichment to its narration event',
      );
    }
  }, 240_000);

  it('records an article in a language no voice speaks as skipped, saying why; its audio URL answers 404 saying why', async () => {
    server.setMutable(hausaFeed(run, server.url));
    const source = await subscribe('/mutable.xml', `Labarai ${run}`);
    const [article] = await watching(
      waitFor(
        async () => {
          const list = await stack.call<ArticleList>('GET', `/v1/articles?source=${source}`);
          const [only] = list.body.articles;
          return only && (await narrationRows([only.id])).length > 0 ? list.body.articles : null;
        },
        'the Hausa article to be polled and its narration recorded',
        120_000,
        250,
      ),
    );
    const expected = {
      status: 'skipped',
      failure_reason: 'no voice speaks ha',
      audio_key: null,
      audio_url: null,
    };
    expect(await narrationRows([article!.id])).toEqual([expect.objectContaining(expected)]);
    expect(narrationsOf(article!.id)).toEqual([expect.objectContaining(expected)]);
    // its audio_url is the article's narration URL, which says why there is none (the API cannot narrate
    // it on request either)
    const detail = await stack.call<ArticleDetail>('GET', `/v1/articles/${article!.id}`);
    expect(detail.body.language).toBe('ha');
    for (const url of [article!.audio_url, detail.body.audio_url]) {
      expect(new URL(url).pathname).toBe(`/v1/articles/${article!.id}/audio`);
      const answer = await fetch(url, { redirect: 'manual' });
      const body = (await answer.json()) as { error: { code: string; message: string } };
      expect([answer.status, body.error.code]).toEqual([404, 'not_found']);
      expect(body.error.message).toMatch(/has no narration: no voice speaks ha$/);
    }
  }, 180_000);

  it('after a SIGKILL mid-batch and a restart, every article is narrated and no file is synthesized twice; a replay synthesizes nothing', async () => {
    // Only the narrator under test may narrate from here on.
    poller?.child.kill('SIGKILL');
    await Promise.all(services.splice(0).map((s) => s.stop()));

    speech = await startOpenAiSpeechServer();
    // Slow answers: a piece is in flight for most of a second, so the kill lands while pieces are out.
    speech.plan(...Array.from({ length: 200 }, () => ({ delayMs: 700 })));
    const count = 12;
    const ids = Array.from({ length: count }, (_, n) => `narration-${run}-${n + 1}`);
    const marker = (n: number) => `story ${n + 1}:`;
    const articles = ids.map((id, n) =>
      sampleArticle(n + 1, {
        article_id: id,
        source_id: `source-${run}`,
        source_name: `Wire ${run}`,
        title: `Wire ${run} ${marker(n)} markets move on the news`,
        summary: `Summary of ${marker(n)}`,
        content: `The text of ${marker(n)} shares moved.`,
        published_at: Date.now(),
      }),
    );
    await stack.producer.send(
      topicNames.articlesDiscovered,
      articles.map((a) => ({ key: a.article_id, value: a })),
    );
    await waitFor(
      async () =>
        (await stack.clickhouse.query(`SELECT article_id FROM articles WHERE source_id = 'source-${run}'`))
          .length === count,
      'the articles in the read model',
      60_000,
    );

    const group = `narration-crash-${run}`;
    const startOffsets = await topicEnds(stack.kafka, topicNames.articlesEnriched);
    await placeGroup(stack.kafka, group, topicNames.articlesEnriched, startOffsets);
    const narratorEnv = {
      NARRATOR_GROUP: group,
      SPEECH_PROVIDER: 'openai',
      OPENAI_SPEECH_BASE_URL: speech.baseUrl,
      OPENAI_SPEECH_API_KEY: speech.apiKey,
    };
    const first = await start('narrator', narratorEnv);
    expect(speech.requests, 'requests before any enrichment').toHaveLength(0);

    const enrichedAt = Date.now();
    await stack.producer.send(
      topicNames.articlesEnriched,
      ids.map((id, n) => ({
        key: id,
        value: sampleEnrichment(id, enrichedAt, {
          summary: `Shares of the company in ${marker(n)} rose after the announcement, analysts said.`,
        }),
      })),
    );

    // Kill while it narrates: some files stored, some pieces at the server.
    await watching(waitFor(() => speech!.requests.length >= 5, 'five speech requests', 60_000, 10));
    first.child.kill('SIGKILL');
    await first.exited;
    const requestedBeforeKill = speech.requests.length;
    const storedAtKill = await storedKeys(audioDir);

    await start('narrator', narratorEnv);
    await watching(
      waitFor(
        () => ids.every((id) => narrationsOf(id).some((n) => n.status === 'succeeded')),
        'every article narrated after the restart',
        120_000,
        250,
      ),
    );

    // Outcomes: only successes, one file per article. At least once allows an outcome appended twice
    // (a batch whose offsets were not committed before the kill is delivered again), never two files.
    const keyOf = new Map<string, string>();
    let outcomes = 0;
    for (const id of ids) {
      const narrations = narrationsOf(id);
      outcomes += narrations.length;
      expect(narrations.map((n) => n.status)).toEqual(narrations.map(() => 'succeeded'));
      expect(new Set(narrations.map((n) => n.provider))).toEqual(new Set(['openai']));
      const keys = new Set(narrations.map((n) => n.audio_key));
      expect(keys.size, `audio keys of ${id}`).toBe(1);
      keyOf.set(id, [...keys][0]!);
    }
    const rows = await waitFor(
      async () => {
        const found = await narrationRows(ids);
        return found.length === count ? found : null;
      },
      'every narration in the read model',
      30_000,
    );
    for (const row of rows)
      expect(row).toMatchObject({ status: 'succeeded', audio_key: keyOf.get(row.article_id) });

    // Provider calls per text. One piece per text here (the texts are far below OpenAI's 4,096 characters).
    const calls = ids.map((_, n) => {
      const requestsOf = (from: number, to: number) =>
        speech!.requests.slice(from, to).filter((r) => String(r.body?.input).includes(marker(n))).length;
      return { before: requestsOf(0, requestedBeforeKill), after: requestsOf(requestedBeforeKill, Infinity) };
    });
    const stored = ids.map((id) => storedAtKill.has(keyOf.get(id)!));
    const inFlight = ids.filter((_, n) => calls[n]!.before === 1 && !stored[n]);
    const repeated = ids.filter((_, n) => calls[n]!.before + calls[n]!.after > 1);
    console.log(
      `narrator SIGKILL after ${requestedBeforeKill} provider calls: ${stored.filter(Boolean).length} of ${count} ` +
        `files stored, ${inFlight.length} pieces in flight; after the restart ` +
        `${speech.requests.length - requestedBeforeKill} calls (${repeated.length} repeated); ` +
        `${outcomes} outcomes recorded for ${count} articles`,
    );
    expect(stored.filter(Boolean).length, 'files stored before the kill').toBeGreaterThan(0);
    expect(inFlight.length, 'pieces in flight at the kill').toBeGreaterThan(0);
    for (const [n, id] of ids.entries()) {
      // A file stored before the kill is found after the restart, never requested again.
      if (stored[n]) expect(calls[n]!.after, `calls for ${id} after the restart`).toBe(0);
      // Each process asks for a text at most once (one request per text, identical requests share it).
      expect(calls[n]!.before, `calls for ${id} before the kill`).toBeLessThanOrEqual(1);
      expect(calls[n]!.after, `calls for ${id} after the restart`).toBeLessThanOrEqual(1);
      expect(calls[n]!.before + calls[n]!.after, `calls for ${id}`).toBeGreaterThanOrEqual(1);
    }
    // Only a piece that was at the server when the narrator died, its answer lost with it, is asked
    // again: at most what one process has in flight, two partitions of two articles each (the narrator's
    // partitionsConcurrently and NARRATOR_CONCURRENCY), one piece per article.
    for (const id of repeated) expect(inFlight).toContain(id);
    expect(inFlight.length).toBeLessThanOrEqual(4);
    expect(speech.requests).toHaveLength(count + repeated.length);

    // The files play: one of them through the API, signed, without a key.
    const list = await stack.call<ArticleList>('GET', `/v1/articles?source=source-${run}&limit=20`);
    const withAudio = list.body.articles.filter((a) => isFileUrl(a.audio_url));
    expect(withAudio).toHaveLength(count);
    const { bytes } = await download(withAudio[0]!.audio_url);
    expect(await probeAudio(bytes)).toMatchObject({ container: 'mp3', codec: 'mp3', sampleRate: 24_000 });

    // A replay: a second group from where these enrichments begin narrates them all again from the store.
    const requestsBeforeReplay = speech.requests.length;
    const outcomesBeforeReplay = ids.flatMap(narrationsOf).length;
    const replayGroup = `narration-replay-${run}`;
    await placeGroup(stack.kafka, replayGroup, topicNames.articlesEnriched, startOffsets);
    await start('narrator', { ...narratorEnv, NARRATOR_GROUP: replayGroup });
    await watching(
      waitFor(
        () => ids.flatMap(narrationsOf).length >= outcomesBeforeReplay + count,
        'the replay to narrate every article again',
        60_000,
        250,
      ),
    );
    for (const id of ids) {
      expect(new Set(narrationsOf(id).map((n) => n.audio_key))).toEqual(new Set([keyOf.get(id)]));
    }
    expect(speech.requests.length - requestsBeforeReplay, 'provider calls during the replay').toBe(0);
  }, 300_000);
});
