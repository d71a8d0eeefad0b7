import { describe, expect, it } from 'vitest';
import { sourceState } from '../../sources/source.ts';
import { noHints } from '../parser/publisher-hints.ts';
import type { ItemPublisher, ParsedFeed } from '../parser/types.ts';
import { itemPublisher, ownFeed } from './item-publisher.ts';

const source = {
  ...sourceState(
    {
      name: 'Example News',
      feed_url: 'https://feeds.example.com/rss/business.xml',
      category: 'general',
      language: 'en',
      country: 'gb',
    },
    null,
    0,
  ),
  previous_urls: ['https://old-feeds.example.net/business'],
};

const feed: ParsedFeed = {
  format: 'rss',
  title: 'Example News - Business',
  siteUrl: 'https://www.example.com/business',
  language: 'en',
  items: [],
  warnings: [],
  hints: { ...noHints, selfUrl: 'https://self.example.org/rss' },
};

const publisherOf = (publisher: ItemPublisher | null) =>
  itemPublisher(publisher, ownFeed(feed, source), 'https://www.example.com/business');

describe("an item's publisher", () => {
  it('is the outlet another site names, its address canonical', () => {
    expect(publisherOf({ name: 'Reuters', url: 'https://www.Reuters.com/?utm_source=x' })).toEqual({
      publisher_name: 'Reuters',
      publisher_url: 'https://www.reuters.com/',
    });
    expect(publisherOf(null)).toEqual({ publisher_name: null, publisher_url: null });
  });

  it("has no address of the feed's own site: the feed polled, before it moved, its self link, its home page", () => {
    for (const url of [
      'https://feeds.example.com/rss/business.xml',
      'http://FEEDS.example.com/rss/business.xml?utm_source=rss',
      'https://old-feeds.example.net/business',
      'https://self.example.org/rss',
      'https://example.com/',
      // Another feed of the same site: the same outlet.
      'https://www.example.com/rss/all.xml',
      '/rss.xml',
    ])
      expect(publisherOf({ name: 'Reuters', url })).toEqual({
        publisher_name: 'Reuters',
        publisher_url: null,
      });
  });

  it("has no name either when the name beside the feed's own address is the feed's", () => {
    for (const name of ['Example News - Business', 'EXAMPLE  NEWS', 'Example News'])
      expect(publisherOf({ name, url: 'https://feeds.example.com/rss/business.xml' })).toEqual({
        publisher_name: null,
        publisher_url: null,
      });
    // Named beside another outlet's address, the feed's name is that outlet's business.
    expect(publisherOf({ name: 'Example News', url: 'https://partner.example.org/' })).toEqual({
      publisher_name: 'Example News',
      publisher_url: 'https://partner.example.org/',
    });
    // A name that only starts like the feed's is another's.
    expect(
      publisherOf({ name: 'Example', url: 'https://feeds.example.com/rss/business.xml' }).publisher_name,
    ).toBe('Example');
  });

  it("keeps the address of another host, even one that shares the feed's domain", () => {
    expect(publisherOf({ name: 'Blog', url: 'https://blog.example.com/feed' }).publisher_url).toBe(
      'https://blog.example.com/feed',
    );
  });
});
