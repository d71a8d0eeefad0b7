// The window of publication times related coverage is looked for in.
import { describe, expect, it } from 'vitest';
import { relatedWindow, relatedWindowDays } from './related-articles.ts';

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
