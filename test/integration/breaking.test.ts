// Breaking news on the real stack: five local feeds publish the same event within a minute, a sixth
// publishes another event three times; a poller process polls them -> the enricher -> the clusterer ->
// the dispatcher sends one signed news.breaking (Standard Webhooks, verified with the reference library)
// for the five-source story, and none for the one-source story.
import { Redis } from 'ioredis';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FeedPoll } from '../../services/runtime/events/types.generated.ts';
import { topicNames } from '../../services/runtime/kafka/topics.ts';
import type { components } from '../api-client/schema.d.ts';
import { startFeedServer, type FeedServer } from '../support/feed-server.ts';
import { openSse } from '../support/sse-client.ts';
import { startApiStack, type ApiStack } from './support/api-stack.ts';
import { freePort } from './support/api-process.ts';
import { startPoller, type PollerProcess } from './support/poller-process.ts';
import { startReadyService, type ServiceProcess } from './support/service-process.ts';
import { stack as infrastructure } from './support/stack.ts';
import { recordTopics, type TopicRecorder } from './support/topic-recorder.ts';
import { waitFor } from './support/wait.ts';
import { startWebhookReceiver, type WebhookReceiver } from './support/webhook-receiver.ts';

type WebhookCreated = components['schemas']['WebhookCreated'];
type Subscribed = components['schemas']['SourceSubscribed'];
type ArticleList = components['schemas']['ArticleList'];
type Breaking = components['schemas']['NewsBreakingEvent'];

// One event in five outlets' words.
const outlets = [
  ['Harbour Times', 'Fire destroys Vardo harbour warehouse, Norway police say'],
  ['Nordic Wire', 'Huge fire at Vardo harbour in Norway destroys fish warehouse'],
  ['Coast Radio', 'Vardo harbour fire: warehouse lost, no injuries reported in Norway'],
  ['Arctic Post', 'Firefighters battle blaze at Vardo harbour warehouse in northern Norway'],
  ['Finnmark Daily', 'Vardo harbour warehouse burns down, Norway police investigate fire'],
] as const;
const lead =
  'A fire destroyed a fish warehouse at Vardo harbour in Finnmark, northern Norway, on Tuesday morning. ' +
  'Police said nobody was hurt and the cause of the fire at the Vardo harbour was not yet known.';
// Another event, told three times by one outlet.
const mineLead =
  'The Kiruna iron ore mine in northern Sweden has restarted production after an inspection of its ' +
  'tunnels, its operator said.';
const lonely = [
  'Kiruna mine reopens after tunnel inspection, Sweden operator says',
  'Kiruna iron ore mine back in operation after Sweden tunnel checks',
  'Sweden Kiruna mine restarts production after inspection',
];

describe('breaking news', () => {
  let stack: ApiStack;
  let server: FeedServer;
  let receiver: WebhookReceiver;
  let recorder: TopicRecorder;
  let poller: PollerProcess | undefined;
  let run: string;
  const services: ServiceProcess[] = [];
  // The stack outlives a run, and an earlier run's stories (the same texts) stay open in the clusterer's
  // topic: each run's items are dated in a slot of their own, two hours apart (more than this test's
  // clusterer's join window of one hour), up to 75 days back. Its stories must not close while the run
  // lasts: the clusterer's clock is the newest article it has seen, other test files' articles (dated
  // now) move it on, and at each new hour every story idle for STORY_CLOSE_AFTER_HOURS of that clock
  // closes. With the default 72 hours a slot days back closed between two fire articles whenever
  // another file's article arrived in between, and the fire split into two stories of too few sources.
  let base = Date.now();

  const item = (guid: string, title: string, minutes: number, description = lead) =>
    `<item><guid isPermaLink="false">${guid}</guid><title>${title}</title>` +
    `<link>${server.url}/news/${guid}</link><pubDate>${new Date(base + minutes * 60_000).toUTCString()}</pubDate>` +
    `<description>${description}</description></item>`;
  const feed = (name: string, items: string) =>
    `<?xml version="1.0" encoding="UTF-8"?><rss version="2.0"><channel><title>${name}</title>` +
    `<link>${server.url}/</link><language>en</language>${items}</channel></rss>`;

  const start = (name: 'enricher' | 'clusterer' | 'dispatcher', env: Record<string, string>, ready: string) =>
    startReadyService(
      name,
      { CLICKHOUSE_DATABASE: stack.database, OUTBOUND_ALLOW_LIST: '127.0.0.1', ...env },
      ready,
      services,
    );

  let opsPort = 0;

  beforeAll(async () => {
    opsPort = await freePort();
    stack = await startApiStack('breaking');
    run = stack.run;
    base -= (2 + (Number.parseInt(run.slice(0, 6), 16) % 900) * 2) * 3_600_000;
    server = await startFeedServer({ corpus: [] });
    receiver = await startWebhookReceiver();
    recorder = await recordTopics(stack.kafka, stack.codec, [topicNames.feedPolls]);
    await Promise.all([
      start(
        'enricher',
        { ENRICHER_GROUP: `breaking-enricher-${run}`, ENRICHER_FROM_BEGINNING: 'false' },
        'partitions assigned',
      ),
      // A rate factor of 1: the category's usual rate on this long-lived stack is whatever earlier test
      // runs left; the rule's own arithmetic is pinned by the unit tests.
      start(
        'clusterer',
        {
          CLUSTERER_GROUP: `breaking-clusterer-${run}`,
          CLUSTERER_FROM_BEGINNING: 'false',
          BREAKING_RATE_FACTOR: '1',
          STORY_WINDOW_HOURS: '1',
          STORY_CLOSE_AFTER_HOURS: String(90 * 24),
        },
        'clustering (this member has the partitions)',
      ),
      start(
        'dispatcher',
        // With its operations server (runtime/ops-server.ts), scraped once the delivery is made.
        {
          DISPATCHER_GROUP: `breaking-dispatcher-${run}`,
          DISPATCHER_FROM_BEGINNING: 'false',
          OPS_PORT: String(opsPort),
        },
        'dispatcher started',
      ),
    ]);
  }, 180_000);

  afterAll(async () => {
    poller?.child.kill('SIGKILL');
    await Promise.all(services.map((s) => s.stop()));
    for (const id of new Set(
      recorder?.of<FeedPoll>(topicNames.feedPolls).map((p) => p.value.source_id) ?? [],
    ))
      await stack.producer.send(topicNames.sources, [{ key: id, value: null }]);
    await recorder?.stop();
    const redis = new Redis(infrastructure.REDIS_URL);
    const keys = await redis.keys(`test:${run}:*`);
    if (keys.length) await redis.del(...keys);
    await redis.quit();
    await receiver?.close();
    await server?.close();
    await stack?.close();
  }, 60_000);

  it('sends one signed news.breaking for five sources within a minute, and none for one source', async () => {
    outlets.forEach(([name, title], i) =>
      server.setFeed(`outlet${i}`, feed(name, item(`${run}-fire-${i}`, title, (i * 12) / 60))),
    );
    server.setFeed(
      'lonely',
      feed('Mining Weekly', lonely.map((t, i) => item(`${run}-mine-${i}`, t, i * 0.2, mineLead)).join('')),
    );
    const sourceIds: string[] = [];
    for (const [i, name] of [...outlets.map(([n]) => n), 'Mining Weekly'].entries()) {
      const url =
        i < outlets.length ? `${server.url}/feeds/outlet${i}.xml` : `${server.url}/feeds/lonely.xml`;
      const added = await stack.call<Subscribed>('POST', '/v1/sources', {
        url,
        name: `${name} ${run}`,
        category: 'world',
        country: 'no',
      });
      expect(added.status, added.text).toBe(201);
      sourceIds.push(added.body.source.id);
    }
    const hook = await stack.call<WebhookCreated>('POST', '/api/v1/webhooks', {
      url: receiver.url('/breaking'),
      events: ['news.breaking'],
      filter: { source_ids: sourceIds },
    });
    expect(hook.status, hook.text).toBe(201);

    // A live stream client, filtered to these sources, gets the same news as the stream's news.breaking.
    const live = await openSse(
      `${stack.api.url}/v1/stream?events=news.breaking&source=${sourceIds.join(',')}`,
      {
        authorization: `Bearer ${stack.client.apiKey}`,
      },
    );
    expect(live.status).toBe(200);

    poller = startPoller({
      POLLER_GROUP: `breaking-poller-${run}`,
      REDIS_KEY_PREFIX: `test:${run}:`,
      OUTBOUND_ALLOW_LIST: '127.0.0.1',
    });

    const verifier = new StandardWebhook(hook.body.secret);
    const delivered = () =>
      receiver.requests('/breaking').map((r) => verifier.verify(r.body, r.headers) as Breaking);
    const list = async () =>
      (await stack.call<ArticleList>('GET', `/v1/articles?source=${sourceIds.join(',')}&limit=100`)).body
        .articles;
    const [first] = await waitFor(
      () => (delivered().length ? delivered() : null),
      'a news.breaking delivery',
      120_000,
    ).catch(async (error: Error) => {
      // Whether the articles were read, clustered together, and what the services said: where it stopped.
      const listed = await list().catch(() => []);
      const stories = listed.map((a) => `${a.title} -> ${a.story_id ?? 'no story'}`).join('; ');
      const said = services.map((s) => s.output().slice(-1500)).join('\n---\n');
      throw new Error(`${error.message}; ${listed.length} article(s) listed: ${stories}\n${said}`);
    });
    expect(first!.event).toBe('news.breaking');
    expect(first!.data.source_count).toBeGreaterThanOrEqual(4);
    expect(first!.data.articles.every((a) => sourceIds.slice(0, 5).includes(a.source_id))).toBe(true);
    expect(() =>
      verifier.verify(
        receiver.requests('/breaking')[0]!.body.replace('Vardo', 'Oslo'),
        receiver.requests('/breaking')[0]!.headers,
      ),
    ).toThrow();

    // Every article in a story, then: still the one delivery, and the mine story (one source) sent nothing.
    // Two fire articles clustered close together can start two stories that the next one merges: the
    // read model shows the merge once the projector has written the moved articles again.
    const fireSources = new Set(sourceIds.slice(0, 5));
    let listed: ArticleList['articles'] = [];
    await waitFor(
      async () => {
        const articles = (listed = await list());
        return (
          articles.length === outlets.length + lonely.length &&
          articles.every((a) => a.story_id) &&
          new Set(articles.filter((a) => fireSources.has(a.source_id)).map((a) => a.story_id)).size === 1
        );
      },
      'every article in a story, the fire articles in one',
      60_000,
    ).catch((error: Error) => {
      // Which of the three it was, and how the articles were grouped: a failure here says what to look at.
      const stories = listed.map((a) => `${a.title} -> ${a.story_id ?? 'no story'}`).join('; ');
      throw new Error(`${error.message}; ${listed.length} article(s) listed: ${stories}`);
    });
    const articles = await list();
    const fireStories = new Set(
      articles.filter((a) => sourceIds.slice(0, 5).includes(a.source_id)).map((a) => a.story_id),
    );
    expect(fireStories).toEqual(new Set([first!.data.story_id]));
    const mineStories = new Set(articles.filter((a) => a.source_id === sourceIds[5]).map((a) => a.story_id));
    expect(mineStories.has(first!.data.story_id)).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    expect(delivered().map((d) => d.data.story_id)).toEqual([first!.data.story_id]);

    // The dispatcher's operations server shows what its consumers did.
    const ops = `http://127.0.0.1:${opsPort}`;
    expect(await (await fetch(`${ops}/healthz`)).json()).toEqual({ status: 'ok', service: 'dispatcher' });
    const metrics = await (await fetch(`${ops}/metrics`)).text();
    expect(metrics).toMatch(
      new RegExp(
        `news_consumer_messages_processed_total\\{group="breaking-dispatcher-${run}\\.stories",topic="[^"]*news\\.stories\\.v1"\\} [1-9]`,
      ),
    );

    // On the stream: once, with the webhook's data.
    await waitFor(() => live.events.length > 0, 'news.breaking on the stream', 10_000);
    expect(live.events.map((e) => e.event)).toEqual(['news.breaking']);
    expect(JSON.parse(live.events[0]!.data)).toEqual(first!.data);
    live.close();
    // Its waits (up to 120 s for the delivery, 60 s for the stories) are its limit, not the default 60 s.
  }, 240_000);
});
