// rss-parser is not used at run time: its API is asynchronous while parseFeed is
// synchronous, and on the real feeds it reorders mixed content, returns
// categories with attributes as objects, rejects <rss> without a version, and
// fails a whole Atom feed on one bad date. Where it does agree with itself and
// the spec (titles, links and dates of the real feeds) it is a useful second
// opinion, so these tests check that both parsers read the same articles.

import Parser from 'rss-parser';
import { describe, expect, it } from 'vitest';
import { decodeBody } from './encoding.ts';
import { parseFeed } from './parse-feed.ts';
import { readRealFeed } from './testdata/read.ts';

const FEEDS = [
  'content-encoded.rss',
  'craigslist.rss',
  'encoding.rss',
  'feedburner.atom',
  'guardian.rss',
  'heise.atom',
  'heraldsun.rss',
  'instant-article.rss',
  'many-links.rss',
  'missing-fields.atom',
  'narro.rss',
  'rdf-rss-1.rss',
  'reddit-atom.rss',
  'reddit.rss',
];

describe('agreement with rss-parser on the real feeds', () => {
  it.each(FEEDS)('%s: same feed title, item titles, links and dates', async (name) => {
    const body = readRealFeed(name);
    const theirs = await new Parser().parseString(decodeBody(body, null).text);
    const ours = parseFeed(body, null);
    expect(ours.title).toBe(theirs.title?.trim() ?? null);
    expect(ours.items.map((item) => [item.title, item.url, item.published?.toISOString() ?? null])).toEqual(
      theirs.items.map((item) => [item.title?.trim() ?? null, item.link ?? null, item.isoDate ?? null]),
    );
  });
});
