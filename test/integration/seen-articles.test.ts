// The poller's dedupe and change memory against the real Redis: first-sighting claims, revision claims
// that two pollers cannot both win, a crash between claim and confirm, and memories written before
// revisions were tracked. Then two polls of one changed feed at once, sharing the memory: one revision.
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ArticleDiscovered } from '../../services/runtime/events/types.generated.ts';
import type { EventProducer } from '../../services/runtime/kafka/producer.ts';
import { topicNames } from '../../services/runtime/kafka/topics.ts';
import { parseFeed } from '../../services/feeds/parser/parse-feed.ts';
import { noResponseHints } from '../../services/feeds/fetcher/response-hints.ts';
import type { Fingerprint } from '../../services/poller/article-fingerprint.ts';
import type { ArticleRecord } from '../../services/poller/article-revision.ts';
import { pollSource, type PollDependencies } from '../../services/poller/poll-source.ts';
import { noPace, noPollState, PollStateStore } from '../../services/poller/poll-state.ts';
import { discoveredArticle } from '../support/discovered-article.ts';
import { SourceLock } from '../../services/poller/source-lock.ts';
import { decodeRecord, encodeRecord, SeenArticles } from '../../services/poller/seen-articles.ts';
import { sourceState } from '../../services/sources/source.ts';
import { stack, testLogger } from './support/stack.ts';
import { waitFor } from './support/wait.ts';

const fingerprint = (title: string): Fingerprint => ({
  title,
  summary: 's',
  content: 'c',
  author: 'a',
  published_at: 'p',
  url: 'u',
});
const record = (revision: number, title: string): ArticleRecord => ({
  revision,
  fingerprint: fingerprint(title),
  firstPublishedAt: 1_000,
  firstDiscoveredAt: 2_000,
  lastRevisionAt: 2_000,
  recentUpdates: [],
});

describe('seen articles (Redis)', () => {
  const run = randomUUID().slice(0, 8);
  const prefix = `test:${run}:seen:`;
  let redis: Redis;
  const store = (claimSeconds = 300) => new SeenArticles(redis, { ttlSeconds: 3600, claimSeconds, prefix });

  beforeAll(() => {
    redis = new Redis(stack.REDIS_URL);
  });

  afterAll(async () => {
    const keys = await redis.keys(`test:${run}:*`);
    if (keys.length) await redis.del(...keys);
    await redis.quit();
  });

  it('lets one poller claim a first sighting, and remembers what it emitted', async () => {
    const [a, b] = [store(), store()];
    expect(await a.look(['first'])).toEqual(new Map([['first', { kind: 'new' }]]));
    expect([...(await a.claim(['first']))]).toEqual(['first']);
    expect([...(await b.claim(['first']))]).toEqual([]);
    expect((await b.look(['first'])).get('first')).toEqual({ kind: 'claimed' });
    await a.confirm(new Map([['first', record(1, 'A')]]));
    const sighting = (await b.look(['first'])).get('first');
    expect(sighting).toMatchObject({ kind: 'emitted', record: record(1, 'A') });
    expect(await redis.ttl(`${prefix}first`)).toBeGreaterThan(3000);
  });

  it('looks up and claims in one command: what is there is read, what is not is claimed for the caller alone', async () => {
    const [a, b] = [store(60), store()];
    await a.confirm(new Map([['known', record(1, 'K')]]));
    await redis.set(`${prefix}old`, 'seen');
    const first = await a.lookAndClaim(['fresh', 'known', 'old', 'fresh2']);
    expect([...first.claimed].sort()).toEqual(['fresh', 'fresh2']);
    expect(first.sightings.get('fresh')).toEqual({ kind: 'new' });
    expect(first.sightings.get('known')).toMatchObject({ kind: 'emitted', record: record(1, 'K') });
    expect(first.sightings.get('old')).toEqual({ kind: 'legacy' });
    // Claimed with the claim's expiry; the others untouched.
    expect(await redis.get(`${prefix}fresh`)).toBe('claimed');
    expect(await redis.ttl(`${prefix}fresh`)).toBeLessThanOrEqual(60);
    expect(await redis.get(`${prefix}old`)).toBe('seen');
    // A second poller finds them claimed and claims nothing; at once, only one of two wins each id.
    const second = await b.lookAndClaim(['fresh', 'fresh2']);
    expect(second.claimed.size).toBe(0);
    expect(second.sightings.get('fresh')).toEqual({ kind: 'claimed' });
    const ids = Array.from({ length: 50 }, (_, i) => `race${i}`);
    const [x, y] = await Promise.all([a.lookAndClaim(ids), b.lookAndClaim(ids)]);
    expect(x.claimed.size + y.claimed.size).toBe(50);
    expect([...x.claimed].filter((id) => y.claimed.has(id))).toEqual([]);
    await a.release(first.claimed);
    expect(await redis.exists(`${prefix}fresh`)).toBe(0);
  });

  it('finds an article by its alias when its id is new, and keeps an alias on the article that took it first', async () => {
    const a = store(60);
    // Emitted as `was`, its alias remembered with it (and `other` under an alias of its own).
    await a.confirm(
      new Map([
        ['was', record(1, 'A')],
        ['other', record(1, 'O')],
      ]),
      new Map([
        ['alias-a', 'was'],
        ['alias-o', 'other'],
      ]),
    );
    expect(await redis.get(`${prefix}alias:alias-a`)).toBe('was');
    expect(await redis.ttl(`${prefix}alias:alias-a`)).toBeGreaterThan(3000);
    const found = await a.lookAndClaim(
      ['now', 'was', 'fresh', 'other'],
      ['alias-a', 'alias-a', 'alias-f', 'alias-o'],
    );
    // `now` is new under its id but its alias names `was`: neither claimed nor looked at as itself.
    expect(found.aliased).toEqual(new Map([['now', 'was']]));
    expect(found.sightings.has('now')).toBe(false);
    expect(await redis.exists(`${prefix}now`)).toBe(0);
    // An alias naming the id itself, or no alias at all: as without aliases.
    expect(found.sightings.get('was')).toMatchObject({ kind: 'emitted' });
    expect([...found.claimed]).toEqual(['fresh']);
    // A second confirm of the alias for another article leaves it naming the first; for the same
    // article, it keeps it as long as the article.
    await redis.expire(`${prefix}alias:alias-a`, 100);
    await a.confirm(new Map([['now', record(1, 'N')]]), new Map([['alias-a', 'now']]));
    expect(await redis.get(`${prefix}alias:alias-a`)).toBe('was');
    expect(await redis.ttl(`${prefix}alias:alias-a`)).toBeLessThanOrEqual(100);
    await a.confirm(new Map([['was', record(2, 'A2')]]), new Map([['alias-a', 'was']]));
    expect(await redis.ttl(`${prefix}alias:alias-a`)).toBeGreaterThan(3000);
    // Rebuilt from the log: the alias is written where none is.
    await a.remember(
      new Map([['rebuilt', { record: record(1, 'R'), expiresInSeconds: 500, alias: 'alias-r' }]]),
    );
    expect(await redis.get(`${prefix}alias:alias-r`)).toBe('rebuilt');
    expect(await redis.ttl(`${prefix}alias:alias-r`)).toBeLessThanOrEqual(500);
  });

  it('remembers an article for the full expiry again each time its feed still lists it, and its alias with it', async () => {
    const a = store(60);
    await a.confirm(
      new Map([
        ['listed', record(1, 'L')],
        ['gone', record(1, 'G')],
        ['aliased', record(1, 'A')],
      ]),
      new Map([
        ['alias-l', 'listed'],
        ['alias-shared', 'aliased'],
      ]),
    );
    await redis.set(`${prefix}legacy`, 'seen', 'EX', 50);
    await a.claim(['being-produced']);
    // Days later, nearly expired (an undated item still in its feed after DEDUPE_TTL_DAYS would
    // otherwise come back as new, with a new date).
    for (const key of ['listed', 'gone', 'aliased', 'alias:alias-l', 'alias:alias-shared'])
      await redis.expire(`${prefix}${key}`, 50);
    await redis.expire(`${prefix}being-produced`, 50);
    const found = await a.lookAndClaim(
      ['listed', 'aliased', 'legacy', 'being-produced', 'fresh-one'],
      ['alias-l', 'alias-other', null, null, 'alias-shared'],
    );
    expect(found.sightings.get('listed')).toMatchObject({ kind: 'emitted' });
    expect(await redis.ttl(`${prefix}listed`)).toBeGreaterThan(3000);
    expect(await redis.ttl(`${prefix}alias:alias-l`)).toBeGreaterThan(3000);
    expect(await redis.ttl(`${prefix}aliased`)).toBeGreaterThan(3000);
    expect(await redis.ttl(`${prefix}legacy`)).toBeGreaterThan(3000);
    // Not listed now: left to expire. An alias naming another article is that article's to keep, and
    // a claim keeps the claim's expiry.
    expect(await redis.ttl(`${prefix}gone`)).toBeLessThanOrEqual(50);
    expect(await redis.ttl(`${prefix}alias:alias-shared`)).toBeLessThanOrEqual(50);
    expect(await redis.ttl(`${prefix}being-produced`)).toBeLessThanOrEqual(50);
    expect(found.aliased).toEqual(new Map([['fresh-one', 'aliased']]));
  });
  it('lets exactly one of two pollers claim the same revision, and neither claim it again from a stale record', async () => {
    await store().confirm(new Map([['rev', record(1, 'A')]]));
    const stored = encodeRecord(record(1, 'A'));
    const [a, b] = [store(), store()];
    const [mineA, mineB] = await Promise.all([
      a.claimRevisions([{ id: 'rev', stored }]),
      b.claimRevisions([{ id: 'rev', stored }]),
    ]);
    expect(mineA.size + mineB.size).toBe(1);
    const winner = mineA.size ? a : b;
    await winner.confirm(new Map([['rev', record(2, 'B')]]));
    // The claim is gone with the confirm, but the record the loser compared against is too.
    expect((await b.claimRevisions([{ id: 'rev', stored }])).size).toBe(0);
    expect((await a.claimRevisions([{ id: 'rev', stored }])).size).toBe(0);
    expect(decodeRecord((await redis.get(`${prefix}rev`))!)).toMatchObject({ revision: 2 });
  });

  it('keeps the record when producing failed or the poller died, so the change is emitted later', async () => {
    await store().confirm(new Map([['crash', record(1, 'A')]]));
    const stored = encodeRecord(record(1, 'A'));
    const released = store();
    expect((await released.claimRevisions([{ id: 'crash', stored }])).size).toBe(1);
    await released.release([], ['crash']);
    // A poller that dies holds its claim until it expires; the record is untouched meanwhile.
    const dying = store(1);
    expect((await dying.claimRevisions([{ id: 'crash', stored }])).size).toBe(1);
    expect((await store().claimRevisions([{ id: 'crash', stored }])).size).toBe(0);
    expect(await redis.get(`${prefix}crash`)).toBe(stored);
    await waitFor(
      async () => (await store().claimRevisions([{ id: 'crash', stored }])).size === 1,
      'the dead poller’s claim to expire',
      5_000,
    );
  });

  it("adopts a memory from before revisions ('seen') once, keeping its expiry, and never overwrites a record", async () => {
    await redis.set(`${prefix}old`, 'seen', 'EX', 1_000);
    expect((await store().look(['old'])).get('old')).toEqual({ kind: 'legacy' });
    await store().adopt(new Map([['old', record(1, 'Now')]]));
    expect(decodeRecord((await redis.get(`${prefix}old`))!)).toMatchObject({ revision: 1 });
    expect(await redis.ttl(`${prefix}old`)).toBeLessThanOrEqual(1_000);
    expect(await redis.ttl(`${prefix}old`)).toBeGreaterThan(900);
    await store().adopt(new Map([['old', record(1, 'Other')]]));
    expect(decodeRecord((await redis.get(`${prefix}old`))!)!.fingerprint.title).toBe('Now');
  });

  it('emits one revision when two pollers poll the same changed feed at once', async () => {
    const source = sourceState(
      {
        name: 'S',
        feed_url: 'https://feeds.example/rss',
        category: 'general',
        language: 'en',
        country: 'gb',
      },
      null,
      0,
    );
    const feed = (title: string) =>
      new TextEncoder().encode(
        `<rss version="2.0"><channel><title>T</title><item><guid>g-${run}</guid><title>${title}</title>` +
          `<link>https://feeds.example/a</link><pubDate>Fri, 20 Nov 2026 08:00:00 GMT</pubDate></item></channel></rss>`,
      );
    let body = feed('Before');
    const appended: ArticleDiscovered[] = [];
    const poller = (): PollDependencies => ({
      fetch: async () => ({
        kind: 'ok',
        status: 200,
        body,
        contentType: 'application/rss+xml',
        etag: null,
        lastModified: null,
        finalUrl: source.feed_url,
        redirectStatuses: [],
        durationMs: 1,
        hints: noResponseHints,
      }),
      parse: parseFeed,
      producer: {
        send: async (topic: string, events: { value: unknown }[]) => {
          if (topic === topicNames.articlesDiscovered)
            appended.push(...events.map((e) => e.value as ArticleDiscovered));
        },
      } as unknown as EventProducer,
      seen: store(),
      revisions: { perDay: 6, minIntervalMs: 0 },
      state: new PollStateStore(redis, `test:${run}:poll:${randomUUID()}:`),
      logger: testLogger,
      clock: Date.now,
      unhealthyAfter: 3,
      nextPollAt: () => Date.now() + 60_000,
    });
    await Promise.all([pollSource(source, poller()), pollSource(source, poller())]);
    body = feed('After');
    await Promise.all([pollSource(source, poller()), pollSource(source, poller())]);
    await Promise.all([pollSource(source, poller()), pollSource(source, poller())]);
    expect(appended.map((a) => [a.revision, a.title])).toEqual([
      [1, 'Before'],
      [2, 'After'],
    ]);
  });
});

describe('source lock (Redis)', () => {
  const run = randomUUID().slice(0, 8);
  let redis: Redis;

  beforeAll(() => {
    redis = new Redis(stack.REDIS_URL);
  });

  afterAll(async () => {
    const keys = await redis.keys(`test:${run}:*`);
    if (keys.length) await redis.del(...keys);
    await redis.quit();
  });

  it("reads the source's poll state as it takes the lock, and nothing while another poller holds it", async () => {
    const state = new PollStateStore(redis, `test:${run}:poll:`);
    const [a, b] = [
      new SourceLock(redis, 60_000, `test:${run}:lock:`),
      new SourceLock(redis, 60_000, `test:${run}:lock:`),
    ];
    const written = {
      etag: '"e1"',
      lastModified: 'Tue, 01 Mar 2005 00:00:00 GMT',
      consecutiveFailures: 2,
      pace: {
        publications: [Date.UTC(2026, 10, 20, 12), Date.UTC(2026, 10, 20, 11, 30)],
        publisher: { ttlSeconds: 3600, updateIntervalSeconds: null },
        intervalSeconds: 465,
        freshSeconds: 60,
      },
    };
    await state.set('src', written);
    expect(await a.acquireReading('src', state)).toEqual(written);
    expect(await redis.pttl(`test:${run}:lock:src`)).toBeGreaterThan(50_000);
    expect(await b.acquireReading('src', state)).toBeNull();
    await b.release('src'); // not its lock: stays
    expect(await b.acquireReading('src', state)).toBeNull();
    await a.release('src');
    expect(await b.acquireReading('src', state)).toEqual(await state.get('src'));
    // A source never polled: the empty state, and the lock taken all the same.
    expect(await a.acquireReading('new', state)).toEqual(noPollState());
    expect(await b.acquireReading('new', state)).toBeNull();
  });

  it('keeps the updates held back in the poll state while there are some, and no field otherwise', async () => {
    const state = new PollStateStore(redis, `test:${run}:poll:`);
    const lock = new SourceLock(redis, 60_000, `test:${run}:lock:`);
    const at = Date.UTC(2026, 11, 7, 12);
    const held = {
      article: discoveredArticle('a1', at, { title: 'Minister resigns — corrected', author: 'Ann' }),
      dated: true,
      notBefore: at + 15 * 60_000,
    };
    await state.set('held', { ...noPollState(), held: [held] });
    expect((await lock.acquireReading('held', state))?.held).toEqual([held]);
    expect((await state.get('held')).held).toEqual([held]);
    await state.set('held', { ...noPollState(), held: [] });
    expect(await redis.hexists(`test:${run}:poll:held`, 'held')).toBe(0);
    expect((await state.get('held')).held).toBeUndefined();
  });

  it('reads a state written before adaptive polling (no pace fields) as having no pace yet, and replaces it whole', async () => {
    const state = new PollStateStore(redis, `test:${run}:poll:`);
    await redis.hset(`test:${run}:poll:old`, { etag: '"e0"', last_modified: '', failures: '1' });
    expect(await state.get('old')).toEqual({ ...noPollState(), etag: '"e0"', consecutiveFailures: 1 });
    await state.set('old', {
      ...noPollState(),
      pace: { ...noPace(), publications: [Date.UTC(2026, 10, 20, 12)], intervalSeconds: 120 },
    });
    expect(await redis.hgetall(`test:${run}:poll:old`)).toEqual({
      etag: '',
      last_modified: '',
      failures: '0',
      published: String(Date.UTC(2026, 10, 20, 12) / 1000),
      ttl: '',
      update_interval: '',
      interval: '120',
      fresh: '',
    });
    expect(await redis.ttl(`test:${run}:poll:old`)).toBeGreaterThan(29 * 86_400);
  });
});
