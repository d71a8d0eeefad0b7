// GET /v1/stream on the real stack: Kafka -> the API's tail -> SSE clients. A polled feed's business
// article reaches a business-filtered client and its sports article does not; the delay from the Kafka
// append to the client is measured over n >= 20 events; a client that disconnects and resumes with
// Last-Event-ID gets every event exactly once, from the replay buffer and, for older positions, from
// Kafka; a client that reads nothing is cut off while another keeps up; stream tokens for EventSource.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ArticleDiscovered } from '../../services/runtime/events/types.generated.ts';
import { topicNames } from '../../services/runtime/kafka/topics.ts';
import { startFeedServer, type FeedServer } from '../support/feed-server.ts';
import { openSse, type SseClient, type SseEvent } from '../support/sse-client.ts';
import { startApiStack, type ApiStack } from './support/api-stack.ts';
import { startPoller, type PollerProcess } from './support/poller-process.ts';
import { openedStory } from './support/kafka.ts';
import { waitFor } from './support/wait.ts';

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
};

describe('the live stream', () => {
  let stack: ApiStack;
  let run: string;
  const clients: SseClient[] = [];

  const open = async (query: string, headers: Record<string, string> = {}, apiKey = stack.client.apiKey) => {
    const client = await openSse(`${stack.api.url}/v1/stream${query}`, {
      ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}),
      ...headers,
    });
    clients.push(client);
    return client;
  };

  const article = (n: number, options: Partial<ArticleDiscovered> = {}): ArticleDiscovered => {
    const id = options.article_id ?? `stream-${run}-${n}`;
    return {
      article_id: id,
      source_id: `stream-source-${run}`,
      source_name: `Stream ${run}`,
      guid: id,
      url: `https://stream.example/${run}/${n}`,
      original_url: `https://stream.example/${run}/${n}`,
      title: `Markets move ${run} number ${n}`,
      summary: 'Shares rose in early trading.',
      content: '',
      author: null,
      published_at: Date.now(),
      published_at_clamped: false,
      discovered_at: Date.now(),
      language: 'en',
      category: 'business',
      image_url: null,
      publisher_name: null,
      publisher_url: null,
      occurred_at: Date.now(),
      revision: 1,
      changed_fields: [],
      first_published_at: null,
      first_discovered_at: null,
      ...options,
    };
  };

  const append = (articles: ArticleDiscovered[]) =>
    stack.producer.send(
      topicNames.articlesDiscovered,
      articles.map((a) => ({ key: a.article_id, value: a })),
    );

  const mine = (events: SseEvent[]) =>
    events.filter((e) => e.event.startsWith('article.') && e.data.includes(run));

  beforeAll(async () => {
    stack = await startApiStack('stream', {
      // Small enough that a resume past it goes back to Kafka, and a client reading nothing is cut off soon.
      STREAM_REPLAY_EVENTS: '100',
      STREAM_BUFFER_BYTES: '65536',
      STREAM_HEARTBEAT_SECONDS: '1',
    });
    run = stack.run;
  }, 120_000);

  afterAll(async () => {
    for (const client of clients) client.close();
    await stack?.close();
  }, 60_000);

  describe('from a polled feed', () => {
    let server: FeedServer;
    let poller: PollerProcess | undefined;
    let sourceId: string | undefined;

    afterAll(async () => {
      poller?.child.kill('SIGKILL');
      // Our source goes, so later runs' pollers do not poll a server that is gone.
      if (sourceId) await stack.producer.send(topicNames.sources, [{ key: sourceId, value: null }]);
      await server?.close();
    });

    it('sends a new business article to a business client, not the sports one, and its correction as article.updated', async () => {
      server = await startFeedServer({ corpus: [] });
      const business = await open('?category=business');
      const everything = await open('');
      const item = (title: string, category: string, n: number) =>
        `<item><title>${title} ${run}</title><link>${server.url}/stream/${run}/${n}</link>` +
        `<guid isPermaLink="false">stream-feed-${run}-${n}</guid><category>${category}</category>` +
        `<pubDate>${new Date().toUTCString()}</pubDate><description>${title}.</description></item>`;
      const feed = (bankTitle: string) =>
        `<?xml version="1.0"?><rss version="2.0"><channel><title>Stream ${run}</title><link>${server.url}/</link>` +
        `<language>en</language>${item(bankTitle, 'Business', 1)}${item('Rovers win the cup', 'Football', 2)}</channel></rss>`;
      server.setMutable(feed('Bank profits rise'));
      const source = await stack.call<{ source: { id: string } }>('POST', '/v1/sources', {
        url: `${server.url}/mutable.xml`,
        name: `Stream feed ${run}`,
        category: 'general',
        country: 'gb',
      });
      expect(source.status, source.text).toBe(201);
      sourceId = source.body.source.id;
      poller = startPoller({
        POLLER_GROUP: `stream-poller-${run}`,
        REDIS_KEY_PREFIX: `test:${run}:`,
        OUTBOUND_ALLOW_LIST: '127.0.0.1',
        // Every poll may find an update: the bound's own rules are pinned by the poller's unit tests.
        POLLER_UPDATE_MIN_INTERVAL_SECONDS: '0',
      });
      await waitFor(
        () => mine(everything.events).length >= 2,
        'both feed items on the unfiltered stream',
        90_000,
      );
      await waitFor(
        () => mine(business.events).length >= 1,
        'the business item on the business stream',
        5_000,
      );
      const received = mine(business.events).map(
        (e) => JSON.parse(e.data) as { title: string; category: string },
      );
      expect(received.map((r) => r.title)).toEqual([`Bank profits rise ${run}`]);
      expect(received[0]!.category).toBe('business');
      const sports = mine(everything.events).find((e) => e.data.includes('Rovers'));
      expect(sports?.event).toBe('article.published');
      expect((JSON.parse(sports!.data) as { category: string }).category).toBe('sports');

      // The feed corrects its headline: the next poll sends it as article.updated.
      server.setMutable(feed('Bank profits rise sharply'));
      await waitFor(
        () => mine(business.events).some((e) => e.event === 'article.updated'),
        'the correction on the business stream',
        60_000,
      );
      const update = mine(business.events).find((e) => e.event === 'article.updated')!;
      expect(JSON.parse(update.data)).toMatchObject({
        title: `Bank profits rise sharply ${run}`,
        revision: 2,
        changed_fields: expect.arrayContaining(['title']) as unknown,
      });
      business.close();
      everything.close();
    }, 180_000);
  });

  it('reaches a client within a second of the append: p50 and p99 over 30 events', async () => {
    const client = await open(`?category=business&q=${run}`);
    const sent = new Map<string, number>();
    for (let n = 0; n < 30; n++) {
      const a = article(1000 + n);
      sent.set(a.article_id, Date.now());
      await append([a]);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await waitFor(() => mine(client.events).length >= 30, 'all 30 events', 20_000);
    const delays = mine(client.events).map((e) => {
      const id = (JSON.parse(e.data) as { id: string }).id;
      return e.receivedAt - sent.get(id)!;
    });
    const p50 = percentile(delays, 50);
    const p99 = percentile(delays, 99);
    console.log(`stream delay from the Kafka append, n=${delays.length}: p50 ${p50} ms, p99 ${p99} ms`);
    expect(delays).toHaveLength(30);
    // The target (p99 under a second) is reported above; the assertion only catches a stream that polls or
    // stalls, with room for a busy machine so it does not flake.
    expect(p99).toBeLessThan(3_000);
    client.close();
  }, 60_000);

  it('sends an update as article.updated with what changed, naming the story the article was placed in', async () => {
    const client = await open(`?events=article.updated&q=${run}`);
    const first = article(2000);
    await append([first]);
    // The clusterer places the first revision in a story, before the feed corrects its headline.
    const storyId = `story_${run}_2000`;
    await stack.producer.send(topicNames.stories, [{ key: storyId, value: openedStory(storyId, first) }]);
    await append([
      article(2000, { title: `Markets fall ${run} number 2000`, revision: 2, changed_fields: ['title'] }),
    ]);
    await waitFor(() => mine(client.events).length >= 1, 'the update', 10_000);
    const [update] = mine(client.events);
    expect(update!.event).toBe('article.updated');
    expect(JSON.parse(update!.data)).toMatchObject({
      id: `stream-${run}-2000`,
      title: `Markets fall ${run} number 2000`,
      revision: 2,
      changed_fields: ['title'],
    });
    // Named with its story, as GET /v1/articles names it, once the stream has read the placing (another
    // topic, so perhaps after revision 2): each further correction is looked at until one names it.
    let revision = 2;
    await waitFor(
      async () => {
        const named = mine(client.events).some(
          (e) => (JSON.parse(e.data) as { story_id: string | null }).story_id === storyId,
        );
        if (!named) {
          revision++;
          await append([
            article(2000, {
              title: `Markets fall ${run} number 2000 (${revision})`,
              revision,
              changed_fields: ['title'],
            }),
          ]);
        }
        return named;
      },
      'an article.updated naming the story',
      15_000,
      500,
    );
    client.close();
  }, 30_000);

  it('resumes after Last-Event-ID with every event exactly once, from the buffer and from Kafka', async () => {
    const key = `resume${run}`;
    const first = await open(`?q=${key}`);
    const batch = (from: number, count: number) =>
      Array.from({ length: count }, (_, i) =>
        article(3000 + from + i, { title: `Resume ${key} ${from + i}` }),
      );
    await append(batch(0, 10));
    await waitFor(() => first.events.length >= 5, 'the first events', 10_000);
    first.close(); // mid-stream: some of the ten may have been written and never read
    const kept = [...first.events];
    const resumeId = kept.at(-1)!.id!;

    // While away: a few events (still in the 100-entry replay buffer), then a short reconnect.
    await append(batch(10, 10));
    const second = await open(`?q=${key}`, { 'last-event-id': resumeId });
    await waitFor(() => second.events.length >= 20 - kept.length, 'the rest from the buffer', 10_000);
    second.close();
    // Each article once. (Order holds per article: articles on different partitions may interleave.)
    const titles = (events: SseEvent[]) => events.map((e) => (JSON.parse(e.data) as { title: string }).title);
    const union = titles([...kept, ...second.events]);
    expect(union.toSorted()).toEqual(Array.from({ length: 20 }, (_, i) => `Resume ${key} ${i}`).toSorted());

    // Away longer: 300 other events push the resume point out of the buffer, so it is read back from Kafka.
    const lastId = second.events.at(-1)!.id!;
    await append(Array.from({ length: 300 }, (_, i) => article(5000 + i)));
    await append(batch(20, 5));
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const third = await open(`?q=${key}`, { 'last-event-id': lastId });
    await waitFor(() => third.events.length >= 5, 'the events read back from Kafka', 30_000);
    await append(batch(25, 2));
    await waitFor(() => third.events.length >= 7, 'live events after the read-back', 10_000);
    expect(titles(third.events).toSorted()).toEqual(
      Array.from({ length: 7 }, (_, i) => `Resume ${key} ${20 + i}`).toSorted(),
    );
    // The live ones came after everything read back.
    expect(titles(third.events).slice(5).toSorted()).toEqual([`Resume ${key} 25`, `Resume ${key} 26`]);
    third.close();
  }, 90_000);

  it('cuts off a client that reads nothing, while another on the instance keeps receiving on time', async () => {
    const key = `slow${run}`;
    const stalled = await open(`?q=${key}`);
    const reader = await open(`?q=${key}`);
    stalled.pause();
    const sentAt = new Map<string, number>();
    // Loopback sockets buffer megabytes in the kernel before the API's own buffer fills at all.
    const padding = 'x'.repeat(16_000);
    let round = 0;
    // A client that reads nothing cannot notice it was hung up on: the API's metrics say so.
    const cutOff = async () => {
      const metrics = await (await fetch(`${stack.api.url}/metrics`)).text();
      return /stream_connections_closed_total\{reason="slow_consumer"\} [1-9]/.test(metrics);
    };
    for (; round < 300 && !(await cutOff()); round++) {
      const batch = Array.from({ length: 10 }, (_, i) =>
        article(10_000 + round * 10 + i, { title: `Slow ${key} ${round * 10 + i}`, summary: padding }),
      );
      for (const a of batch) sentAt.set(a.article_id, Date.now());
      await append(batch);
    }
    console.log(`the stalled client was cut off after ${round * 10} events of 16 KB`);
    expect(await cutOff()).toBe(true);
    // A client slow rather than gone reads again later, behind megabytes in the kernel's buffers: its
    // final event still comes after them (it sat behind the instance's whole buffer, cut at 2 s).
    await new Promise((resolve) => setTimeout(resolve, 5_000));
    stalled.resume();
    await stalled.ended;
    const last = stalled.events.at(-1);
    expect(last?.event).toBe('stream.closed');
    const { last_event_id: resumeId } = JSON.parse(last!.data) as { last_event_id: string };
    expect(JSON.parse(last!.data)).toMatchObject({ reason: 'slow_consumer' });
    // Resumed from it, the client gets what it was never sent, and nothing it had.
    const resumed = await open(`?q=${key}`, { 'last-event-id': resumeId });
    const had = new Set(mine(stalled.events).map((e) => (JSON.parse(e.data) as { id: string }).id));
    await waitFor(
      () => had.size + mine(resumed.events).length >= sentAt.size,
      'the events the stalled client was not sent',
      30_000,
    );
    const again = mine(resumed.events).map((e) => (JSON.parse(e.data) as { id: string }).id);
    expect(again.filter((id) => had.has(id))).toEqual([]);
    expect(new Set([...had, ...again]).size).toBe(sentAt.size);
    resumed.close();
    await waitFor(
      () => mine(reader.events).length >= sentAt.size,
      'every event at the reading client',
      20_000,
    );
    const delays = mine(reader.events).map(
      (e) => e.receivedAt - sentAt.get((JSON.parse(e.data) as { id: string }).id)!,
    );
    console.log(
      `while a stalled client was cut off: ${delays.length} events to the other, p50 ${percentile(delays, 50)} ms, p99 ${percentile(delays, 99)} ms`,
    );
    // As above: the figure is the report; the bound catches a reader held up behind the stalled one.
    expect(percentile(delays, 99)).toBeLessThan(3_000);
    reader.close();
  }, 120_000);

  it('accepts a stream token in the URL for EventSource, and nothing else there', async () => {
    const issued = await stack.call<{ token: string; expires_in: number }>('POST', '/v1/stream/tokens');
    expect(issued.status, issued.text).toBe(201);
    expect(issued.body.expires_in).toBe(300);
    const browser = await open(`?access_token=${issued.body.token}&q=token${run}`, {}, '');
    expect(browser.status).toBe(200);
    await append([article(20_000, { title: `Token token${run}` })]);
    await waitFor(() => browser.events.some((e) => e.data.includes(`token${run}`)), 'an event', 10_000);
    browser.close();

    const withKey = await open(`?access_token=${stack.client.apiKey}`, {}, '');
    expect(withKey.status).toBe(401);
    // ... also beside a header that would do: the key in the URL is refused, not passed over.
    const besideHeader = await open(`?access_token=${stack.client.apiKey}`);
    expect(besideHeader.status).toBe(401);
    expect(await besideHeader.body()).toContain('two credentials');
    const tokenBesideHeader = await open(`?access_token=${issued.body.token}`);
    expect(tokenBesideHeader.status).toBe(401);
    const tampered = await open(`?access_token=${issued.body.token.slice(0, -2)}xx`, {}, '');
    expect(tampered.status).toBe(401);
    // The stream token is not an access token for anything else.
    const elsewhere = await stack.call('GET', '/v1/articles', undefined, { apiKey: issued.body.token });
    expect(elsewhere.status).toBe(401);
    expect(elsewhere.text).not.toContain(issued.body.token);
  }, 30_000);

  it('has the article detail ask for a retry, not say "no article", for one the stream announced before the read model holds it', async () => {
    const client = await open('?events=article.published');
    const announced = article(900);
    await append([announced]);
    await waitFor(async () => mine(client.events).length > 0, 'the announcement', 30_000);
    await waitFor(
      async () => (await stack.call('GET', `/v1/articles/${announced.article_id}`)).status === 200,
      'the projection',
      30_000,
    );
    // The read model a moment behind the stream: the article's rows are not there (yet).
    await stack.clickhouse.command(
      `ALTER TABLE ${stack.database}.articles DELETE WHERE article_id = '${announced.article_id}'`,
    );
    let answer = await stack.call('GET', `/v1/articles/${announced.article_id}`);
    await waitFor(
      async () => (answer = await stack.call('GET', `/v1/articles/${announced.article_id}`)).status !== 200,
      'the rows gone',
      30_000,
    );
    expect(answer.status).toBe(404);
    expect(answer.headers.get('retry-after')).toBe('2');
    expect(answer.body.error.message).toMatch(/was published moments ago and is not readable yet/);
    const never = await stack.call('GET', `/v1/articles/stream-${run}-never`);
    expect([never.status, never.headers.get('retry-after')]).toEqual([404, null]);
    expect(never.body.error.message).toMatch(/^no article with id/);
  }, 120_000);

  it('says what was wrong with a bad request', async () => {
    const badId = await open('', { 'last-event-id': 'not-an-id' });
    expect(badId.status).toBe(400);
    const error = (JSON.parse(await badId.body()) as { error: { code: string; message: string } }).error;
    expect(error.code).toBe('invalid_parameter');
    expect(error.message).toMatch(/^Last-Event-ID: /);
    // An id past the end of the log (kept across a reset, or from another deployment) would wait,
    // silent, until the log grew that far: refused instead.
    const ahead = await open('', { 'last-event-id': 'zzzzzzzz~0~0~0' });
    expect(ahead.status).toBe(400);
    expect(await ahead.body()).toMatch(/Last-Event-ID: is ahead of the end of the stream/);
    const badKind = await open('?events=article.deleted');
    expect(badKind.status).toBe(400);
    expect(await badKind.body()).toContain('events');
    const noKey = await open('', {}, '');
    expect(noKey.status).toBe(401);
    const unknown = await open(`?id=${randomUUID()}`);
    expect(unknown.status).toBe(400);
  }, 30_000);
});
