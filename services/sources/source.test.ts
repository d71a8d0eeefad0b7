import { describe, expect, it } from 'vitest';
import {
  changedSource,
  feedUrlsOf,
  maxPreviousUrls,
  movedSource,
  sourceIdFor,
  sourceState,
} from './source.ts';

const input = () => ({
  name: 'Example',
  feed_url: 'https://old.example/rss?utm_source=x',
  category: 'general' as const,
  language: 'en',
  country: 'gb',
});
const first = sourceState(input(), null, 1_000);

describe('sourceState', () => {
  it('takes a language as people write it: with a region, in three letters, by name', () => {
    for (const language of ['pt-BR', 'PT', 'por', 'Portuguese'])
      expect(sourceState({ ...input(), language }, null, 1_000).language).toBe('pt');
    expect(() => sourceState({ ...input(), language: 'Klingon' }, null, 1_000)).toThrow(/ISO 639-1/);
  });
});

describe('movedSource', () => {
  it('keeps the id and the rest of the source, bumps the version, and keeps the URL it left', () => {
    const moved = movedSource(first, 'https://NEW.example/feed.xml#x', 2_000);
    expect(moved).toEqual({
      ...first,
      feed_url: 'https://new.example/feed.xml',
      previous_urls: ['https://old.example/rss'],
      version: 2,
      occurred_at: 2_000,
    });
    expect(moved.source_id).toBe(sourceIdFor('https://old.example/rss'));
    expect(feedUrlsOf(moved)).toEqual(['https://new.example/feed.xml', 'https://old.example/rss']);
  });

  it('keeps every former URL once, oldest first, and takes a URL it moves back to out of the list', () => {
    const twice = movedSource(movedSource(first, 'https://b.example/', 2), 'https://c.example/', 3);
    expect(twice.previous_urls).toEqual(['https://old.example/rss', 'https://b.example/']);
    const back = movedSource(twice, 'https://old.example/rss', 4);
    expect(back).toMatchObject({
      feed_url: 'https://old.example/rss',
      previous_urls: ['https://b.example/', 'https://c.example/'],
      version: 4,
    });
  });

  it(`keeps the ${maxPreviousUrls} latest former URLs of a feed that keeps moving`, () => {
    let source = first;
    for (let i = 0; i < maxPreviousUrls + 5; i++) source = movedSource(source, `https://m${i}.example/`, i);
    expect(source.previous_urls).toHaveLength(maxPreviousUrls);
    expect(source.previous_urls.at(-1)).toBe(`https://m${maxPreviousUrls + 3}.example/`);
    expect(source.source_id).toBe(first.source_id);
  });

  it('refuses a URL that is no http(s) URL', () => {
    expect(() => movedSource(first, 'ftp://new.example/feed', 2)).toThrow(/not an http\(s\) URL/);
  });
});

describe('sourceState of a moved source', () => {
  it('keeps its id and former URLs through later changes', () => {
    const moved = movedSource(first, 'https://new.example/feed.xml', 2_000);
    const paused = changedSource(moved, { active: false }, 3_000);
    expect(paused).toMatchObject({
      source_id: first.source_id,
      feed_url: 'https://new.example/feed.xml',
      previous_urls: ['https://old.example/rss'],
      active: false,
      version: 3,
    });
  });

  it('gives a new source no former URLs and the id of its URL', () => {
    expect(first).toMatchObject({ previous_urls: [], source_id: sourceIdFor('https://old.example/rss') });
  });
});

describe('a source name', () => {
  it('is one line without control characters or bidirectional overrides, shown as such to every tenant', () => {
    const state = sourceState(
      {
        name: 'Bad\u0000Name\nline2\u202eRTL',
        feed_url: 'https://news.example/rss',
        category: 'general',
        language: 'en',
        country: 'us',
      },
      null,
      0,
    );
    expect(state.name).toBe('BadName line2RTL');
    expect(() =>
      sourceState(
        {
          name: '\u202e\u0007',
          feed_url: 'https://news.example/rss',
          category: 'general',
          language: 'en',
          country: 'us',
        },
        null,
        0,
      ),
    ).toThrow(/name is required/);
  });
});
