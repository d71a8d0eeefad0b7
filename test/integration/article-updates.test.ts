// Article updates end to end on the real stack: a local feed serves an item, a poller process emits it;
// the feed corrects the item's title, and the poller appends revision 2 -> the enricher process enriches
// it again -> the dispatcher process sends a signed article.updated (changed_fields ["title"]) that the
// reference Standard Webhooks verifier accepts, and GET /v1/articles/{id} shows the new title as
// revision 2. A re-poll with no change, and one with only whitespace, markup and tracking-parameter
// noise, append nothing to the topic.
import { Redis } from 'ioredis';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  ArticleDiscovered,
  ArticleEnriched,
  FeedPoll,
} from '../../services/runtime/events/types.generated.ts';
import { topicNames } from '../../services/runtime/kafka/topics.ts';
import type { components } from '../api-client/schema.d.ts';
import { startFeedServer, type FeedServer } from '../support/feed-server.ts';
import { startApiStack, type ApiStack } from './support/api-stack.ts';
import { startPoller, type PollerProcess } from './support/poller-process.ts';
import { startServiceProcess, type ServiceProcess } from './support/service-process.ts';
import { stack as infrastructure } from './support/stack.ts';
import { recordTopics, type TopicRecorder } from './support/topic-recorder.ts';
import { waitFor } from './support/wait.ts';
import { startWebhookReceiver, type WebhookReceiver } from './support/webhook-receiver.ts';

type WebhookCreated = components['schemas']['WebhookCreated'];
type Subscribed = components['schemas']['SourceSubscribed'];
type ArticleDetail = components['schemas']['ArticleDetail'];
type ArticleList = components['schemas']['ArticleList'];

interface Delivered {
  event: string;
  data: Record<string, unknown> & { article_id: string };
}

describe('article updates', () => {
  let stack: ApiStack;
  let server: FeedServer;
  let receiver: WebhookReceiver;
  let recorder: TopicRecorder;
  let poller: PollerProcess | undefined;
  let run: string;
  const services: ServiceProcess[] = [];
  const publishedAt = new Date(Date.now() - 60 * 60_000).toUTCString();

  /** The feed: one item, with the title given; `noise` changes only what a reader does not see. */
  const feed = (title: string, noise = false) =>
    `<?xml version="1.0" encoding="UTF-8"?><rss version="2.0"><channel><title>Updates ${run}</title>` +
    `<link>${server.url}/</link><language>en-gb</language>` +
    (noise ? `<lastBuildDate>${new Date().toUTCString()}</lastBuildDate>` : '') +
    `<item><guid isPermaLink="false">update-${run}</guid>` +
    `<title>${noise ? `  ${title.replace(/ /g, '  ')}\n ` : title}</title>` +
    `<link>${server.url}/news/${run}${noise ? '?utm_source=rss&amp;utm_medium=feed&amp;fbclid=abc' : ''}</link>` +
    `<pubDate>${publishedAt}</pubDate>` +
    `<description>${
      noise
        ? '&lt;p&gt;Ministers   met on Monday.&lt;/p&gt;\n\n&lt;p&gt;More at https://news.example/live?utm_campaign=x&amp;amp;id=7&lt;/p&gt;'
        : 'Ministers met on Monday. More at https://news.example/live?id=7'
    }</description></item></channel></rss>`;

  const start = async (name: 'enricher' | 'dispatcher', env: Record<string, string>, ready: string) => {
    const service = startServiceProcess(name, {
      CLICKHOUSE_DATABASE: stack.database,
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

  beforeAll(async () => {
    stack = await startApiStack('updates');
    run = stack.run;
    server = await startFeedServer({ corpus: [] });
    receiver = await startWebhookReceiver();
    recorder = await recordTopics(stack.kafka, stack.codec, [
      topicNames.articlesDiscovered,
      topicNames.articlesEnriched,
      topicNames.feedPolls,
    ]);
    await Promise.all([
      start(
        'enricher',
        { ENRICHER_GROUP: `updates-enricher-${run}`, ENRICHER_FROM_BEGINNING: 'false' },
        'partitions assigned',
      ),
      start(
        'dispatcher',
        { DISPATCHER_GROUP: `updates-dispatcher-${run}`, DISPATCHER_FROM_BEGINNING: 'false' },
        'dispatcher started',
      ),
    ]);
  }, 180_000);

  afterAll(async () => {
    poller?.child.kill('SIGKILL');
    await Promise.all(services.map((s) => s.stop()));
    // Our source goes, so later runs' pollers do not poll a server that is gone.
    const sourceId = recorder?.of<FeedPoll>(topicNames.feedPolls)[0]?.value.source_id;
    if (sourceId) await stack.producer.send(topicNames.sources, [{ key: sourceId, value: null }]);
    await recorder?.stop();
    const redis = new Redis(infrastructure.REDIS_URL);
    const keys = await redis.keys(`test:${run}:*`);
    if (keys.length) await redis.del(...keys);
    await redis.quit();
    await receiver?.close();
    await server?.close();
    await stack?.close();
  }, 60_000);

  it('sends article.updated for a corrected headline, shows revision 2, and ignores noise', async () => {
    server.setMutable(feed('Ministers meet'));
    const source = await stack.call<Subscribed>('POST', '/v1/sources', {
      url: `${server.url}/mutable.xml`,
      name: `Updates ${run}`,
      category: 'politics',
      country: 'gb',
    });
    expect(source.status, source.text).toBe(201);
    const sourceId = source.body.source.id;
    const hook = await stack.call<WebhookCreated>('POST', '/api/v1/webhooks', {
      url: receiver.url('/news'),
      events: ['article.published', 'article.updated'],
      filter: { source_ids: [sourceId] },
    });
    expect(hook.status, hook.text).toBe(201);
    // A source named in the filter, as ?source= takes it, is kept as its id; an unknown one is refused.
    const byName = await stack.call<WebhookCreated>('POST', '/api/v1/webhooks', {
      url: receiver.url('/by-name'),
      events: ['article.published'],
      filter: { source_ids: [`updates ${run}`.toUpperCase()] },
    });
    expect(byName.status, byName.text).toBe(201);
    expect(byName.body.webhook.filter?.source_ids).toEqual([sourceId]);
    expect((await stack.call('DELETE', `/api/v1/webhooks/${byName.body.webhook.id}`)).status).toBe(204);
    const unknown = await stack.call<{ error: { message: string } }>('POST', '/api/v1/webhooks', {
      url: receiver.url('/unknown'),
      events: ['article.published'],
      filter: { source_ids: ['src_doesnotexist'] },
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.message).toBe(
      'filter.source_ids: "src_doesnotexist" is neither the id nor the name of a source (GET /v1/sources lists them)',
    );

    const discovered = () =>
      recorder
        .of<ArticleDiscovered>(topicNames.articlesDiscovered)
        .map((e) => e.value)
        .filter((a) => a.source_id === sourceId);
    const enriched = (articleId: string) =>
      recorder
        .of<ArticleEnriched>(topicNames.articlesEnriched)
        .map((e) => e.value)
        .filter((e) => e.article_id === articleId);
    const polls = () =>
      recorder
        .of<FeedPoll>(topicNames.feedPolls)
        .map((e) => e.value)
        .filter((p) => p.source_id === sourceId);
    const pollAfter = (at: number, what: string) =>
      waitFor(() => polls().find((p) => p.started_at > at), what, 30_000);

    poller = startPoller({
      POLLER_GROUP: `updates-poller-${run}`,
      REDIS_KEY_PREFIX: `test:${run}:`,
      OUTBOUND_ALLOW_LIST: '127.0.0.1',
      // Every poll may find an update: the bound's own rules are pinned by the unit tests.
      POLLER_UPDATE_MIN_INTERVAL_SECONDS: '0',
    });
    const [first] = await waitFor(() => (discovered().length ? discovered() : null), 'revision 1', 40_000);
    expect(first).toMatchObject({ title: 'Ministers meet', revision: 1, changed_fields: [] });
    const articleId = first!.article_id;
    await waitFor(() => enriched(articleId).length > 0, 'the enrichment of revision 1', 30_000);

    server.setMutable(feed('Ministers meet, agree budget'));
    const second = await waitFor(() => discovered()[1], 'revision 2', 30_000);
    expect(second).toMatchObject({
      article_id: articleId,
      title: 'Ministers meet, agree budget',
      revision: 2,
      changed_fields: ['title'],
      first_published_at: first!.published_at,
      first_discovered_at: first!.discovered_at,
    });
    // The poll that found the change: it may have started before the feed changed, and its record is
    // appended after the article's, so wait for it rather than look once. No earlier poll can count an
    // update: the first found the item new, the ones between saw it unchanged.
    const found = await waitFor(
      () => polls().find((p) => p.updated_items > 0),
      'the poll that found revision 2',
      30_000,
    );
    expect(found).toMatchObject({ new_items: 0, updated_items: 1 });

    // The webhook: signed, what changed, the new title.
    const verifier = new StandardWebhook(hook.body.secret);
    const deliveries = () =>
      receiver.requests('/news').map((r) => ({
        request: r,
        payload: verifier.verify(r.body, r.headers) as Delivered,
      }));
    const update = await waitFor(
      () => deliveries().find((d) => d.payload.event === 'article.updated'),
      'the article.updated delivery',
      30_000,
    );
    expect(update.payload.data).toMatchObject({
      article_id: articleId,
      revision: 2,
      changed_fields: ['title'],
      title: 'Ministers meet, agree budget',
      source_id: sourceId,
    });
    expect(() =>
      verifier.verify(update.request.body.replace('agree', 'reject'), update.request.headers),
    ).toThrow();

    // The read model and the API show the latest revision.
    const detail = await waitFor(async () => {
      const answer = await stack.call<ArticleDetail>('GET', `/v1/articles/${articleId}`);
      return answer.status === 200 && answer.body.revision === 2 ? answer.body : null;
    }, 'GET /v1/articles/{id} to show revision 2');
    expect(detail).toMatchObject({ title: 'Ministers meet, agree budget', revision: 2 });
    expect(Date.parse(detail.updated_at!)).toBe(Math.floor(second.discovered_at / 1000) * 1000);
    const list = await stack.call<ArticleList>('GET', `/v1/articles?source=${sourceId}`);
    expect(list.body.articles.map((a) => [a.id, a.title, a.revision])).toEqual([
      [articleId, 'Ministers meet, agree budget', 2],
    ]);

    // The enricher read the new headline.
    await waitFor(
      () => enriched(articleId).find((e) => e.revision === 2 && e.status === 'succeeded'),
      'the re-enrichment of revision 2',
      30_000,
    );

    // A re-poll of the unchanged feed (304), then one with only noise (200): nothing new.
    const unchanged = await pollAfter(second.discovered_at, 'a re-poll of the unchanged feed');
    expect(unchanged).toMatchObject({ new_items: 0, updated_items: 0 });
    const noisyAt = Date.now();
    server.setMutable(feed('Ministers meet, agree budget', true));
    const noisy = await pollAfter(noisyAt, 'a poll of the noisy feed');
    expect(noisy).toMatchObject({
      status: 'ok',
      items_seen: 1,
      new_items: 0,
      updated_items: 0,
      skipped_items: 0,
    });
    // The poll records count what each poll appended; the topic agrees.
    expect(discovered().map((a) => a.revision)).toEqual([1, 2]);
    expect(enriched(articleId).map((e) => e.revision)).toEqual([1, 2]);

    // article.published once (for revision 1), article.updated once (revision 2), nothing for the noise.
    await waitFor(
      () => deliveries().some((d) => d.payload.event === 'article.published'),
      'the article.published delivery',
    );
    // (In either order: the first waits for the enrichment of revision 1, the second for nothing.)
    expect(
      deliveries()
        .map((d) => [d.payload.event, d.payload.data.article_id])
        .sort(),
    ).toEqual([
      ['article.published', articleId],
      ['article.updated', articleId],
    ]);
  }, 120_000);
});
