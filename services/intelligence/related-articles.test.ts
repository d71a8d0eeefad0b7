// The window of publication times related coverage is looked for in.
import { describe, expect, it } from 'vitest';
import type { RelatedArticle } from './provider.ts';
import { citedOnce, relatedWindow, relatedWindowDays } from './related-articles.ts';

const day = 86_400_000;

describe('relatedWindow', () => {
  const at = new Date('2026-11-20T12:00:00Z');

  it('is the weeks before the article, up to when it was found', () => {
    expect(relatedWindow(at)).toEqual({ from: new Date(at.getTime() - relatedWindowDays * day), until: at });
    const found = new Date(at.getTime() + 2 * 3_600_000);
    expect(relatedWindow(at, found).until).toEqual(found);
  });

  it('reaches no further after an article found long after it was published than it reaches before it', () => {
    const archived = new Date('2017-02-13T16:53:00Z');
    const { from, until } = relatedWindow(archived, at);
    expect(until).toEqual(new Date(archived.getTime() + relatedWindowDays * day));
    expect(from).toEqual(new Date(archived.getTime() - relatedWindowDays * day));
  });
});

describe('citedOnce', () => {
  const related = (id: string, title: string, source: string): RelatedArticle => ({
    id,
    title,
    source,
    publishedAt: new Date(0),
    sharedTerms: [],
    summary: null,
  });

  it('keeps the first citation of a headline of a source, and the same headline of another source', () => {
    const ranked = [
      related('a1', "Google's toolbar sparks concern", 'BBC Technology'),
      related('a2', "Google's toolbar sparks concern ", 'BBC Technology'),
      related('a3', "Google's toolbar sparks concern", 'Tech Wire'),
      related('a4', 'Another story', 'BBC Technology'),
    ];
    expect(ranked.filter(citedOnce()).map((r) => r.id)).toEqual(['a1', 'a3', 'a4']);
  });
});
