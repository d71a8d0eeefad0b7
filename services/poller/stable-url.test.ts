// What a feed changes in a link at every fetch, and what names the page and must stay.
import { describe, expect, it } from 'vitest';
import { stableUrl } from './stable-url.ts';

describe('stableUrl', () => {
  it.each([
    ['https://x.example/a?ts=1764000000', 'https://x.example/a'],
    ['https://x.example/a?id=7&_=1764000000123#top', 'https://x.example/a?id=7#top'],
    ['https://x.example/a?sid=4f9c2e7a1b3d5e6f&p=2', 'https://x.example/a?p=2'],
    ['https://x.example/a?r=0b1e9a4c-2d3f-4a5b-8c7d-6e5f4a3b2c1d', 'https://x.example/a'],
    ['https://x.example/a?1764000000', 'https://x.example/a'],
  ])('drops the parameters made for one fetch: %s', (url, stable) => {
    expect(stableUrl(url)).toBe(stable);
  });

  it.each([
    'https://x.example/story.php?id=48213',
    'https://x.example/a?p=1042&page=2',
    'https://x.example/a?slug=deadbeefdeadbeef', // letters only: a word, not a token
    'https://x.example/a?n=123456789', // nine digits: an id, not a time
    'https://x.example/a',
    'https://x.example/a#1764000000',
  ])('keeps what names the page: %s', (url) => {
    expect(stableUrl(url)).toBe(url);
  });
});
