import { describe, expect, it } from 'vitest';
import { homePageOf, publicFeedProblem } from './subscriptions.ts';

describe('homePageOf', () => {
  it("keeps a feed's absolute http(s) home page and leaves out one no source could hold", () => {
    expect(homePageOf('https://news.example/')).toBe('https://news.example/');
    expect(homePageOf(null)).toBeNull();
    // What a feed's <link> holds in the wild, unresolved: each would have refused the whole feed.
    for (const junk of ['javascript:void(0)', 'mailto:desk@news.example', 'www.example.com:80', '/', ''])
      expect(homePageOf(junk), junk).toBeNull();
  });
});

describe('publicFeedProblem', () => {
  it('says what the body is not without quoting it', () => {
    expect(publicFeedProblem('not a feed: the body starts with "SECRET_TOKEN=abcdef0"')).toBe(
      'not a feed: the body is text, not RSS, Atom, RDF or JSON Feed',
    );
    expect(publicFeedProblem('not a feed: an HTML page')).toBe('not a feed: an HTML page');
  });
});
