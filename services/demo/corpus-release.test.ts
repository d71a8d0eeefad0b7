import { describe, expect, it } from 'vitest';
import type { CorpusArticle } from './corpus.ts';
import { CorpusRelease, releaseOrder } from './corpus-release.ts';

const article = (id: string): CorpusArticle => {
  const [category = ''] = id.split('/');
  return { id, category, title: `Title of ${id}`, paragraphs: [`Body of ${id}.`] };
};
const corpus = ['business/001', 'business/002', 'business/003', 'sport/001', 'sport/002', 'tech/001'].map(
  article,
);
const periodMs = 4_000;

describe('releaseOrder', () => {
  it('lets the categories take turns, each in corpus order, until every article is placed', () => {
    expect(releaseOrder(corpus).map((a) => a.id)).toEqual([
      'business/001',
      'sport/001',
      'tech/001',
      'business/002',
      'sport/002',
      'business/003',
    ]);
  });
});

describe('CorpusRelease', () => {
  it('releases one more article every period, newest first, dated when it was released', () => {
    let now = 1_000 * corpus.length * periodMs + 1; // the start of edition 1000, just after release
    const release = new CorpusRelease(corpus, { periodMs, clock: () => now });

    const before = release.latest(3);
    expect(before.map((r) => r.article.id)).toEqual(['business/001', 'business/003', 'sport/002']);
    expect(before[0]!.publishedAt.getTime()).toBe(now - 1);

    now += periodMs;
    const after = release.latest(3);
    expect(after.map((r) => r.article.id)).toEqual(['sport/001', 'business/001', 'business/003']);
    expect(after[1]).toEqual(before[0]);
  });

  it('gives the same answer within a period, so a feed re-polled before the next release is unchanged', () => {
    let now = 123 * periodMs;
    const release = new CorpusRelease(corpus, { periodMs, clock: () => now });
    const first = release.latest(4);
    now += periodMs - 1;
    expect(release.latest(4)).toEqual(first);
  });

  it('starts a new edition at new paths once the corpus is exhausted, so released articles never repeat', () => {
    let now = 7 * corpus.length * periodMs;
    const release = new CorpusRelease(corpus, { periodMs, clock: () => now });
    const seen = new Set<string>();
    for (let i = 0; i < 3 * corpus.length; i++, now += periodMs) {
      const [newest] = release.latest(1);
      expect(seen.has(newest!.path)).toBe(false);
      seen.add(newest!.path);
    }
    expect([...seen]).toContain('7/business/001');
    expect([...seen]).toContain('8/business/001');
  });

  it('filters by category and finds as many as asked even when that spans editions', () => {
    const release = new CorpusRelease(corpus, { periodMs, clock: () => 50 * corpus.length * periodMs });
    const tech = release.latest(3, 'tech');
    expect(tech.map((r) => r.path)).toEqual(['49/tech/001', '48/tech/001', '47/tech/001']);
    expect(release.latest(3, 'politics')).toEqual([]);
  });

  it('finds a released article by its path, but not one whose release is still to come', () => {
    const release = new CorpusRelease(corpus, { periodMs, clock: () => 9 * corpus.length * periodMs });
    expect(release.articleAt('8/tech/001')?.title).toBe('Title of tech/001');
    expect(release.articleAt('9/business/001')?.id).toBe('business/001');
    expect(release.articleAt('9/sport/001')).toBeUndefined();
    expect(release.articleAt('8/politics/001')).toBeUndefined();
    expect(release.articleAt('tech/001')).toBeUndefined();
  });

  it('names its categories', () => {
    expect(new CorpusRelease(corpus, { periodMs }).categories).toEqual(['business', 'sport', 'tech']);
  });
});
