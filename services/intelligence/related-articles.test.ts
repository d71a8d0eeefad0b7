// The window of publication times related coverage is looked for in.
import { describe, expect, it } from 'vitest';
import type { RelatedArticle } from './provider.ts';
import { citedOnce, isCitable, isCopyOf, relatedWindow, relatedWindowDays } from './related-articles.ts';

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

describe('isCitable', () => {
  it('is an article of the story, or one sharing an entity and one more term', () => {
    const none: string[] = [];
    expect(isCitable({ inStory: true, sharedEntities: none, sharedKeywords: none })).toBe(true);
    expect(isCitable({ inStory: false, sharedEntities: ['London', 'TfL'], sharedKeywords: none })).toBe(true);
    expect(isCitable({ inStory: false, sharedEntities: ['London'], sharedKeywords: ['strike'] })).toBe(true);
    // One place or name alone: two unrelated stories can share it.
    expect(isCitable({ inStory: false, sharedEntities: ['London'], sharedKeywords: none })).toBe(false);
    // Keywords alone never admit: "attempt" linked spyware to the Millennium Dome.
    expect(isCitable({ inStory: false, sharedEntities: none, sharedKeywords: ['attempt', 'sale'] })).toBe(
      false,
    );
  });

  it('is one sharing the only entity of a posted text that names just one, when the caller accepts it', () => {
    const none: string[] = [];
    expect(
      isCitable({ inStory: false, sharedEntities: ['Sony'], sharedKeywords: none, loneEntity: true }),
    ).toBe(true);
    expect(
      isCitable({ inStory: false, sharedEntities: none, sharedKeywords: ['console'], loneEntity: true }),
    ).toBe(false);
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

describe('isCopyOf', () => {
  const article = (summary: string | null): RelatedArticle => ({
    id: 'art_1',
    title: 'Dollar gains on Greenspan speech',
    source: 'BBC Business',
    publishedAt: new Date('2005-01-21T00:00:00Z'),
    sharedTerms: ['US'],
    summary,
  });
  const text =
    'The dollar has hit its highest level against the euro in almost three months after the Federal ' +
    'Reserve head said the US trade deficit is set to stabilise.\n\nAnd Alan Greenspan highlighted...';

  it('is the posted text when the first sentence of its summary is in it, whatever the spacing', () => {
    const summary =
      'The dollar has hit its highest level against the euro in almost three months after the Federal ' +
      'Reserve head said the US trade deficit is set to stabilise. And Alan Greenspan highlighted...';
    expect(isCopyOf(article(summary), text)).toBe(true);
    expect(isCopyOf(article(summary.replace('three months after', 'three months\nafter')), text)).toBe(true);
  });

  it('is not another article of the story, nor one whose summary is too short to tell', () => {
    expect(
      isCopyOf(article('The euro fell against the dollar as traders read the Fed chairman.'), text),
    ).toBe(false);
    expect(isCopyOf(article('The dollar'), text)).toBe(false);
    expect(isCopyOf(article(null), text)).toBe(false);
  });
});
