import { describe, expect, it } from 'vitest';
import { ApiError } from '../../runtime/api-error.ts';
import type { Source, SourceSubscription } from '../../runtime/events/types.generated.ts';
import type { EventProducer } from '../../runtime/kafka/producer.ts';
import { topicNames } from '../../runtime/kafka/topics.ts';
import { sourceIdFor } from '../../sources/source.ts';
import type { SourceCatalog, SourceItem } from './source-catalog.ts';
import {
  homePageOf,
  nameCandidates,
  publicFeedProblem,
  SourceSubscriptions,
  type FeedCheckResult,
} from './subscriptions.ts';

describe('homePageOf', () => {
  it("keeps a feed's absolute http(s) home page and leaves out one no source could hold", () => {
    expect(homePageOf('https://news.example/')).toBe('https://news.example/');
    expect(homePageOf(null)).toBeNull();
    // What a feed's <link> holds in the wild, unresolved: each would have refused the whole feed.
    for (const junk of ['javascript:void(0)', 'mailto:desk@news.example', 'www.example.com:80', '/', ''])
      expect(homePageOf(junk), junk).toBeNull();
  });
});

describe('publicFeedProblem', () => {
  it('says what the body is not without quoting it', () => {
    expect(publicFeedProblem('not a feed: the body starts with "SECRET_TOKEN=abcdef0"')).toBe(
      'not a feed: the body is text, not RSS, Atom, RDF or JSON Feed',
    );
    expect(publicFeedProblem('not a feed: an HTML page')).toBe('not a feed: an HTML page');
  });
});

describe('SourceSubscriptions.subscribe', () => {
  // A source created at the old address whose feed moved: its id is still the old address's.
  const moved: SourceItem = {
    id: sourceIdFor('https://old.example/rss'),
    name: 'Moved',
    url: 'https://new.example/feed.xml',
    previous_urls: ['https://old.example/rss'],
    site_url: null,
    category: 'general',
    language: 'en',
    country: 'gb',
    active: true,
    subscribed: false,
    added_by_you: false,
    health: {
      status: 'healthy',
      last_polled_at: null,
      last_poll_status: null,
      last_error: null,
      consecutive_failures: 0,
      poll_interval_seconds: null,
      interval_reason: null,
      next_poll_at: null,
      items_skipped: 0,
      skipped_reasons: [],
      warnings: [],
    },
  };

  const htmlPage = { ok: false as const, reason: 'not a feed: an HTML page', feedLinks: [] };

  /**
   * The read model as SourceCatalog answers it (idByUrl's rule), over `moved`, the sources appended and
   * what is subscribed; `feeds` answers the fetch of a URL (by default: a page naming no feed).
   */
  function subscriptions(feeds: Record<string, FeedCheckResult> = {}, readModelLagMs = 0) {
    const subscribed = new Set<string>();
    const unsubscribed = new Set<string>();
    const added = new Map<string, Source>();
    const appended: { topic: string; value: unknown }[] = [];
    const fetched: string[] = [];
    const catalog = {
      idByUrl: async (url: string, id: string) =>
        url === moved.url || moved.previous_urls.includes(url) || id === moved.id
          ? moved.id
          : added.has(id)
            ? id
            : null,
      get: async (id: string) => {
        if (id === moved.id) return { ...moved, subscribed: subscribed.has(id) };
        const source = added.get(id);
        if (!source) return null;
        return {
          ...moved,
          id,
          name: source.name,
          url: source.feed_url,
          site_url: source.site_url,
          previous_urls: [],
          subscribed: subscribed.has(id),
        };
      },
      byName: async (name: string) => {
        const source = [...added.values()].find((s) => s.name.toLowerCase() === name.toLowerCase());
        return source ? { id: source.source_id, name: source.name } : null;
      },
      // As the read model counts them: added by the tenant, not unsubscribed (one tenant here).
      addedSources: async (tenantId: string, except: string | null) =>
        [...added.values()].filter(
          (s) => s.created_by_tenant === tenantId && s.source_id !== except && !unsubscribed.has(s.source_id),
        ).length,
      addedBy: async (id: string, tenantId: string) => added.get(id)?.created_by_tenant === tenantId,
    } as unknown as SourceCatalog;
    const producer = {
      send: async (topic: string, events: { value: unknown }[]) => {
        for (const { value } of events) {
          appended.push({ topic, value });
          if (topic === topicNames.sourceSubscriptions) {
            const { source_id, subscribed: on } = value as SourceSubscription;
            (on ? subscribed : unsubscribed).add(source_id);
            (on ? unsubscribed : subscribed).delete(source_id);
          }
          const source = value as Source;
          if (topic === topicNames.sources)
            if (readModelLagMs === 0) added.set(source.source_id, source);
            else setTimeout(() => added.set(source.source_id, source), readModelLagMs);
        }
      },
    } as unknown as EventProducer;
    const service = new SourceSubscriptions({
      catalog,
      producer,
      checkFeed: async (url) => {
        fetched.push(url);
        return feeds[url] ?? htmlPage;
      },
      pollIntervalSeconds: 900,
      visibleWithinMs: 1_000,
    });
    return { service, appended, fetched };
  }

  it("finds a moved feed's source by its new URL and by its old one, and adds no source", async () => {
    for (const url of [
      'https://new.example/feed.xml',
      'https://old.example/rss',
      'https://OLD.example/rss#x',
    ]) {
      const { service, appended, fetched } = subscriptions();
      const result = await service.subscribe('ten_a', {
        url,
        category: 'general',
        country: 'gb',
      });
      expect(result, url).toMatchObject({ created: false, source: { id: moved.id, subscribed: true } });
      expect(fetched, url).toEqual([]);
      expect(
        appended.map((a) => a.topic),
        url,
      ).toEqual([topicNames.sourceSubscriptions]);
    }
  });

  it("refuses one more source of the tenant's own past its plan's added sources, and limits nothing else", async () => {
    const urls = ['https://a.example/rss', 'https://b.example/rss', 'https://c.example/rss'];
    const { service, fetched } = subscriptions(
      Object.fromEntries(urls.map((url, i) => [url, { ...feed, title: `Feed ${i}` }])),
    );
    const limits = { addedSources: 2 };
    const add = (url: string) =>
      service.subscribe('ten_a', { url, category: 'general', country: 'gb' }, limits);
    const [a] = [await add(urls[0]!), await add(urls[1]!)];
    const refused = add(urls[2]!);
    await expect(refused).rejects.toMatchObject({ code: 'plan_limit_reached' });
    await expect(refused).rejects.toThrow(
      /the plan allows 2 sources added by your tenant .* and 2 are; unsubscribe from one of them/,
    );
    expect(fetched).not.toContain(urls[2]); // nothing fetched on its behalf
    // A source already in the catalog is not one of its own: not limited.
    expect((await add('https://old.example/rss')).source.id).toBe(moved.id);
    // One of its own left makes room; following it again takes that room again.
    expect(await service.unsubscribe('ten_a', a.source.id)).toBe(true);
    expect((await add(urls[2]!)).created).toBe(true);
    await expect(add(urls[0]!)).rejects.toMatchObject({ code: 'plan_limit_reached' });
    // Unlimited (enterprise): as before.
    expect(
      (await service.subscribe('ten_a', { url: urls[0]!, category: 'general', country: 'gb' })).created,
    ).toBe(false);
  });

  it('lets requests adding sources at once pass the limit no further, while the read model lags', async () => {
    const urls = ['https://a.example/rss', 'https://b.example/rss', 'https://c.example/rss'];
    const { service } = subscriptions(
      Object.fromEntries(urls.map((url, i) => [url, { ...feed, title: `Feed ${i}` }])),
      200,
    );
    const results = await Promise.allSettled(
      urls.map((url) =>
        service.subscribe('ten_a', { url, category: 'general', country: 'gb' }, { addedSources: 2 }),
      ),
    );
    expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'fulfilled', 'rejected']);
  });

  it("names new sources after their feeds' titles, told apart by host, path and then a number", async () => {
    const urls = [
      'https://news.example/rss',
      'https://other.example/rss',
      'https://news.example/sport/rss',
      'https://news.example/sport/rss?edition=uk',
      'https://news.example/sport/rss?edition=us',
    ];
    const { service } = subscriptions(
      Object.fromEntries(urls.map((url) => [url, { ...feed, title: 'News' }])),
    );
    const names: string[] = [];
    for (const url of urls) {
      const { source } = await service.subscribe('ten_a', { url, category: 'general', country: 'gb' });
      names.push(source.name);
    }
    expect(names).toEqual([
      'News',
      'News (other.example)',
      'News (news.example)',
      'News (news.example/sport/rss)',
      'News (news.example, 2)',
    ]);
  });

  it('gives feeds added at once under one name that name once, while the read model lags', async () => {
    const urls = ['https://news.example/rss', 'https://other.example/rss', 'https://third.example/rss'];
    const fourth = 'https://fourth.example/rss';
    const { service } = subscriptions(
      Object.fromEntries([...urls, fourth].map((url) => [url, { ...feed, title: 'News' }])),
      300,
    );
    const named = await Promise.allSettled(
      urls.map((url) =>
        service.subscribe('ten_a', { url, name: 'Daily', category: 'general', country: 'gb' }),
      ),
    );
    expect(named.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    for (const r of named.filter((r) => r.status === 'rejected'))
      expect(String(r.reason)).toMatch(/another source is called "Daily"/);

    // Another case of a taken name is that name, and the answer spells it as the source does.
    await expect(
      service.subscribe('ten_a', {
        url: 'https://fourth.example/rss',
        name: 'DAILY',
        category: 'general',
        country: 'gb',
      }),
    ).rejects.toThrow(/another source is called "Daily"/);

    const titled = await Promise.all(
      urls.map((url) => service.subscribe('ten_a', { url, category: 'general', country: 'gb' })),
    );
    // The one named "Daily" is found again; the other two are added, under names of their own.
    expect(titled.map((t) => t.created).sort()).toEqual([false, true, true]);
    expect(new Set(titled.map((t) => t.source.name)).size).toBe(3);
  });

  it('keeps a name made from a long title within the longest name', () => {
    const title = 'x'.repeat(200);
    for (const name of nameCandidates(title, 'https://news.example/a/b/c/rss'))
      expect(name.length).toBeLessThanOrEqual(200);
    expect(nameCandidates(title, 'https://news.example/')).toHaveLength(21);
    // Longer than a name may be: cut, the first candidate too (it had made a 400 quoting zod's issues).
    const long = 'Extremely Long Feed Title '.repeat(30);
    const [first] = nameCandidates(long, 'https://news.example/rss');
    expect(first).toHaveLength(200);
    expect(first!.endsWith('…')).toBe(true);
  });

  it('fetches a URL no source has, to check it is a feed', async () => {
    const { service, fetched, appended } = subscriptions();
    await expect(
      service.subscribe('ten_a', { url: 'https://other.example/rss', category: 'general', country: 'gb' }),
    ).rejects.toThrow(/could not be read as a feed/);
    expect(fetched).toEqual(['https://other.example/rss']);
    expect(appended).toEqual([]);
  });

  it("passes on a feed's Retry-After with the 400, within a day, and keeps the answer from retries", async () => {
    const busy = (retryAfterMs: number | null): FeedCheckResult => ({
      ok: false,
      reason: 'HTTP 503 Service Unavailable',
      feedLinks: [],
      retryAfterMs,
    });
    const { service } = subscriptions({
      'https://busy.example/rss': busy(120_000),
      'https://slow.example/rss': busy(9 * 86_400_000),
      'https://down.example/rss': busy(null),
    });
    const refusal = async (url: string) => {
      try {
        await service.subscribe('ten_a', { url, category: 'general', country: 'gb' });
      } catch (error) {
        if (error instanceof ApiError) return error;
      }
      throw new Error(`${url} was added`);
    };
    const busyAnswer = await refusal('https://busy.example/rss');
    expect([busyAnswer.status, busyAnswer.momentary, busyAnswer.headers]).toEqual([
      400,
      true,
      { 'Retry-After': '120' },
    ]);
    expect(busyAnswer.message).toMatch(/HTTP 503 Service Unavailable.*asked again in 120 s/);
    expect((await refusal('https://slow.example/rss')).headers).toEqual({ 'Retry-After': '86400' });
    expect((await refusal('https://down.example/rss')).headers).toEqual({});
  });

  it("says which of the feed's own details cannot be used, and which field settles it", async () => {
    const feed = (language: string | null, title = 'Site news'): FeedCheckResult => ({
      ok: true,
      title,
      language,
      siteUrl: null,
      items: 3,
    });
    const { service, appended } = subscriptions({
      'https://a.example/rss': feed('klingon'),
      'https://b.example/rss': feed(null),
      'https://c.example/rss': feed('en', '\u200e'),
    });
    const add = (url: string, extra: object = {}) =>
      service.subscribe('ten_a', { url, category: 'general', country: 'gb', ...extra });
    await expect(add('https://a.example/rss')).rejects.toThrow(
      'language: is required: the feed declares "klingon", which is not a language code',
    );
    await expect(add('https://b.example/rss')).rejects.toThrow(
      'language: is required: the feed does not declare one',
    );
    await expect(add('https://c.example/rss')).rejects.toThrow(
      /^name: is required: the feed's own title cannot be used \(must have a letter, digit or symbol/,
    );
    expect(appended).toEqual([]);
    // What the caller gives settles it.
    await expect(add('https://a.example/rss', { language: 'en' })).resolves.toMatchObject({ created: true });
    await expect(add('https://c.example/rss', { name: 'C news' })).resolves.toMatchObject({ created: true });
  });

  it('refuses a feed URL with a user and password rather than poll it without them', async () => {
    const { service, fetched, appended } = subscriptions();
    for (const url of ['https://reader:s3cret@other.example/rss', ' http://token@other.example/rss'])
      await expect(service.subscribe('ten_a', { url, category: 'general', country: 'gb' })).rejects.toThrow(
        /url: must not hold a user and password .*not polled/,
      );
    expect(fetched).toEqual([]);
    expect(appended).toEqual([]);
  });

  // Feed autodiscovery: a web page that names its feeds with <link rel="alternate"> (feed-links.ts).
  const page = (feedLinks: string[]): FeedCheckResult => ({
    ok: false,
    reason: 'not a feed: an HTML page',
    feedLinks,
    pageUrl: 'https://site.example/news',
  });
  const feed: FeedCheckResult = { ok: true, title: 'Site news', language: 'en', siteUrl: null, items: 3 };
  const input = { url: 'https://site.example/news', category: 'general' as const, country: 'gb' };

  it('subscribes through a web page to the feed it names, the page as its home', async () => {
    const { service, fetched, appended } = subscriptions({
      'https://site.example/news': page(['https://site.example/feed.xml']),
      'https://site.example/feed.xml': feed,
    });
    const result = await service.subscribe('ten_a', input);
    expect(result).toMatchObject({
      created: true,
      source: {
        id: sourceIdFor('https://site.example/feed.xml'),
        url: 'https://site.example/feed.xml',
        subscribed: true,
      },
    });
    expect(fetched).toEqual(['https://site.example/news', 'https://site.example/feed.xml']);
    const source = appended.find((a) => a.topic === topicNames.sources)!.value as Source;
    expect(source).toMatchObject({
      feed_url: 'https://site.example/feed.xml',
      site_url: 'https://site.example/news',
      name: 'Site news',
    });
  });

  it("reuses the source of a page's feed without fetching the feed", async () => {
    const { service, fetched, appended } = subscriptions({
      'https://site.example/news': page([moved.url]),
    });
    const result = await service.subscribe('ten_a', input);
    expect(result).toMatchObject({ created: false, source: { id: moved.id, subscribed: true } });
    expect(fetched).toEqual(['https://site.example/news']);
    expect(appended.map((a) => a.topic)).toEqual([topicNames.sourceSubscriptions]);
  });

  it("takes the page's first feed that reads as one", async () => {
    const { service } = subscriptions({
      'https://site.example/news': page(['https://site.example/broken.xml', 'https://site.example/feed.xml']),
      'https://site.example/broken.xml': { ok: false, reason: 'HTTP 404', feedLinks: [] },
      'https://site.example/feed.xml': feed,
    });
    const result = await service.subscribe('ten_a', input);
    expect(result.source.url).toBe('https://site.example/feed.xml');
  });

  it('says why none of the feeds a page names could be read, and adds nothing', async () => {
    const { service, appended } = subscriptions({
      'https://site.example/news': page(['https://site.example/a.xml', 'https://site.example/b.xml']),
      'https://site.example/a.xml': { ok: false, reason: 'HTTP 404', feedLinks: [] },
    });
    await expect(service.subscribe('ten_a', input)).rejects.toThrow(
      'url: is a web page whose feeds could not be read as feeds (https://site.example/a.xml: HTTP 404; ' +
        'https://site.example/b.xml: not a feed: an HTML page)',
    );
    expect(appended).toEqual([]);
  });

  it('does not follow the links of a page found through a page', async () => {
    const { service, fetched } = subscriptions({
      'https://site.example/news': page(['https://site.example/other']),
      'https://site.example/other': page(['https://site.example/feed.xml']),
      'https://site.example/feed.xml': feed,
    });
    await expect(service.subscribe('ten_a', input)).rejects.toThrow(/could not be read as feeds/);
    expect(fetched).toEqual(['https://site.example/news', 'https://site.example/other']);
  });

  it('says so when a web page names no feed', async () => {
    const { service } = subscriptions({ 'https://site.example/news': page([]) });
    await expect(service.subscribe('ten_a', input)).rejects.toThrow(
      'url: could not be read as a feed: not a feed: an HTML page that links to no feed',
    );
  });
});
