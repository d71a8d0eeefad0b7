// News alerts end to end, every component real: a monitor created through the API; feed items served
// locally -> a poller process -> Kafka -> an enricher process -> a narrator process beside the matcher
// process, as deployed (the matcher waits for the narration) -> news.alerts.v1 -> the dispatcher process
// -> a signed POST at a local receiver, which the reference Standard Webhooks verifier accepts, whose
// data.audio_url downloads without a key as the article's narration. Reports p50 and p99 of the delay
// from the poll that fetched an item to the alert's arrival. Also: article.published to a filtered
// webhook, whose audio_url (sent before the narration, as a rule) plays the narration too, and nothing
// for another tenant's monitor, and no second alert when another feed carries one of the stories.
import { isoSecond } from '../../services/runtime/iso-second.ts';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeAudio, probeAudio } from '../../services/speech/audio-probe.ts';
import { durationMs, rmsDbfs } from '../../services/speech/pcm.ts';
import type { components } from '../api-client/schema.d.ts';
import { startFeedServer, type FeedServer } from '../support/feed-server.ts';
import { startApiStack, type ApiStack } from './support/api-stack.ts';
import { startPoller, type PollerProcess } from './support/poller-process.ts';
import { startServiceProcess, type ServiceProcess } from './support/service-process.ts';
import { waitFor } from './support/wait.ts';
import { startWebhookReceiver, type WebhookReceiver } from './support/webhook-receiver.ts';

type MonitorCreated = components['schemas']['MonitorCreated'];
type WebhookCreated = components['schemas']['WebhookCreated'];
type Subscribed = components['schemas']['SourceSubscribed'];
type ArticleList = components['schemas']['ArticleList'];

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
};

const story = (run: string, n: number, base: string, at: number) => `<item>
<title>Time Warner ${['settles', 'expands', 'restructures', 'reports', 'hires'][n % 5]} (${run} #${n})</title>
<link>${base}/alerts/${run}/${n}</link><guid isPermaLink="false">alerts-${run}-${n}</guid>
<pubDate>${new Date(at).toUTCString()}</pubDate>
<description>Time Warner said on day ${n} that its AOL unit would change course. Analysts in New York
expect the media group to report higher profits. Shares rose ${n}% in early trading.</description>
<source url="https://wire.example/">Harbour Wire</source></item>`;

const feed = (run: string, base: string, items: string[]) =>
  `<?xml version="1.0" encoding="UTF-8"?><rss version="2.0"><channel><title>Alerts ${run}</title>
<link>${base}/</link><language>en-gb</language>${items.join('\n')}</channel></rss>`;

describe('news alerts end to end', () => {
  let stack: ApiStack;
  let server: FeedServer;
  let receiver: WebhookReceiver;
  let run: string;
  let poller: PollerProcess | undefined;
  let audioDir: string;
  const services: ServiceProcess[] = [];

  const start = async (
    name: 'enricher' | 'narrator' | 'matcher' | 'dispatcher',
    env: Record<string, string>,
    ready: string,
  ) => {
    const service = startServiceProcess(name, {
      CLICKHOUSE_DATABASE: stack.database,
      OUTBOUND_ALLOW_LIST: '127.0.0.1',
      // The narrator stores audio where the API serves it from; the dispatcher signs URLs of this API.
      AUDIO_DIR: audioDir,
      API_PUBLIC_URL: stack.api.url,
      LOG_LEVEL: 'info',
      ...env,
    });
    services.push(service);
    await waitFor(() => service.output().includes(ready), `the ${name} to start`, 90_000).catch(
      (error: Error) => {
        throw new Error(`${error.message}\n${name} output:\n${service.output()}`);
      },
    );
    return service;
  };
  let matcher: ServiceProcess;

  beforeAll(async () => {
    audioDir = await mkdtemp(path.join(tmpdir(), 'alerts-audio-'));
    stack = await startApiStack('alerts', { AUDIO_DIR: audioDir });
    run = stack.run;
    server = await startFeedServer({ corpus: [] });
    receiver = await startWebhookReceiver();
    await Promise.all([
      start(
        'enricher',
        { ENRICHER_GROUP: `alerts-enricher-${run}`, ENRICHER_FROM_BEGINNING: 'false' },
        'partitions assigned',
      ),
      start(
        'narrator',
        { NARRATOR_GROUP: `alerts-narrator-${run}`, NARRATOR_FROM_BEGINNING: 'false' },
        'partitions assigned',
      ),
      start('matcher', { MATCHER_GROUP: `alerts-matcher-${run}` }, 'partitions assigned').then(
        (service) => (matcher = service),
      ),
      start(
        'dispatcher',
        { DISPATCHER_GROUP: `alerts-dispatcher-${run}`, DISPATCHER_FROM_BEGINNING: 'false' },
        'dispatcher started',
      ),
    ]);
  }, 180_000);

  // Each service exits within its 30 s grace (runtime/lifecycle.ts) however its stop goes, and the
  // stack's close comes after: 60 s for all of it ran out once in CI. A slow stop prints what the service
  // wrote last (support/service-process.ts), so the next one says which service and why.
  afterAll(async () => {
    poller?.child.kill('SIGKILL');
    await Promise.all(services.map((service) => service.stop()));
    await receiver?.close();
    await server?.close();
    await stack?.close();
    if (audioDir) await rm(audioDir, { recursive: true, force: true });
  }, 120_000);

  it('delivers a signed news.alert for every feed item that mentions the monitored company', async () => {
    const monitor = await stack.call<MonitorCreated>('POST', '/api/v1/crm/monitor', {
      contact_id: `contact-${run}`,
      company: 'Time Warner Inc.',
      aliases: ['TimeWarner'],
      alert_webhook: receiver.url('/crm/alerts'),
    });
    expect(monitor.status, monitor.text).toBe(201);
    const secret = monitor.body.signing.secret!;
    // Another tenant's monitor of another company at another URL: it must receive nothing.
    const other = await stack.call<MonitorCreated>(
      'POST',
      '/api/v1/crm/monitor',
      { contact_id: 'theirs', company: 'Globex Corporation', alert_webhook: receiver.url('/other/alerts') },
      { apiKey: stack.otherClient.apiKey },
    );
    expect(other.status, other.text).toBe(201);
    // Breaking news for business articles that mention AOL, to a webhook of the first tenant.
    const breaking = await stack.call<WebhookCreated>('POST', '/api/v1/webhooks', {
      url: receiver.url('/breaking'),
      events: ['article.published'],
      filter: { words: ['AOL'] },
    });
    expect(breaking.status, breaking.text).toBe(201);

    server.setMutable(feed(run, server.url, []));
    const source = await stack.call<Subscribed>('POST', '/v1/sources', {
      url: `${server.url}/mutable.xml`,
      name: `Alerts ${run}`,
      category: 'business',
      country: 'gb',
    });
    expect(source.status, source.text).toBe(201);
    poller = startPoller({
      POLLER_GROUP: `alerts-poller-${run}`,
      REDIS_KEY_PREFIX: `test:${run}:`,
      OUTBOUND_ALLOW_LIST: '127.0.0.1',
    });
    await waitFor(() => (server.hits.get('/mutable.xml') ?? 0) > 0, 'the first poll', 60_000);

    const delays: number[] = [];
    // From a feed's archive (2005): not news of the company, so no alert, though it names it.
    const items: string[] = [story(run, 0, server.url, Date.UTC(2005, 2, 1, 9))];
    const publishedAt = new Map<string, string>();
    for (let n = 1; n <= 5; n++) {
      const at = Math.floor((Date.now() - 60_000) / 1000) * 1000; // as an RFC 822 date says it
      publishedAt.set(`art_${n}`, isoSecond(at));
      items.push(story(run, n, server.url, at));
      server.setMutable(feed(run, server.url, items));
      const hitsBefore = server.hits.get('/mutable.xml') ?? 0;
      const fetched = await waitFor(
        () => ((server.hits.get('/mutable.xml') ?? 0) > hitsBefore ? Date.now() : null),
        `the poll that fetches item ${n}`,
        60_000,
        20,
      );
      const received = await waitFor(
        () => receiver.requests('/crm/alerts').find((r) => r.body.includes(`#${n})`)),
        `the alert for item ${n}`,
        90_000,
        20,
      ).catch((error: Error) => {
        throw new Error(`${error.message}\n${services.map((s) => s.output().slice(-2000)).join('\n---\n')}`);
      });
      delays.push(received.receivedAt - fetched);
    }
    console.log(
      `alert delay from the poll that fetched the item to the signed POST: p50 ${percentile(delays, 50)} ms, ` +
        `p99 ${percentile(delays, 99)} ms (n=${delays.length}: ${delays.join(', ')} ms)`,
    );

    const alerts = receiver.requests('/crm/alerts');
    expect(alerts).toHaveLength(5); // one per item of this week, none twice
    const verifier = new StandardWebhook(secret);
    const audioPaths: string[] = [];
    for (const request of alerts) {
      const payload = verifier.verify(request.body, request.headers) as {
        event: string;
        timestamp: string;
        data: Record<string, unknown>;
      };
      expect(payload.event).toBe('news.alert');
      expect(Date.parse(payload.timestamp)).toBeGreaterThan(0);
      expect(payload.data).toMatchObject({
        contact_id: `contact-${run}`,
        company: 'Time Warner Inc.',
        // The feed the article was found in, and the outlet its item names (RSS <source>).
        article_source: `Alerts ${run}`,
        article_publisher: { name: 'Harbour Wire', url: 'https://wire.example/' },
      });
      expect(payload.data.news_summary).toEqual(expect.stringContaining('Time Warner'));
      const n = /#(\d+)\)/.exec(String(payload.data.article_title))![1];
      expect(payload.data.article_published_at).toBe(publishedAt.get(`art_${n}`));
      // The article's narration, signed for this API, fetched as a podcast player would: no key. The
      // file's URL when the narration was there before the alert (the matcher waits for it a while),
      // else the article's narration URL, which redirects to the file.
      const audioUrl = String(payload.data.audio_url);
      const articleAudio = `${stack.api.url}/v1/articles/${String(payload.data.article_id)}/audio?`;
      expect(
        audioUrl.startsWith(`${stack.api.url}/v1/audio/`) || audioUrl.startsWith(articleAudio),
        audioUrl,
      ).toBe(true);
      const audio = await fetch(audioUrl);
      expect(audio.status, audioUrl).toBe(200);
      expect(audio.headers.get('content-type')).toBe('audio/mpeg');
      const bytes = new Uint8Array(await audio.arrayBuffer());
      expect(await probeAudio(bytes)).toMatchObject({ container: 'mp3', codec: 'mp3', channels: 1 });
      const pcm = await decodeAudio(bytes);
      expect(durationMs(pcm)).toBeGreaterThan(2_000);
      expect(rmsDbfs(pcm), 'loudness (dBFS)').toBeGreaterThan(-35);
      audioPaths.push(new URL(audio.url).pathname); // the file's, after any redirect
      // Altered body or timestamp: the reference verifier refuses it.
      expect(() => verifier.verify(request.body.replace('Time', 'Tame'), request.headers)).toThrow();
      expect(() =>
        verifier.verify(request.body, {
          ...request.headers,
          'webhook-timestamp': String(Number(request.headers['webhook-timestamp']) - 1),
        }),
      ).toThrow();
    }
    expect(new Set(alerts.map((r) => r.headers['webhook-id'])).size).toBe(5);
    // Each alert carries its own article's narration: the file the API lists for that article.
    const articles = await stack.call<ArticleList>(
      'GET',
      `/v1/articles?source=${source.body.source.id}&limit=10`,
    );
    const alerted = articles.body.articles.filter((a) => !a.title.includes('#0)'));
    expect(alerted.map((a) => new URL(a.audio_url).pathname).sort()).toEqual(audioPaths.sort());
    expect(receiver.requests('/other/alerts')).toHaveLength(0);

    // article.published: every item mentions AOL, so each went to the breaking-news webhook too.
    const published = await waitFor(
      () => (receiver.requests('/breaking').length >= 5 ? receiver.requests('/breaking') : null),
      'five article.published deliveries',
      60_000,
    );
    const first = new StandardWebhook(breaking.body.secret).verify(
      published[0]!.body,
      published[0]!.headers,
    ) as {
      event: string;
      data: { source: string };
    };
    expect(first).toMatchObject({
      event: 'article.published',
      data: {
        source: `Alerts ${run}`,
        publisher: { name: 'Harbour Wire', url: 'https://wire.example/' },
      },
    });
    // Sent as each article was enriched, usually before its narration: its audio_url is then the
    // article's narration URL, and it plays the article's file once the narrator has made it.
    const listed = new Map(articles.body.articles.map((a) => [a.id, new URL(a.audio_url).pathname]));
    // (The archive's item, which the narrator skipped as old, aside: it is narrated on request, later.)
    for (const request of published.filter((r) => !r.body.includes('#0)'))) {
      const { data } = new StandardWebhook(breaking.body.secret).verify(request.body, request.headers) as {
        data: { article_id: string; audio_url: string };
      };
      expect(data.audio_url, 'article.published carries audio').toEqual(expect.any(String));
      const audio = await waitFor(
        async () => {
          const response = await fetch(data.audio_url);
          return response.status === 200 ? response : null;
        },
        `the audio of article.published ${data.article_id}`,
        30_000,
      );
      expect(audio.headers.get('content-type')).toBe('audio/mpeg');
      expect(new URL(audio.url).pathname).toBe(listed.get(data.article_id));
    }

    // The first story again from a second feed of the publisher (its own guid, the same link): another
    // article with the same canonical URL, which raises no second alert for the monitor.
    const copyItem = story(run, 1, server.url, Date.now() - 60_000).replace(
      `alerts-${run}-1`,
      `copy-${run}-1`,
    );
    server.setFeed(`copy-${run}`, feed(run, server.url, [copyItem]));
    const copy = await stack.call<Subscribed>('POST', '/v1/sources', {
      url: `${server.url}/feeds/copy-${run}.xml`,
      name: `Alerts copy ${run}`,
      category: 'business',
      country: 'gb',
    });
    expect(copy.status, copy.text).toBe(201);
    await waitFor(
      () => {
        const output = matcher.output();
        return output.includes('no alert for articles whose URL') && output.includes(`/alerts/${run}/1"`);
      },
      'the matcher to pass over the copy of story 1',
      120_000,
    );
    const copies = await stack.call<ArticleList>('GET', `/v1/articles?source=${copy.body.source.id}`);
    expect(copies.body.articles.map((a) => a.url)).toEqual([`${server.url}/alerts/${run}/1`]);
    expect(receiver.requests('/crm/alerts')).toHaveLength(5);
  }, 420_000);
});
