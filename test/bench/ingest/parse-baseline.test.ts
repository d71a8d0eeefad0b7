import { describe, expect, it } from 'vitest';
import { benchFeedContentType, benchFeeds } from './bench-feeds.ts';
import { combineBaselines, parseBaseline, sumTallies } from './parse-baseline.ts';
import type { CorpusArticle } from '../../../services/demo/corpus.ts';

const corpus: CorpusArticle[] = [
  {
    id: 'business/001',
    title: 'Markets rally',
    paragraphs: ['Shares rose on Monday.'],
    category: 'business',
  },
  { id: 'sport/001', title: 'Cup final', paragraphs: ['The home side won 2-1.'], category: 'sport' },
];

describe('parseBaseline', () => {
  const feeds = benchFeeds(3, corpus);
  const bodyOf = (i: number) => ({
    body: Buffer.from(feeds.feed(i, 'h:1')),
    url: `http://h:1/feed/${i}.xml`,
  });

  it('splits the same parses into the warm-up, the warm span and the separate bodies', () => {
    const all = parseBaseline(10, bodyOf, benchFeedContentType, { chunk: 4 });
    const split = parseBaseline(10, bodyOf, benchFeedContentType, { warmup: 3, separateFrom: 8, chunk: 4 });
    expect(all.feeds).toBe(10);
    expect(all.articles).toBe(30);
    expect(all.warm).toMatchObject({ feeds: 10, articles: 30 });
    expect(all.warmup).toMatchObject({ feeds: 0, articles: 0, cpuSeconds: 0 });
    expect(split.warmup).toMatchObject({ feeds: 3, articles: 9 });
    expect(split.warm).toMatchObject({ feeds: 5, articles: 15 });
    expect(split.separate).toMatchObject({ feeds: 2, articles: 6 });
    // The whole is the sum of its parts, as the bench prints it.
    const sum = sumTallies(split.warmup, split.warm, split.separate);
    expect(split.feeds).toBe(sum.feeds);
    expect(split.articles).toBe(30);
    expect(split.cpuSeconds).toBeCloseTo(sum.cpuSeconds, 9);
    expect(split.cpuSeconds).toBeGreaterThan(0);
  });

  it('takes two passes as one, part by part: the rate of both together', () => {
    const options = { warmup: 3, separateFrom: 8, chunk: 4 };
    const before = parseBaseline(10, bodyOf, benchFeedContentType, options);
    const after = parseBaseline(10, bodyOf, benchFeedContentType, options);
    const both = combineBaselines(before, after);
    expect(both).toMatchObject({ feeds: 20, articles: 60 });
    expect(both.warmup).toMatchObject({ feeds: 6, articles: 18 });
    expect(both.warm).toMatchObject({ feeds: 10, articles: 30 });
    expect(both.separate).toMatchObject({ feeds: 4, articles: 12 });
    expect(both.warm.cpuSeconds).toBeCloseTo(before.warm.cpuSeconds + after.warm.cpuSeconds, 9);
    expect(both.cpuSeconds).toBeCloseTo(before.cpuSeconds + after.cpuSeconds, 9);
  });
});
