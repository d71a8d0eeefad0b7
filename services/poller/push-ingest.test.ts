// Content a WebSub hub pushes goes through the poll's own dedupe and topics (ingestPushedFeed), and a
// poll hands the hubs it found to the subscription keeper (onHubs). Fakes for Kafka and Redis, as in
// poll-source.test.ts; the real ones run in test/integration/websub.test.ts.
import { describe, expect, it } from 'vitest';
import type { ArticleDiscovered, FeedPoll } from '../runtime/events/types.generated.ts';
import type { EventProducer } from '../runtime/kafka/producer.ts';
import { createLogger } from '../runtime/logger.ts';
import { sourceState } from '../sources/source.ts';
import type { FetchOutcome } from '../feeds/fetcher/feed-fetcher.ts';
import { noResponseHints } from '../feeds/fetcher/response-hints.ts';
import { parseFeed } from '../feeds/parser/parse-feed.ts';
import { ingestPushedFeed, pollSource, type PollDependencies } from './poll-source.ts';
import type { PollState, PollStateStore } from './poll-state.ts';
import { memorySeen } from '../../test/support/memory-seen.ts';

const source = sourceState(
  { name: 'S', feed_url: 'https://feeds.example/rss', category: 'general', language: 'en', country: 'gb' },
  null,
  0,
);

const item = (n: number) =>
  `<item><guid>item-${n}</guid><title>Item ${n}</title><link>https://feeds.example/${n}</link><pubDate>Fri, 27 Nov 2026 10:0${n}:00 GMT</pubDate></item>`;
const rss = (items: number[], head = '') =>
  Buffer.from(
    `<?xml version="1.0"?><rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom"><channel><title>S</title><link>https://feeds.example/</link>${head}${items.map(item).join('')}</channel></rss>`,
  );

function harness(outcomes: FetchOutcome[] = []) {
  const sent: { topic: string; values: unknown[] }[] = [];
  const state: PollState = { etag: '"v1"', lastModified: null, consecutiveFailures: 1 };
  const found: { hubs: string[]; selfUrl: string | null }[] = [];
  const deps: PollDependencies = {
    fetch: async () => outcomes.shift()!,
    parse: parseFeed,
    producer: {
      send: async (topic: string, events: { value: unknown }[]) =>
        void sent.push({ topic, values: events.map((e) => e.value) }),
    } as unknown as EventProducer,
    seen: memorySeen().seen,
    revisions: { perDay: 6, minIntervalMs: 0 },
    state: {
      get: async () => state,
      set: async (_: string, next: PollState) => Object.assign(state, next),
    } as unknown as PollStateStore,
    logger: createLogger('test', 'silent'),
    clock: () => Date.UTC(2026, 10, 27, 12),
    unhealthyAfter: 3,
    nextPollAt: () => 0,
    onHubs: (_source, hubs) => void found.push(hubs),
  };
  const polls = () =>
    sent.filter((s) => s.topic === 'news.feed-polls.v1').flatMap((s) => s.values as FeedPoll[]);
  const articles = () =>
    sent
      .filter((s) => s.topic === 'news.articles.discovered.v1')
      .flatMap((s) => s.values as ArticleDiscovered[]);
  return { deps, polls, articles, found, state };
}

const ok = (body: Buffer, hints = noResponseHints): FetchOutcome => ({
  kind: 'ok',
  status: 200,
  body,
  contentType: 'application/rss+xml',
  etag: '"v2"',
  lastModified: null,
  finalUrl: source.feed_url,
  redirectStatuses: [],
  durationMs: 1,
  hints,
});

describe('ingestPushedFeed', () => {
  it('appends new items and records a websub FeedPoll, leaving the poll state alone', async () => {
    const h = harness();
    const pushed = await ingestPushedFeed(source, rss([1, 2]), 'application/rss+xml', h.deps);
    expect(pushed.ok).toBe(true);
    expect(h.articles().map((a) => [a.title, a.revision])).toEqual([
      ['Item 1', 1],
      ['Item 2', 1],
    ]);
    expect(h.polls()).toEqual([
      expect.objectContaining({
        trigger: 'websub',
        status: 'ok',
        http_status: null,
        etag: null,
        last_modified: null,
        items_seen: 2,
        new_items: 2,
        next_poll_at: null,
        consecutive_failures: 1,
        healthy: true,
      }),
    ]);
    expect(h.state).toEqual({ etag: '"v1"', lastModified: null, consecutiveFailures: 1 });
  });

  it('shares the dedupe with polls: what was pushed is not emitted again by a poll, nor by a second push', async () => {
    const h = harness([ok(rss([1, 2, 3]))]);
    await ingestPushedFeed(source, rss([1]), null, h.deps);
    await ingestPushedFeed(source, rss([1]), null, h.deps);
    await pollSource(source, h.deps);
    expect(h.articles().map((a) => a.title)).toEqual(['Item 1', 'Item 2', 'Item 3']);
    expect(h.polls().map((p) => [p.trigger, p.new_items])).toEqual([
      ['websub', 1],
      ['websub', 0],
      ['poll', 2],
    ]);
  });

  it('records unreadable content as a failed websub poll without appending anything', async () => {
    const h = harness();
    const pushed = await ingestPushedFeed(
      source,
      Buffer.from('<html><body>no</body></html>'),
      'text/html',
      h.deps,
    );
    expect(pushed.ok).toBe(false);
    expect(!pushed.ok && pushed.reason).toMatch(/^pushed content could not be parsed/);
    expect(h.articles()).toEqual([]);
    expect(h.polls()).toEqual([
      expect.objectContaining({ trigger: 'websub', status: 'failed', new_items: 0 }),
    ]);
  });
});

describe('onHubs', () => {
  it('gets the hubs of the Link header first, then the feed, and the self URL, after an ok poll', async () => {
    const head =
      '<atom:link rel="hub" href="https://feed-hub.example/"/><atom:link rel="self" href="https://feeds.example/self"/>';
    const h = harness([
      ok(rss([1], head), { freshForMs: null, hubs: ['https://header-hub.example/'], selfUrl: null }),
      ok(rss([1])),
    ]);
    await pollSource(source, h.deps);
    await pollSource(source, h.deps);
    expect(h.found).toEqual([
      {
        hubs: ['https://header-hub.example/', 'https://feed-hub.example/'],
        selfUrl: 'https://feeds.example/self',
      },
      { hubs: [], selfUrl: null },
    ]);
  });

  it('is called after a 304 (to renew what is stored), not after a failure, and cannot fail the poll', async () => {
    const h = harness([
      {
        kind: 'not_modified',
        status: 304,
        etag: null,
        lastModified: null,
        finalUrl: source.feed_url,
        redirectStatuses: [],
        durationMs: 1,
        hints: noResponseHints,
      },
      { kind: 'failed', status: 500, reason: 'HTTP 500', retryAfterMs: null, durationMs: 1 },
      ok(rss([1])),
    ]);
    await pollSource(source, h.deps);
    await pollSource(source, h.deps);
    expect(h.found).toHaveLength(1);
    h.deps.onHubs = () => {
      throw new Error('redis down');
    };
    const { poll } = await pollSource(source, h.deps);
    expect(poll).toMatchObject({ status: 'ok', new_items: 1 });
  });
});
