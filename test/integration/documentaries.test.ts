// Documentaries end to end on the real stack: the BBC corpus appended as articles of a catalog source, a
// documentary processor process (embedded voices), and the API: a request for a topic in the corpus
// goes through its steps to ready; its audio_url plays without a key as mp3 of the promised length, with
// a chapter per segment; its WebVTT transcript's cues are in order and cover the audio; every cited
// article answers 200; a topic with no article ends failed with no_articles; another tenant sees nothing.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readCorpus } from '../../services/demo/corpus.ts';
import { parseWebVtt } from '../../services/documentaries/transcript.ts';
import type { ArticleDiscovered, Source } from '../../services/runtime/events/types.generated.ts';
import { topicNames } from '../../services/runtime/kafka/topics.ts';
import { decodeAudio, probeAudio } from '../../services/speech/audio-probe.ts';
import { durationMs } from '../../services/speech/pcm.ts';
import type { components } from '../api-client/schema.d.ts';
import { startChatCompletionsServer } from '../support/chat-completions-server.ts';
import { startOpenAiSpeechServer, type OpenAiSpeechServer } from '../support/openai-speech-server.ts';
import { faithfulScriptModel } from '../support/script-model.ts';
import { discoveredArticle } from '../support/discovered-article.ts';
import { startApiStack, type ApiStack } from './support/api-stack.ts';
import { placeGroup, topicEnds } from './support/topic-recorder.ts';
import { startServiceProcess, type ServiceProcess } from './support/service-process.ts';
import { waitFor } from './support/wait.ts';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { writeFile } from 'node:fs/promises';

type Documentary = components['schemas']['Documentary'];

describe('documentaries end to end', () => {
  let stack: ApiStack;
  let audioDir: string;
  let documentarian: ServiceProcess | undefined;
  let speech: OpenAiSpeechServer | undefined;
  const started: ServiceProcess[] = [];

  beforeAll(async () => {
    audioDir = await mkdtemp(path.join(tmpdir(), 'documentaries-'));
    stack = await startApiStack('documentary', { AUDIO_DIR: audioDir });
    const run = stack.run;
    const now = Date.now();
    const source: Source = {
      source_id: `src_doc_${run}`,
      name: `BBC corpus ${run}`,
      feed_url: `https://corpus-${run}.example/feed.xml`,
      previous_urls: [],
      site_url: null,
      category: 'general',
      language: 'en',
      country: 'gb',
      active: false,
      poll_interval_seconds: 900,
      created_by_tenant: null,
      created_at: now,
      version: 1,
      occurred_at: now,
    };
    await stack.producer.send(topicNames.sources, [{ key: source.source_id, value: source }]);
    // The corpus as articles of the last three days, an hour apart.
    const articles: ArticleDiscovered[] = readCorpus().map((a, i) =>
      discoveredArticle(`art_doc_${run}_${i}`, now, {
        source_id: source.source_id,
        source_name: 'BBC News',
        guid: `${run}-${a.id}`,
        url: `https://corpus-${run}.example/${a.id}`,
        original_url: `https://corpus-${run}.example/${a.id}`,
        title: a.title,
        summary: a.paragraphs[0] ?? '',
        content: a.paragraphs.join('\n\n'),
        published_at: now - (i + 1) * 3_600_000 * 0.7,
        category: a.category,
      }),
    );
    await stack.producer.send(
      topicNames.articlesDiscovered,
      articles.map((a) => ({ key: a.article_id, value: a })),
    );
    await waitFor(async () => {
      const [row] = await stack.clickhouse.query<{ n: string }>(
        `SELECT count() AS n FROM articles WHERE source_id = '${source.source_id}'`,
      );
      return Number(row!.n) === articles.length;
    }, 'the corpus in the read model');

    documentarian = startServiceProcess('documentarian', {
      CLICKHOUSE_DATABASE: stack.database,
      AUDIO_DIR: audioDir,
      API_PUBLIC_URL: stack.api.url,
      DOCUMENTARIAN_GROUP: `documentarian-${run}`,
      DOCUMENTARIAN_FROM_BEGINNING: 'false',
      LOG_LEVEL: 'info',
    });
    await waitFor(
      () => documentarian!.output().includes('partitions assigned'),
      'the documentarian to join',
      90_000,
    ).catch((error: Error) => {
      throw new Error(`${error.message}\ndocumentarian output:\n${documentarian!.output()}`);
    });
  }, 180_000);

  afterAll(async () => {
    await documentarian?.stop();
    for (const process of started) await process.stop();
    await speech?.close();
    await stack?.close();
    if (audioDir) await rm(audioDir, { recursive: true, force: true });
  }, 60_000);

  const finished = (id: string, timeoutMs = 150_000) =>
    waitFor(
      async () => {
        const d = (await stack.call<Documentary>('GET', `/api/v1/documentaries/${id}`)).body;
        return d.status === 'ready' || d.status === 'failed' ? d : null;
      },
      `documentary ${id} to finish`,
      timeoutMs,
      500,
    ).catch((error: Error) => {
      throw new Error(`${error.message}\ndocumentarian output:\n${documentarian!.output()}`);
    });

  it('makes a short documentary on a topic in the corpus: mp3 of the promised length, chapters, transcript, citations', async () => {
    const asked = await stack.call<Documentary>('POST', '/api/v1/documentaries', {
      topic: 'the economy',
      length: 'short',
    });
    expect(asked.status, asked.text).toBe(202);
    const seen = new Set<string>();
    const ready = await waitFor(
      async () => {
        const d = (await stack.call<Documentary>('GET', `/api/v1/documentaries/${asked.body.id}`)).body;
        seen.add(d.status);
        return d.status === 'ready' || d.status === 'failed' ? d : null;
      },
      'the documentary to be ready',
      150_000,
      300,
    ).catch((error: Error) => {
      throw new Error(`${error.message}\ndocumentarian output:\n${documentarian!.output()}`);
    });
    expect(ready.status, JSON.stringify(ready.failure)).toBe('ready');
    // Progress shown on the way (a step may pass between two looks, but narrating takes seconds).
    expect(seen.has('narrating')).toBe(true);
    expect(ready.progress).toBe(1);

    // The history: every step recorded, in order.
    const history = await stack.clickhouse.query<{ step: string }>(
      `SELECT if(status = 'progressed', assumeNotNull(stage), status) AS step FROM documentaries
       WHERE documentary_id = '${ready.id}' ORDER BY version`,
    );
    const steps = history.map((h) => h.step).filter((s, i, all) => s !== all[i - 1]);
    expect(steps, JSON.stringify(steps)).toEqual([
      'requested',
      'gathering',
      'scripting',
      'narrating',
      'assembling',
      'ready',
    ]);

    // The audio: no key needed, mp3, about two minutes (short), a chapter per segment.
    const audio = await fetch(ready.audio_url!);
    expect(audio.status).toBe(200);
    expect(audio.headers.get('content-type')).toBe('audio/mpeg');
    const bytes = new Uint8Array(await audio.arrayBuffer());
    expect((await probeAudio(bytes)).codec).toBe('mp3');
    const pcm = await decodeAudio(bytes);
    const seconds = durationMs(pcm) / 1000;
    expect(Math.abs(seconds * 1000 - ready.duration_ms!)).toBeLessThan(200);
    expect(seconds).toBeGreaterThan(75);
    expect(seconds).toBeLessThan(170);
    const file = path.join(audioDir, 'downloaded.mp3');
    await writeFile(file, bytes);
    const { stdout } = await promisify(execFile)('ffprobe', [
      ...['-v', 'error', '-of', 'json', '-show_chapters', file],
    ]);
    const chapters = (JSON.parse(stdout) as { chapters: { tags?: { title?: string } }[] }).chapters;
    expect(chapters.map((c) => c.tags?.title)).toEqual(ready.chapters.map((c) => c.title));
    expect(ready.chapters.map((c) => c.kind)[0]).toBe('intro');
    expect(ready.chapters.at(-1)!.kind).toBe('outro');
    expect(ready.chapters.filter((c) => c.kind === 'story').length).toBeGreaterThan(0);

    // The transcript: cues in order, covering the audio.
    const vtt = await fetch(ready.transcript_url!);
    expect(vtt.status).toBe(200);
    expect(vtt.headers.get('content-type')).toMatch(/^text\/vtt/);
    const cues = parseWebVtt(await vtt.text());
    expect(cues.length).toBeGreaterThan(5);
    for (let i = 1; i < cues.length; i++) expect(cues[i]!.startMs).toBeGreaterThanOrEqual(cues[i - 1]!.endMs);
    expect(cues[0]!.startMs).toBeLessThan(1_000);
    expect(ready.duration_ms! - cues.at(-1)!.endMs).toBeLessThan(1_500);
    const json = await fetch(ready.transcript_json_url!);
    expect(json.headers.get('content-type')).toMatch(/^application\/json/);
    const transcript = (await json.json()) as { segments: { article_ids: string[]; start_ms: number }[] };
    expect(transcript.segments.length).toBe(ready.chapters.length);

    // Every cited article is there, and the story segments cite only those.
    expect(ready.articles.length).toBeGreaterThan(0);
    for (const article of ready.articles) {
      const answer = await stack.call('GET', `/v1/articles/${article.id}`);
      expect(answer.status, article.id).toBe(200);
    }
    const cited = new Set(ready.articles.map((a) => a.id));
    for (const chapter of ready.chapters)
      for (const id of chapter.article_ids) expect(cited.has(id)).toBe(true);
    // And only those: a story the script had no room for is not listed as if it were in the programme.
    const inChapters = new Set(ready.chapters.flatMap((c) => c.article_ids));
    expect(ready.articles.filter((a) => !inChapters.has(a.id)).map((a) => a.title)).toEqual([]);

    // Another tenant cannot read it.
    const other = { apiKey: stack.otherClient.apiKey };
    expect((await stack.call('GET', `/api/v1/documentaries/${ready.id}`, undefined, other)).status).toBe(404);
  }, 200_000);

  it('ends a topic no article is about as failed with no_articles, and no file', async () => {
    const asked = await stack.call<Documentary>('POST', '/api/v1/documentaries', {
      topic: 'zyxwvut quarks',
    });
    expect(asked.status).toBe(202);
    const done = await finished(asked.body.id, 60_000);
    expect(done.status).toBe('failed');
    expect(done.failure?.code).toBe('no_articles');
    expect(done.failure?.reason).toMatch(/no article on "zyxwvut quarks"/);
    expect(done.audio_url).toBeNull();
  }, 90_000);

  it('says so when the articles only mention the topic in passing, rather than that there are none', async () => {
    // A dozen articles of the corpus say "bank" (or "banking", "bankrupt"), none as what it is about.
    const asked = await stack.call<Documentary>('POST', '/api/v1/documentaries', { topic: 'bank' });
    expect(asked.status).toBe(202);
    const done = await finished(asked.body.id, 60_000);
    expect(done.failure?.code).toBe('no_articles');
    expect(done.failure?.reason).toMatch(/^\d+ articles? from .* mention "bank", but only in passing/);
  }, 90_000);
  it('has the script written by the enrichment provider when ENRICHMENT_PROVIDER=openai, checked against the articles', async () => {
    // Only this processor may make documentaries while it runs.
    await documentarian?.stop();
    const model = await startChatCompletionsServer({ respond: faithfulScriptModel });
    const group = `documentarian-openai-${stack.run}`;
    await placeGroup(
      stack.kafka,
      group,
      topicNames.documentaries,
      await topicEnds(stack.kafka, topicNames.documentaries),
    );
    const writer = startServiceProcess('documentarian', {
      CLICKHOUSE_DATABASE: stack.database,
      AUDIO_DIR: audioDir,
      API_PUBLIC_URL: stack.api.url,
      DOCUMENTARIAN_GROUP: group,
      ENRICHMENT_PROVIDER: 'openai',
      OPENAI_BASE_URL: model.baseUrl,
      OPENAI_API_KEY: model.apiKey,
      LOG_LEVEL: 'info',
    });
    try {
      await waitFor(
        () => writer.output().includes('partitions assigned'),
        'the documentarian to join',
        90_000,
      );
      const asked = await stack.call<Documentary>('POST', '/api/v1/documentaries', {
        topic: 'the economy',
        length: 'short',
      });
      expect(asked.status).toBe(202);
      const done = await waitFor(
        async () => {
          const d = (await stack.call<Documentary>('GET', `/api/v1/documentaries/${asked.body.id}`)).body;
          return d.status === 'ready' || d.status === 'failed' ? d : null;
        },
        'the documentary written by the model to finish',
        150_000,
        500,
      ).catch((error: Error) => {
        throw new Error(`${error.message}\ndocumentarian output:\n${writer.output()}`);
      });
      expect(done.status, JSON.stringify(done.failure)).toBe('ready');
      expect(done.script_writer).toBe('openai/gpt-4o-mini');
      expect(model.requests).toHaveLength(1);
      // The model's words were narrated: its intro and its attribution of each story.
      expect(done.chapters[0]!.sentences[0]).toMatch(/^Welcome to this look back at the economy, covering /);
      const stories = done.chapters.filter((c) => c.kind === 'story');
      expect(stories.length).toBeGreaterThan(0);
      for (const story of stories) expect(story.sentences[0]).toMatch(/^According to BBC News, /);
      // Its prompt carried the articles the documentary cites.
      const prompt = String(model.requests[0]!.body?.messages?.[1]?.content);
      for (const article of done.articles.filter((a) => a.story < 3)) expect(prompt).toContain(article.id);
    } finally {
      await writer.stop();
      await model.close();
    }
  }, 300_000);

  it('after a SIGKILL while narrating and a restart, reaches ready once and speaks no sentence twice', async () => {
    // Only the processor under test may make documentaries from here on.
    await documentarian?.stop();
    speech = await startOpenAiSpeechServer();
    // Slow answers: a sentence is at the server for most of a second, so the kill lands mid-narration.
    speech.plan(...Array.from({ length: 400 }, () => ({ delayMs: 400 })));
    // The group starts at the topic's end, committed, so the restarted process resumes from there (a
    // group with nothing committed that starts "at the end" would skip what the first process was doing).
    const group = `documentarian-crash-${stack.run}`;
    await placeGroup(
      stack.kafka,
      group,
      topicNames.documentaries,
      await topicEnds(stack.kafka, topicNames.documentaries),
    );
    const env = {
      CLICKHOUSE_DATABASE: stack.database,
      AUDIO_DIR: audioDir,
      API_PUBLIC_URL: stack.api.url,
      DOCUMENTARIAN_GROUP: group,
      SPEECH_PROVIDER: 'openai',
      OPENAI_SPEECH_BASE_URL: speech.baseUrl,
      OPENAI_SPEECH_API_KEY: speech.apiKey,
      LOG_LEVEL: 'info',
    };
    const join = async () => {
      const process = startServiceProcess('documentarian', env);
      started.push(process);
      await waitFor(
        () => process.output().includes('partitions assigned'),
        'the documentarian to join',
        90_000,
      );
      return process;
    };
    const first = await join();
    const asked = await stack.call<Documentary>('POST', '/api/v1/documentaries', {
      topic: 'the economy',
      length: 'short',
    });
    expect(asked.status).toBe(202);
    await waitFor(() => speech!.requests.length >= 8, 'eight sentences at the speech server', 90_000, 10);
    first.child.kill('SIGKILL');
    await first.exited;
    const beforeKill = speech.requests.length;
    const second = await join();
    const done = await finished(asked.body.id, 150_000).catch((error: Error) => {
      throw new Error(`${error.message}\nrestarted documentarian:\n${second.output()}`);
    });
    expect(done.status, JSON.stringify(done.failure)).toBe('ready');

    // Ready once, whatever the crash interrupted.
    const [ready] = await stack.clickhouse.query<{ n: string }>(
      `SELECT count() AS n FROM documentaries WHERE documentary_id = '${done.id}' AND status = 'ready'`,
    );
    expect(Number(ready!.n)).toBe(1);
    // Every sentence asked for at most once by each process; the only one asked again is the one at the
    // server when the first process died (sentences are spoken one at a time), its answer lost with it.
    const texts = (from: number, to: number) =>
      speech!.requests.slice(from, to).map((r) => String(r.body?.input));
    const before = texts(0, beforeKill);
    const after = texts(beforeKill, Infinity);
    expect(new Set(before).size).toBe(before.length);
    expect(new Set(after).size).toBe(after.length);
    const repeated = after.filter((t) => before.includes(t));
    console.log(
      `documentarian SIGKILL after ${beforeKill} sentences; ${after.length} after the restart, ` +
        `${repeated.length} of them asked before`,
    );
    expect(repeated.length).toBeLessThanOrEqual(1);
    expect(after.length).toBeGreaterThan(0);
    // Every sentence of the script was spoken (identical sentences, such as an attribution, once).
    const spoken = new Set(done.chapters.flatMap((c) => c.sentences));
    expect(new Set([...before, ...after])).toEqual(spoken);
  }, 300_000);
});
