// A documentary through the whole pipeline, every component a real process: BBC corpus feeds served
// locally and added as the tenant's own source -> a poller -> the enricher -> the narrator -> the
// projector -> a documentary requested through the API (sources: internal) -> the documentarian -> the
// dispatcher -> a local receiver playing the customer's endpoint. The signed documentary.ready it gets
// verifies; its audio_url decodes to the promised length band; its transcript's cues are in order and
// cover the audio; every cited article answers 200.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseWebVtt } from '../../services/documentaries/transcript.ts';
import { decodeAudio } from '../../services/speech/audio-probe.ts';
import { durationMs } from '../../services/speech/pcm.ts';
import { documentaryReadyPayload } from '../../services/webhooks/payloads.ts';
import type { components } from '../api-client/schema.d.ts';
import { startFeedServer, type FeedServer } from '../support/feed-server.ts';
import { startApiStack, type ApiStack } from './support/api-stack.ts';
import { startPoller, type PollerProcess } from './support/poller-process.ts';
import { startServiceProcess, type ServiceProcess } from './support/service-process.ts';
import { waitFor } from './support/wait.ts';
import { startWebhookReceiver, type WebhookReceiver } from './support/webhook-receiver.ts';
import { withEnrichment } from './support/enriched.ts';

type Subscribed = components['schemas']['SourceSubscribed'];
type ArticleList = components['schemas']['ArticleList'];
type WebhookCreated = components['schemas']['WebhookCreated'];
type Documentary = components['schemas']['Documentary'];

describe('a documentary through the whole pipeline', () => {
  let stack: ApiStack;
  let server: FeedServer;
  let receiver: WebhookReceiver;
  let audioDir: string;
  let poller: PollerProcess | undefined;
  const services: ServiceProcess[] = [];

  const start = async (
    name: Parameters<typeof startServiceProcess>[0],
    env: Record<string, string>,
    ready: string,
  ) => {
    const service = startServiceProcess(name, {
      CLICKHOUSE_DATABASE: stack.database,
      AUDIO_DIR: audioDir,
      API_PUBLIC_URL: stack.api.url,
      OUTBOUND_ALLOW_LIST: '127.0.0.1',
      LOG_LEVEL: 'info',
      ...env,
    });
    services.push(service);
    await waitFor(() => service.output().includes(ready), `the ${name} to start`, 90_000).catch(
      (error: Error) => {
        throw new Error(`${error.message}\n${name} output:\n${service.output()}`);
      },
    );
  };

  const watching = async <T>(wait: Promise<T>): Promise<T> => {
    try {
      return await wait;
    } catch (error) {
      const outputs = services.map((s) => s.output().slice(-2000)).join('\n---\n');
      throw new Error(`${(error as Error).message}\nservice output:\n${outputs}`);
    }
  };

  beforeAll(async () => {
    audioDir = await mkdtemp(path.join(tmpdir(), 'documentary-pipeline-'));
    stack = await startApiStack('docpipe', { AUDIO_DIR: audioDir });
    const run = stack.run;
    server = await startFeedServer();
    receiver = await startWebhookReceiver();
    await Promise.all([
      start(
        'enricher',
        { ENRICHER_GROUP: `docpipe-enricher-${run}`, ENRICHER_FROM_BEGINNING: 'false' },
        'partitions assigned',
      ),
      start(
        'narrator',
        { NARRATOR_GROUP: `docpipe-narrator-${run}`, NARRATOR_FROM_BEGINNING: 'false' },
        'partitions assigned',
      ),
      start(
        'documentarian',
        { DOCUMENTARIAN_GROUP: `docpipe-documentarian-${run}`, DOCUMENTARIAN_FROM_BEGINNING: 'false' },
        'partitions assigned',
      ),
      start(
        'dispatcher',
        { DISPATCHER_GROUP: `docpipe-dispatcher-${run}`, DISPATCHER_FROM_BEGINNING: 'false' },
        'dispatcher started',
      ),
    ]);
  }, 240_000);

  afterAll(async () => {
    poller?.child.kill('SIGKILL');
    await Promise.all(services.map((s) => s.stop()));
    await receiver?.close();
    await server?.close();
    await stack?.close();
    if (audioDir) await rm(audioDir, { recursive: true, force: true });
  }, 60_000);

  it('polled BBC business news becomes a short documentary, delivered as a signed documentary.ready', async () => {
    const run = stack.run;
    const added = await stack.call<Subscribed>('POST', '/v1/sources', {
      url: `${server.url}/corpus/business.rss?count=20&published=recent`,
      name: `BBC business ${run}`,
      category: 'business',
      country: 'gb',
    });
    expect(added.status, added.text).toBe(201);
    const source = added.body.source.id;
    poller = startPoller({
      POLLER_GROUP: `docpipe-poller-${run}`,
      REDIS_KEY_PREFIX: `test:${run}:`,
      OUTBOUND_ALLOW_LIST: '127.0.0.1',
    });
    await watching(
      waitFor(
        async () => {
          const list = await stack.call<ArticleList>('GET', `/v1/articles?source=${source}&limit=50`);
          return (await withEnrichment(stack.clickhouse, list.body.articles)).length >= 20;
        },
        'the 20 BBC business articles to be polled and enriched',
        180_000,
        500,
      ),
    );
    const hook = await stack.call<WebhookCreated>('POST', '/api/v1/webhooks', {
      url: receiver.url('/documentaries'),
      events: ['documentary.ready'],
    });
    expect(hook.status, hook.text).toBe(201);

    const asked = await stack.call<Documentary>('POST', '/api/v1/documentaries', {
      topic: 'the economy',
      sources: ['internal'],
      length: 'short',
    });
    expect(asked.status, asked.text).toBe(202);
    const [delivery] = await watching(
      waitFor(
        () => (receiver.requests('/documentaries').length > 0 ? receiver.requests('/documentaries') : null),
        'documentary.ready at the receiver',
        180_000,
        100,
      ),
    );
    const payload = documentaryReadyPayload.parse(
      new StandardWebhook(hook.body.secret).verify(delivery!.body, delivery!.headers),
    );
    expect(payload.data).toMatchObject({ documentary_id: asked.body.id, topic: 'the economy' });

    // The audio: signed, no key needed, about two minutes.
    const audio = await fetch(payload.data.audio_url);
    expect(audio.status).toBe(200);
    const pcm = await decodeAudio(new Uint8Array(await audio.arrayBuffer()));
    const seconds = durationMs(pcm) / 1000;
    expect(Math.abs(seconds * 1000 - payload.data.duration_ms)).toBeLessThan(200);
    expect(seconds).toBeGreaterThan(60);
    expect(seconds).toBeLessThan(170);

    // The transcript: cues in order, covering the audio.
    const cues = parseWebVtt(await (await fetch(payload.data.transcript_url!)).text());
    for (let i = 1; i < cues.length; i++) expect(cues[i]!.startMs).toBeGreaterThanOrEqual(cues[i - 1]!.endMs);
    expect(cues[0]!.startMs).toBeLessThan(1_000);
    expect(payload.data.duration_ms - cues.at(-1)!.endMs).toBeLessThan(1_500);

    // The citations: the tenant's own articles, each answering 200.
    const documentary = (await stack.call<Documentary>('GET', `/api/v1/documentaries/${asked.body.id}`)).body;
    expect(documentary.status).toBe('ready');
    expect(documentary.articles.length).toBeGreaterThan(0);
    for (const article of documentary.articles) {
      expect((await stack.call('GET', `/v1/articles/${article.id}`)).status, article.id).toBe(200);
    }
  }, 420_000);

  it('a documentary cancelled while it is being made stops there: nothing more is narrated or sent', async () => {
    // After the first test: the articles are there, and a webhook subscribed to documentary.ready.
    const asked = await stack.call<Documentary>('POST', '/api/v1/documentaries', {
      topic: 'the economy',
      sources: ['internal'],
      length: 'long',
    });
    expect(asked.status, asked.text).toBe(202);
    const id = asked.body.id;
    const underWay = await watching(
      waitFor(
        async () => {
          const d = (await stack.call<Documentary>('GET', `/api/v1/documentaries/${id}`)).body;
          return ['gathering', 'scripting', 'narrating'].includes(d.status) ? d : null;
        },
        'the documentary to be under way',
        60_000,
        50,
      ),
    );
    const cancelled = await stack.call<Documentary>('POST', `/api/v1/documentaries/${id}/cancel`);
    expect(cancelled.status, `${cancelled.text} (it was ${underWay.status})`).toBe(200);
    expect(cancelled.body.status).toBe('cancelled');

    const documentarian = services.find((s) => s.output().includes('making a documentary'))!;
    await watching(
      waitFor(
        () => documentarian.output().includes(`"documentaryId":"${id}","msg":"documentary cancelled"`),
        'the documentarian to stop',
        30_000,
      ),
    );
    // Its newest event is the documentarian's own `cancelled`, and nothing follows it.
    const events = async () =>
      stack.clickhouse.query<{ status: string; stage: string | null }>(
        `SELECT status, stage FROM documentaries WHERE documentary_id = '${id}' ORDER BY version`,
      );
    await waitFor(
      async () => (await events()).filter((e) => e.status === 'cancelled').length === 2,
      'its second cancel',
    );
    const before = await events();
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    const after = await events();
    expect(after).toEqual(before);
    expect(after.at(-1)!.status).toBe('cancelled');
    expect(after.map((e) => e.status)).not.toContain('ready');
    expect((await stack.call<Documentary>('GET', `/api/v1/documentaries/${id}`)).body.status).toBe(
      'cancelled',
    );
    expect(receiver.requests('/documentaries').filter((r) => r.body.includes(id))).toEqual([]);
  }, 180_000);
});
