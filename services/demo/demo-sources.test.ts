import { describe, expect, it } from 'vitest';
import { sourceInput } from '../sources/source.ts';
import { demoSourcePrefix, demoSources } from './demo-sources.ts';
import { readRealFeeds } from './feed-responses.ts';

const options = {
  feedServerUrl: 'http://127.0.0.1:8090',
  liveCategories: ['business', 'entertainment', 'politics', 'sport', 'tech'],
  realFeeds: [...readRealFeeds().keys()],
  livePollSeconds: 10,
  snapshotPollSeconds: 300,
};

describe('demoSources', () => {
  it('registers every real snapshot and every live category as a valid, distinctly named source', () => {
    const sources = demoSources(options);
    expect(sources).toHaveLength(options.realFeeds.length + options.liveCategories.length);
    for (const source of sources) {
      expect(() => sourceInput.parse(source), source.name).not.toThrow();
      expect(source.name.startsWith(demoSourcePrefix)).toBe(true);
    }
    expect(new Set(sources.map((s) => s.name)).size).toBe(sources.length);
    expect(new Set(sources.map((s) => s.feed_url)).size).toBe(sources.length);
  });

  it('polls the live feeds at the short interval and offers them in every feed format', () => {
    const live = demoSources(options).filter((s) => s.feed_url.includes('/live/'));
    expect(live.every((s) => s.poll_interval_seconds === 10)).toBe(true);
    expect(new Set(live.map((s) => s.feed_url.split('.').pop()))).toEqual(new Set(['rss', 'atom', 'json']));
    expect(live.map((s) => s.category)).toEqual([
      'business',
      'entertainment',
      'politics',
      'sports',
      'technology',
    ]);
  });

  it('refuses a snapshot nobody described, instead of registering it with made-up metadata', () => {
    expect(() => demoSources({ ...options, realFeeds: ['new-feed.rss'] })).toThrow(/new-feed\.rss/);
  });
});
