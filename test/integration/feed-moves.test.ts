// Feeds that move, end to end on the real stack: a local feed server, a poller process, Kafka, the
// registry, Redis, the projector and the API. Four sources, added through POST /v1/sources and polled
// every 10 s; once each has been read at its address, the server starts answering:
//   moved     301 then 308 (relative Locations) to a new path: after 3 polls the source's URL is the new
//             one on news.sources.v1 (same id, next version, old URL kept) and in GET /v1/sources/{id}, the
//             poller asks the new path directly from then on, and no article is emitted twice or lost;
//   temporary 302 to a new path: never moves, however many polls;
//   blocked   301 to the URL of `holder`, another source: stays, and its health says why;
//   holder    the source at that URL.
// Then the old and the new URL of the moved feed, added by another tenant, find the one source.
import { Redis } from 'ioredis';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ArticleDiscovered, FeedPoll, Source } from '../../services/runtime/events/types.generated.ts';
import { topicNames } from '../../services/runtime/kafka/topics.ts';
import type { components } from '../api-client/schema.d.ts';
import { startFeedServer, type FeedServer } from '../support/feed-server.ts';
import { startApiStack, type ApiStack } from './support/api-stack.ts';
import { startPoller, type PollerProcess } from './support/poller-process.ts';
import { stack as infrastructure } from './support/stack.ts';
import { recordTopics, type TopicRecorder } from './support/topic-recorder.ts';
import { waitFor } from './support/wait.ts';

type Subscribed = components['schemas']['SourceSubscribed'];
type SourceItem = components['schemas']['Source'];
type Name = 'moved' | 'temporary' | 'blocked' | 'holder';

const moveAfterPolls = 3;

describe('feeds that move', () => {
  // One Redis namespace for the API and the poller, so they share the feed URL lock as in production;
  // one User-Agent, the only one the feed server answers (other runs' pollers poll every source too).
  const run = randomUUID().slice(0, 8);
  const redisPrefix = `test:${run}:`;
  const userAgent = `feed-moves-test/${run}`;
  let stack: ApiStack;
  let server: FeedServer;
  let recorder: TopicRecorder;
  let poller: PollerProcess | undefined;
  const ids = new Map<Name, string>();
  const url = (path: string) => `${server.url}${path}`;

  /**
   * An RSS feed of `count` items: by guid, by absolute link (no guid), and by a root-relative link (no
   * guid), which resolves to the same article URL from the old path and the new one.
   */
  const feed = (name: Name, count: number) =>
    `<?xml version="1.0"?><rss version="2.0"><channel><title>Moves ${name} ${run}</title>` +
    `<link>${server.url}/</link><language>en</language>` +
    Array.from({ length: count }, (_, i) => {
      const kind = i % 3;
      // The run in every link: an article id from a link is the link's, whatever the source, and a
      // poller remembers the articles of earlier runs (services/poller/seen-memory.ts).
      const link = kind === 2 ? `/stories/${run}/${name}-${i}` : `${server.url}/stories/${run}/${name}-${i}`;
      const guid = kind === 0 ? `<guid isPermaLink="false">${name}-${run}-${i}</guid>` : '';
      return `<item>${guid}<title>${name} story ${i}</title><link>${link}</link><description>Story ${i}.</description></item>`;
    }).join('') +
    `</channel></rss>`;

  const sourceEvents = (name: Name) =>
    recorder
      .of<Source>(topicNames.sources)
      .map((e) => e.value)
      .filter((s) => s.source_id === ids.get(name));
  /** Our poller's polls: another run's poller is refused with a 403, which ours never gets. */
  const pollsOf = (name: Name) =>
    recorder
      .of<FeedPoll>(topicNames.feedPolls)
      .map((e) => e.value)
      .filter((p) => p.source_id === ids.get(name) && p.http_status !== 403);
  const articlesOf = (name: Name) =>
    recorder
      .of<ArticleDiscovered>(topicNames.articlesDiscovered)
      .map((e) => e.value)
      .filter((a) => a.source_id === ids.get(name));
  const getSource = async (name: Name) => {
    const answer = await stack.call<SourceItem>('GET', `/v1/sources/${ids.get(name)}`);
    expect(answer.status, answer.text).toBe(200);
    return answer.body;
  };
  /** Every article id once, and each of `count` items an article. */
  const expectEachItemOnce = (name: Name, count: number) => {
    const articles = articlesOf(name);
    expect(new Set(articles.map((a) => a.article_id)).size, name).toBe(articles.length);
    expect(articles.map((a) => a.title).sort(), name).toEqual(
      Array.from({ length: count }, (_, i) => `${name} story ${i}`).sort(),
    );
  };

  beforeAll(async () => {
    stack = await startApiStack('moves', { REDIS_KEY_PREFIX: redisPrefix, POLLER_USER_AGENT: userAgent });
    server = await startFeedServer({ corpus: [], userAgent });
    recorder = await recordTopics(stack.kafka, stack.codec, [
      topicNames.sources,
      topicNames.feedPolls,
      topicNames.articlesDiscovered,
    ]);
    for (const name of ['moved', 'temporary', 'blocked', 'holder'] as const) {
      server.setFeed(`${name}-${run}`, feed(name, 6));
      const added = await stack.call<Subscribed>('POST', '/v1/sources', {
        url: url(`/feeds/${name}-${run}.xml`),
        name: `Moves ${name} ${run}`,
        category: 'general',
        country: 'gb',
      });
      expect(added.status, added.text).toBe(201);
      ids.set(name, added.body.source.id);
    }
    poller = startPoller({
      POLLER_GROUP: `moves-poller-${run}`,
      REDIS_KEY_PREFIX: redisPrefix,
      OUTBOUND_ALLOW_LIST: '127.0.0.1',
      POLLER_MOVE_AFTER_POLLS: String(moveAfterPolls),
      POLLER_USER_AGENT: userAgent,
    });
  }, 120_000);

  afterAll(async () => {
    poller?.child.kill('SIGKILL');
    // Our sources go, so later runs' pollers do not poll a server that is gone.
    if (stack)
      await stack.producer.send(
        topicNames.sources,
        [...ids.values()].map((id) => ({ key: id, value: null })),
      );
    await recorder?.stop();
    const redis = new Redis(infrastructure.REDIS_URL);
    const keys = await redis.keys(`${redisPrefix}*`);
    if (keys.length) await redis.del(...keys);
    await redis.quit();
    await server?.close();
    await stack?.close();
  }, 60_000);

  it('follows a permanent move after 3 polls, never a temporary one nor onto another source', async () => {
    const names = ['moved', 'temporary', 'blocked', 'holder'] as const;
    await waitFor(
      () => names.every((n) => pollsOf(n).some((p) => p.status === 'ok') && articlesOf(n).length === 6),
      'a first poll of every feed at its own address, with its six articles',
      120_000,
    );
    const before = new Map(
      names.map((n) => [
        n,
        articlesOf(n)
          .map((a) => a.article_id)
          .sort(),
      ]),
    );

    // The feeds move. The moved feed's new path serves the same items; its old path is never served again.
    const oldPath = `/feeds/moved-${run}.xml`;
    const newPath = `/feeds/moved-new-${run}.xml`;
    server.setFeed(`moved-new-${run}`, feed('moved', 6));
    server.setRedirect(oldPath, 301, `/feeds/moved-mid-${run}.xml`);
    server.setRedirect(`/feeds/moved-mid-${run}.xml`, 308, `moved-new-${run}.xml`);
    server.setFeed(`temporary-new-${run}`, feed('temporary', 6));
    server.setRedirect(`/feeds/temporary-${run}.xml`, 302, url(`/feeds/temporary-new-${run}.xml`));
    server.setRedirect(`/feeds/blocked-${run}.xml`, 301, url(`/feeds/holder-${run}.xml`));
    const redirectedAt = Date.now();

    // news.sources.v1: the moved source's next version, at the new URL, the same id, the old URL kept.
    const moved = await waitFor(
      () => sourceEvents('moved').find((s) => s.feed_url === url(newPath)),
      'the moved source at its new URL on news.sources.v1',
      90_000,
    );
    expect(moved).toMatchObject({
      source_id: ids.get('moved'),
      version: 2,
      previous_urls: [url(oldPath)],
      name: `Moves moved ${run}`,
      active: true,
    });
    expect(sourceEvents('moved').map((s) => s.version)).toEqual([1, 2]);
    // It took exactly 3 polls through the permanent chain, each recorded with where it answered (the
    // first may be a 304: the new path serves the same body; the next asks for it whole). The record of
    // the third is appended after the move it made.
    const redirected = await waitFor(() => {
      const through = pollsOf('moved').filter((p) => p.redirect_statuses.length > 0);
      return through.length >= moveAfterPolls ? through.slice(0, moveAfterPolls) : null;
    }, 'the record of the poll that moved the source');
    expect(redirected.map((p) => [p.final_url, p.redirect_statuses])).toEqual(
      Array.from({ length: moveAfterPolls }, () => [url(newPath), [301, 308]]),
    );
    expect(redirected.some((p) => p.status === 'ok')).toBe(true);
    expect(redirected.every((p) => p.status === 'ok' || p.status === 'not_modified')).toBe(true);
    expect(redirected[moveAfterPolls - 1]!.warnings[0]).toBe(
      `the feed moved permanently: the source is polled at ${url(newPath)} from now on (it was at ${url(oldPath)})`,
    );

    // GET /v1/sources/{id}: the new URL, the old one in previous_urls.
    await waitFor(
      async () => (await getSource('moved')).url === url(newPath),
      'GET /v1/sources/{id} to show the new URL',
      30_000,
    );
    expect(await getSource('moved')).toMatchObject({
      id: ids.get('moved'),
      url: url(newPath),
      previous_urls: [url(oldPath)],
    });

    // From now on the poller asks the new URL itself: the old path is not requested again.
    const firstDirect = await waitFor(
      () => pollsOf('moved').find((p) => p.feed_url === url(newPath)),
      'a poll of the new URL',
      30_000,
    );
    const oldHits = server.hits.get(oldPath);
    await waitFor(
      () => pollsOf('moved').filter((p) => p.feed_url === url(newPath)).length >= 3,
      'three polls of the new URL',
      60_000,
    );
    expect(server.hits.get(oldPath)).toBe(oldHits);
    for (const poll of pollsOf('moved').filter((p) => p.started_at >= firstDirect.started_at)) {
      expect(poll).toMatchObject({ feed_url: url(newPath), final_url: null, redirect_statuses: [] });
      expect(['ok', 'not_modified']).toContain(poll.status);
    }
    // No article twice, none new for the items it had: the move re-emitted nothing.
    expect(
      articlesOf('moved')
        .map((a) => a.article_id)
        .sort(),
    ).toEqual(before.get('moved'));

    // A story published after the move is found, once.
    server.setFeed(`moved-new-${run}`, feed('moved', 7));
    await waitFor(() => articlesOf('moved').length >= 7, 'the story published after the move', 40_000);
    expectEachItemOnce('moved', 7);

    // The temporary redirect: polled through it every time, never moved, no warning.
    await waitFor(
      () => pollsOf('temporary').filter((p) => p.started_at >= redirectedAt).length >= moveAfterPolls + 2,
      `${moveAfterPolls + 2} polls through the temporary redirect`,
      60_000,
    );
    for (const poll of pollsOf('temporary').filter((p) => p.started_at >= redirectedAt)) {
      expect(poll).toMatchObject({
        feed_url: url(`/feeds/temporary-${run}.xml`),
        final_url: url(`/feeds/temporary-new-${run}.xml`),
        redirect_statuses: [302],
        warnings: [],
      });
      expect(['ok', 'not_modified']).toContain(poll.status);
    }
    expect(sourceEvents('temporary').map((s) => s.version)).toEqual([1]);
    expect(await getSource('temporary')).toMatchObject({
      url: url(`/feeds/temporary-${run}.xml`),
      previous_urls: [],
    });
    expectEachItemOnce('temporary', 6);

    // Onto another source's URL: it stays, and its health says why.
    const warning = `the feed moved permanently to ${url(`/feeds/holder-${run}.xml`)}, which is already source ${ids.get('holder')}: this source stays at its URL (tried again after ${moveAfterPolls} polls)`;
    const blocked = await waitFor(
      async () => {
        const source = await getSource('blocked');
        return source.health.warnings[0] === warning ? source : null;
      },
      'the blocked source to say why in its health',
      60_000,
    );
    expect(blocked).toMatchObject({
      url: url(`/feeds/blocked-${run}.xml`),
      previous_urls: [],
      health: { status: 'healthy' },
    });
    expect(sourceEvents('blocked').map((s) => s.version)).toEqual([1]);
    expect(sourceEvents('holder').map((s) => s.version)).toEqual([1]);
    expectEachItemOnce('holder', 6);
  }, 300_000);

  it("finds the moved feed's source by its old URL and by its new one, for another tenant", async () => {
    for (const path of [`/feeds/moved-${run}.xml`, `/feeds/moved-new-${run}.xml`]) {
      const added = await stack.call<Subscribed>(
        'POST',
        '/v1/sources',
        { url: url(path), category: 'general', country: 'gb' },
        { apiKey: stack.otherClient.apiKey },
      );
      expect(added.status, `${path}: ${added.text}`).toBe(200);
      expect(added.body, path).toMatchObject({
        created: false,
        source: { id: ids.get('moved'), url: url(`/feeds/moved-new-${run}.xml`), subscribed: true },
      });
    }
    expect(sourceEvents('moved').map((s) => s.version)).toEqual([1, 2]);
  });
});
