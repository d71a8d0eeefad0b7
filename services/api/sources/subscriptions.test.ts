import { describe, expect, it } from 'vitest';
import type { SourceSubscription } from '../../runtime/events/types.generated.ts';
import type { EventProducer } from '../../runtime/kafka/producer.ts';
import { topicNames } from '../../runtime/kafka/topics.ts';
import { sourceIdFor } from '../../sources/source.ts';
import type { SourceCatalog, SourceItem } from './source-catalog.ts';
import { homePageOf, publicFeedProblem, SourceSubscriptions } from './subscriptions.ts';

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

  /** The read model as SourceCatalog answers it (idByUrl's rule), over `moved` and what is subscribed. */
  function subscriptions() {
    const subscribed = new Set<string>();
    const appended: { topic: string; value: unknown }[] = [];
    const fetched: string[] = [];
    const catalog = {
      idByUrl: async (url: string, id: string) =>
        url === moved.url || moved.previous_urls.includes(url) || id === moved.id ? moved.id : null,
      get: async (id: string) => (id === moved.id ? { ...moved, subscribed: subscribed.has(id) } : null),
      idByName: async () => null,
    } as unknown as SourceCatalog;
    const producer = {
      send: async (topic: string, events: { value: unknown }[]) => {
        for (const { value } of events) {
          appended.push({ topic, value });
          if (topic === topicNames.sourceSubscriptions)
            subscribed.add((value as SourceSubscription).source_id);
        }
      },
    } as unknown as EventProducer;
    const service = new SourceSubscriptions({
      catalog,
      producer,
      checkFeed: async (url) => {
        fetched.push(url);
        return { ok: false, reason: 'not a feed: an HTML page' };
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

  it('fetches a URL no source has, to check it is a feed', async () => {
    const { service, fetched, appended } = subscriptions();
    await expect(
      service.subscribe('ten_a', { url: 'https://other.example/rss', category: 'general', country: 'gb' }),
    ).rejects.toThrow(/could not be read as a feed/);
    expect(fetched).toEqual(['https://other.example/rss']);
    expect(appended).toEqual([]);
  });
});
