// The memory rebuilt from the log is the memory the poller had: the events a real poll emitted (first
// sightings, corrected headlines, undated items, moved dates), folded, give back the very records the
// poll confirmed, and a poll against the rebuilt memory emits only what is really new. The Redis side
// (the mark, the write that never replaces a newer record) is in test/integration/seen-articles.test.ts.
import { describe, expect, it } from 'vitest';
import type { ArticleDiscovered } from '../runtime/events/types.generated.ts';
import type { EventProducer } from '../runtime/kafka/producer.ts';
import { createLogger } from '../runtime/logger.ts';
import { sourceState } from '../sources/source.ts';
import type { FetchOutcome } from '../feeds/fetcher/feed-fetcher.ts';
import { noResponseHints } from '../feeds/fetcher/response-hints.ts';
import { parseFeed } from '../feeds/parser/parse-feed.ts';
import { memorySeen } from '../../test/support/memory-seen.ts';
import { pollSource, type PollDependencies } from './poll-source.ts';
import type { PollState, PollStateStore } from './poll-state.ts';
import { datedEvent, foldEvents } from './seen-memory-rebuild.ts';
import { decodeRecord, encodeRecord, articleAlias } from './seen-articles.ts';

const source = sourceState(
  { name: 'S', feed_url: 'https://feeds.example/rss', category: 'general', language: 'en', country: 'gb' },
  null,
  0,
);
const day = 24 * 60 * 60 * 1000;
const ttlSeconds = 30 * 24 * 60 * 60;

const item = (n: number, fields: { title?: string; text?: string; date?: string | null } = {}) =>
  `<item><guid>g${n}</guid><title>${fields.title ?? `Story ${n}`}</title>` +
  `<link>https://feeds.example/${n}</link><description>${fields.text ?? `Text of story ${n}.`}</description>` +
  (fields.date === null ? '' : `<pubDate>${fields.date ?? 'Mon, 16 Nov 2026 09:00:00 GMT'}</pubDate>`) +
  '</item>';
const feed = (...items: string[]): FetchOutcome => ({
  kind: 'ok',
  status: 200,
  body: new TextEncoder().encode(
    `<rss version="2.0"><channel><title>T</title><link>https://feeds.example/</link>${items.join('')}</channel></rss>`,
  ),
  contentType: 'application/rss+xml',
  etag: null,
  lastModified: null,
  finalUrl: 'https://feeds.example/rss',
  redirectStatuses: [],
  durationMs: 5,
  hints: noResponseHints,
});

/** A poller over `values` (the memory as Redis holds it) whose polls fetch `outcomes` in turn. */
function poller(outcomes: FetchOutcome[], values: Map<string, string>, start: number) {
  const emitted: ArticleDiscovered[] = [];
  let now = start;
  let state: PollState = { etag: null, lastModified: null, consecutiveFailures: 0 };
  const deps: PollDependencies = {
    fetch: async () => outcomes.shift()!,
    parse: parseFeed,
    producer: {
      send: async (topic: string, events: { value: unknown }[]) => {
        if (topic === 'news.articles.discovered.v1')
          emitted.push(...events.map((e) => e.value as ArticleDiscovered));
      },
    } as unknown as EventProducer,
    seen: memorySeen(values).seen,
    revisions: { perDay: 6, minIntervalMs: 0 },
    state: {
      get: async () => state,
      set: async (_: string, next: PollState) => void (state = next),
    } as unknown as PollStateStore,
    logger: createLogger('test', 'silent'),
    clock: () => now,
    unhealthyAfter: 3,
    nextPollAt: () => now + 60_000,
  };
  return {
    emitted,
    now: () => now,
    /** Polls once, then moves the clock on by an hour. */
    poll: async () => {
      await pollSource(source, deps);
      now += 60 * 60_000;
    },
  };
}

// Three dated items, one undated; then a corrected headline, a rewritten undated item, a moved date,
// a second correction of the same headline, and a new item.
const history = [
  feed(item(1), item(2), item(3), item(4, { date: null })),
  feed(
    item(1, { title: 'Story 1, corrected' }),
    item(2),
    item(3),
    item(4, { date: null, text: 'Rewritten.' }),
  ),
  feed(
    item(1, { title: 'Story 1, corrected' }),
    item(2, { date: 'Tue, 17 Nov 2026 10:00:00 GMT' }),
    item(3),
    item(4, { date: null, text: 'Rewritten.' }),
  ),
];
const latestItems = [
  item(1, { title: 'Story 1, corrected twice' }),
  item(2, { date: 'Tue, 17 Nov 2026 10:00:00 GMT' }),
  item(3),
  item(4, { date: null, text: 'Rewritten.' }),
  item(5),
];
history.push(feed(...latestItems));

describe('foldEvents', () => {
  it('gives back the records the poll confirmed, from the events it emitted', async () => {
    const values = new Map<string, string>();
    const run = poller([...history], values, Date.UTC(2026, 10, 20, 12));
    for (let i = 0; i < history.length; i++) await run.poll();
    // The history did make revisions, of dated and undated items, else this would prove little.
    expect(run.emitted.map((e) => [e.title, e.revision])).toEqual([
      ['Story 1', 1],
      ['Story 2', 1],
      ['Story 3', 1],
      ['Story 4', 1],
      ['Story 1, corrected', 2],
      ['Story 4', 2],
      ['Story 2', 2],
      ['Story 5', 1],
      ['Story 1, corrected twice', 3],
    ]);
    expect(run.emitted.map(datedEvent)).toEqual([true, true, true, false, true, false, true, true, true]);

    const rebuilt = foldEvents(run.emitted, run.now(), ttlSeconds);
    expect([...rebuilt.keys()].sort()).toEqual([...values.keys()].sort());
    for (const [id, { record, expiresInSeconds }] of rebuilt) {
      expect(encodeRecord(record), id).toBe(values.get(id));
      expect(expiresInSeconds).toBeGreaterThan(ttlSeconds - 5 * 60 * 60);
    }
  });

  it('makes a memory against which the feed as it stands is nothing new, and a new item is', async () => {
    const values = new Map<string, string>();
    const before = poller([...history], values, Date.UTC(2026, 10, 20, 12));
    for (let i = 0; i < history.length; i++) await before.poll();

    // Redis lost it all; rebuilt from the log.
    const rebuilt = new Map(
      [...foldEvents(before.emitted, before.now(), ttlSeconds)].map(([id, r]) => [
        id,
        encodeRecord(r.record),
      ]),
    );
    const after = poller([feed(...latestItems), feed(...latestItems, item(6))], rebuilt, before.now());
    await after.poll();
    expect(after.emitted).toEqual([]);
    await after.poll();
    expect(after.emitted.map((e) => [e.title, e.revision])).toEqual([['Story 6', 1]]);

    // Without the rebuild, the same poll would have emitted every item again.
    const forgetful = poller([feed(...latestItems)], new Map(), before.now());
    await forgetful.poll();
    expect(forgetful.emitted).toHaveLength(5);
  });

  it('holds the bound on updates across the rebuild: the updates of the last day are remembered', async () => {
    const values = new Map<string, string>();
    const run = poller([...history], values, Date.UTC(2026, 10, 20, 12));
    for (let i = 0; i < history.length; i++) await run.poll();
    const story1 = run.emitted.find((e) => e.title === 'Story 1')!.article_id;
    const record = foldEvents(run.emitted, run.now(), ttlSeconds).get(story1)!.record;
    expect(record.recentUpdates).toHaveLength(2);
    expect(record).toEqual(decodeRecord(values.get(story1)!));
  });

  it('leaves out what the memory would have forgotten, and keeps the latest revision of each article', () => {
    const now = Date.UTC(2026, 10, 20);
    const event = (id: string, revision: number, discoveredAt: number): ArticleDiscovered =>
      ({
        article_id: id,
        source_id: 'SRC_T',
        url: `https://feeds.example/${id}`,
        title: `t${revision}`,
        summary: null,
        content: null,
        author: null,
        published_at: Date.UTC(2026, 0, 1),
        discovered_at: discoveredAt,
        revision,
        first_published_at: revision > 1 ? Date.UTC(2026, 0, 1) : null,
        first_discovered_at: revision > 1 ? discoveredAt - 1 : null,
      }) as unknown as ArticleDiscovered;
    const folded = foldEvents(
      [
        event('old', 1, now - 31 * day),
        event('a', 2, now - day),
        // Out of order (a revision appended again after a later one): the later revision stays.
        event('a', 1, now - 2 * day),
        event('b', 1, now - 2 * day),
      ],
      now,
      ttlSeconds,
    );
    expect([...folded.keys()].sort()).toEqual(['a', 'b']);
    expect(folded.get('a')!.record.revision).toBe(2);
    // Its alias is its latest revision's: the title an item of the feed now has.
    expect(folded.get('a')!.alias).toBe(
      articleAlias({ source_id: 'SRC_T', url: 'https://feeds.example/a', title: 't2' }),
    );
    expect(folded.get('b')!.expiresInSeconds).toBe(ttlSeconds - 2 * 24 * 60 * 60);
  });
});
