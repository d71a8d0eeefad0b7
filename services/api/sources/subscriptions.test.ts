import { describe, expect, it } from 'vitest';
import { homePageOf } from './subscriptions.ts';

describe('homePageOf', () => {
  it("keeps a feed's absolute http(s) home page and leaves out one no source could hold", () => {
    expect(homePageOf('https://news.example/')).toBe('https://news.example/');
    expect(homePageOf(null)).toBeNull();
    // What a feed's <link> holds in the wild, unresolved: each would have refused the whole feed.
    for (const junk of ['javascript:void(0)', 'mailto:desk@news.example', 'www.example.com:80', '/', ''])
      expect(homePageOf(junk), junk).toBeNull();
  });
});
