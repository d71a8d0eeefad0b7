// The outcome rules of one poll, with fakes for Kafka and Redis (the
// integration suite runs the same code against the real ones).
import { describe, expect, it } from 'vitest';
import type { FeedPoll } from '../runtime/events/types.generated.ts';
import type { EventProducer } from '../runtime/kafka/producer.ts';
import { createLogger } from '../runtime/logger.ts';
import { sourceState } from '../sources/source.ts';
import type { FetchOutcome } from '../feeds/fetcher/feed-fetcher.ts';
import { parseFeed } from '../feeds/parser/parse-feed.ts';
import { pollSource, type PollDependencies } from './poll-source.ts';
import type { PollState, PollStateStore } from './poll-state.ts';
import type { SeenArticles } from './seen-articles.ts';

const source = sourceState(
  { name: 'S', feed_url: 'https://feeds.example/rss', category: 'general', language: 'en', country: 'gb' },
  null,
  0,
);

function harness(outcomes: FetchOutcome[]) {
  const sent: { topic: string; values: unknown[] }[] = [];
  let state: PollState = { etag: null, lastModified: null, consecutiveFailures: 0 };
  const seenIds = new Set<string>();
  const deps: PollDependencies = {
    fetch: async () => outcomes.shift()!,
    parse: parseFeed,
    producer: {
      send: async (topic: string, events: { value: unknown }[]) =>
        void sent.push({ topic, values: events.map((e) => e.value) }),
    } as unknown as EventProducer,
    seen: {
      claim: async (ids: string[]) => new Set(ids.filter((id) => !seenIds.has(id))),
      confirm: async (ids: Iterable<string>) => void [...ids].forEach((id) => seenIds.add(id)),
      release: async () => undefined,
    } as unknown as SeenArticles,
    state: {
      get: async () => state,
      set: async (_: string, next: PollState) => void (state = next),
    } as unknown as PollStateStore,
    logger: createLogger('test', 'silent'),
    clock: () => 1_000,
    unhealthyAfter: 3,
    nextPollAt: (_s, failures) => 1_000 + 60_000 * 2 ** failures,
  };
  const polls = () =>
    sent.filter((s) => s.topic === 'news.feed-polls.v1').flatMap((s) => s.values as FeedPoll[]);
  return { deps, sent, polls };
}

const failed: FetchOutcome = {
  kind: 'failed',
  status: 503,
  reason: 'HTTP 503 Service Unavailable',
  retryAfterMs: null,
  durationMs: 5,
};
const rss = (items: string) =>
  new TextEncoder().encode(
    `<rss version="2.0"><channel><title>T</title><link>https://feeds.example/</link>${items}</channel></rss>`,
  );
const ok = (body: Uint8Array): FetchOutcome => ({
  kind: 'ok',
  status: 200,
  body,
  contentType: 'text/plain',
  etag: '"v1"',
  lastModified: null,
  finalUrl: 'https://feeds.example/rss',
  redirects: 0,
  durationMs: 5,
});

describe('pollSource', () => {
  it('marks a source unhealthy after repeated failures, keeps scheduling it, and recovers on success', async () => {
    const { deps, polls } = harness([
      failed,
      failed,
      failed,
      ok(rss('<item><title>A</title><link>https://feeds.example/a</link></item>')),
    ]);
    for (let i = 0; i < 4; i++) await pollSource(source, deps);
    expect(polls().map((p) => [p.status, p.consecutive_failures, p.healthy])).toEqual([
      ['failed', 1, true],
      ['failed', 2, true],
      ['failed', 3, false],
      ['ok', 0, true],
    ]);
    expect(polls()[2]!.next_poll_at).toBe(1_000 + 60_000 * 8);
    expect(polls()[2]!.error_reason).toBe('HTTP 503 Service Unavailable');
  });

  it('reads a feed served with the wrong content type (format comes from the content)', async () => {
    const { deps, sent } = harness([
      ok(rss('<item><title>A</title><link>https://feeds.example/a</link></item>')),
    ]);
    const { poll } = await pollSource(source, deps);
    expect(poll).toMatchObject({ status: 'ok', items_seen: 1, new_items: 1 });
    expect(sent.find((s) => s.topic === 'news.articles.discovered.v1')?.values).toHaveLength(1);
  });

  it('counts skipped items with a reason and emits the rest', async () => {
    const { deps } = harness([
      ok(
        rss(
          '<item><title>No link</title></item><item><title>B</title><link>https://feeds.example/b</link></item>',
        ),
      ),
    ]);
    const { poll } = await pollSource(source, deps);
    expect(poll).toMatchObject({ status: 'ok', items_seen: 2, new_items: 1, skipped_items: 1 });
    expect(poll.skipped_reasons).toEqual(['item "No link" has no usable link']);
  });

  it('records an unparseable feed as failed and forgets the validators', async () => {
    const { deps } = harness([ok(new TextEncoder().encode('<html><body>nope</body></html>'))]);
    const { poll } = await pollSource(source, deps);
    expect(poll).toMatchObject({ status: 'failed', http_status: 200, etag: null });
    expect(poll.error_reason).toMatch(/^feed could not be parsed: not a feed: an HTML page/);
  });

  it('emits nothing for items already seen', async () => {
    const body = rss('<item><guid>g1</guid><title>A</title><link>https://feeds.example/a</link></item>');
    const { deps, sent } = harness([ok(body), ok(body)]);
    await pollSource(source, deps);
    const second = await pollSource(source, deps);
    expect(second.poll).toMatchObject({ status: 'ok', items_seen: 1, new_items: 0 });
    expect(sent.filter((s) => s.topic === 'news.articles.discovered.v1')).toHaveLength(1);
  });
});
