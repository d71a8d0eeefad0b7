// rss-parser is not used at run time: its API is asynchronous while parseFeed is
// synchronous, and on the real feeds it reorders mixed content, returns
// categories with attributes as objects, rejects <rss> without a version, and
// fails a whole Atom feed on one bad date. Where it does agree with itself and
// the spec (titles, links, dates and categories) it is a useful second opinion,
// so every XML feed of testdata (real snapshots, bbc.atom, the odd corpus) goes
// through both: where both give a field, they agree, or DISAGREEMENTS says for
// that feed and field why this parser is right. A recorded reason must still be
// needed: one whose disagreement went away fails the test, so the list stays true.
// (JSON Feed is not rss-parser's format.)

import Parser from 'rss-parser';
import { describe, expect, it } from 'vitest';
import { plainLine } from '../../runtime/plain-text.ts';
import { decodeBody } from './encoding.ts';
import { parseFeed } from './parse-feed.ts';
import { oddFeedNames, readOddExpectation, readOddFeed } from './testdata/odd-feeds.ts';
import { readRealFeed, readTestdata, realFeedNames } from './testdata/read.ts';

type Field = 'feed' | 'items' | 'feedTitle' | 'title' | 'link' | 'date' | 'categories';

const FEEDBURNER =
  "feedburner:origLink is the publisher's URL; rss-parser returns FeedBurner's click-tracking redirect";
const NOT_WELL_FORMED =
  'not well-formed XML: rss-parser has no lenient pass, this parser recovers every item';
const NO_CHANNEL =
  'rss-parser crashes on an <rss> without <channel>; this parser reads the items under <rss>';

/** Per feed and field, why this parser's answer is the right one. 'feed': rss-parser throws. */
const DISAGREEMENTS: Record<string, Partial<Record<Field, string>>> = {
  'real/craigslist.rss': {
    title:
      'RSS 1.0 titles hold escaped HTML (&#x0024;, <sup>): rss-parser returns it as written, this parser the text a reader sees',
  },
  'real/encoding.rss': { link: FEEDBURNER },
  'real/feedburner.atom': { link: FEEDBURNER },
  'real/guardian.rss': {
    categories:
      'a label repeated with two domains ("Comedy"): this parser keeps each label once, rss-parser both',
  },
  'real/many-links.rss': { link: FEEDBURNER },
  'real/uolNoticias.rss': {
    feed: '<rss> without a version attribute (RSS 0.91 in the wild): rss-parser refuses it as "not RSS 1 or 2"',
  },
  'bbc.atom': {
    feedTitle: 'a type="html" title: rss-parser keeps the <i> markup; ParsedFeed.title is plain text',
    link: 'rss-parser ignores xml:base and the link rel (it returns an edit link); RFC 4287 says the alternate link, resolved against xml:base',
  },
  'odd/double-escaped-title.rss': {
    feedTitle: 'the channel title is escaped twice by its generator; rss-parser decodes it only once',
  },
  'odd/feedburner-origlink.rss': { link: FEEDBURNER },
  'odd/mixed-case-names.rss': {
    feed: 'rss-parser matches names case-sensitively and does not recognise <RSS>; feedparser reads it, as this parser does',
  },
  'odd/relative-urls.atom': {
    link: 'rss-parser leaves relative links relative; this parser resolves them against xml:base, the home page and the feed URL',
  },
  'odd/repeated-dates.rss': {
    date: 'a repeated pubDate or dc:date: rss-parser keeps the first, this parser the last, as feedparser does',
  },
  'odd/rss-empty.rss': { feed: NO_CHANNEL },
  'odd/rss-without-channel.rss': { feed: NO_CHANNEL },
  'odd/stray-ampersand.rss': { feed: 'rss-parser (sax in strict mode) refuses an unescaped "&"' },
  'odd/stray-markup.rss': { feed: NOT_WELL_FORMED },
  'odd/truncated-end-tag.rss': { feed: NOT_WELL_FORMED },
};

interface Sample {
  name: string;
  body: Uint8Array;
  baseUrl: string | null;
}

const samples: Sample[] = [
  ...realFeedNames()
    .filter((name) => !name.endsWith('.json'))
    .map((name) => ({ name: `real/${name}`, body: readRealFeed(name), baseUrl: null })),
  { name: 'bbc.atom', body: readTestdata('bbc.atom'), baseUrl: null },
  ...oddFeedNames().map((name) => ({
    name: `odd/${name}`,
    body: readOddFeed(name),
    baseUrl: readOddExpectation(name).baseUrl ?? null,
  })),
];

const text = (value: string | null | undefined): string | null =>
  (value ?? '').replace(/\s+/g, ' ').trim() || null;

// rss-parser gives a category with attributes as xml2js's { _: text, $: attributes }.
const category = (value: unknown): string | null =>
  typeof value === 'string'
    ? value
    : typeof value === 'object' && value !== null && '_' in value && typeof value._ === 'string'
      ? value._
      : null;

/** The fields where both parsers gave a value and the values differ, with one example each. */
async function disagreements(sample: Sample): Promise<Map<Field, string>> {
  const found = new Map<Field, string>();
  const ours = parseFeed(sample.body, null, { baseUrl: sample.baseUrl });
  let theirs: Awaited<ReturnType<Parser['parseString']>>;
  try {
    theirs = await new Parser().parseString(decodeBody(sample.body, null).text);
  } catch (error) {
    found.set('feed', error instanceof Error ? error.message : String(error));
    return found;
  }
  const note = (field: Field, a: unknown, b: unknown) => {
    if (!found.has(field)) found.set(field, `${JSON.stringify(a)} vs rss-parser's ${JSON.stringify(b)}`);
  };
  if (ours.items.length !== theirs.items.length) note('items', ours.items.length, theirs.items.length);
  const [ourTitle, theirTitle] = [text(ours.title), text(theirs.title)];
  if (ourTitle && theirTitle && ourTitle !== theirTitle) note('feedTitle', ourTitle, theirTitle);
  ours.items.forEach((item, i) => {
    const other = theirs.items[i];
    if (!other) return;
    const pairs: [Field, unknown, unknown][] = [
      ['title', text(plainLine(item.title)), text(other.title)],
      ['link', item.url, other.link ?? null],
      ['date', item.published?.toISOString() ?? null, other.isoDate ?? null],
    ];
    const theirCategories = ((other.categories ?? []) as unknown[]).map(category).filter((c) => c !== null);
    if (item.categories.length > 0 && theirCategories.length > 0) {
      pairs.push(['categories', item.categories.join(' | '), theirCategories.join(' | ')]);
    }
    for (const [field, a, b] of pairs) if (a !== null && b !== null && a !== b) note(field, a, b);
  });
  return found;
}

describe('agreement with rss-parser on every XML feed of testdata', () => {
  it('covers the real snapshots, bbc.atom and the odd corpus', () => {
    expect(samples.length).toBeGreaterThanOrEqual(35);
    for (const name of Object.keys(DISAGREEMENTS)) expect(samples.map((s) => s.name)).toContain(name);
  });

  it.each(samples)('$name: same feed title, item titles, links, dates and categories', async (sample) => {
    const found = await disagreements(sample);
    const recorded = DISAGREEMENTS[sample.name] ?? {};
    for (const [field, example] of found) {
      const reason = recorded[field] ?? '';
      expect(reason, `${sample.name} ${field}: ${example}, with no recorded reason`).toMatch(/\S{3}/);
    }
    for (const field of Object.keys(recorded) as Field[]) {
      expect(found.has(field), `${sample.name} ${field}: recorded reason no longer needed`).toBe(true);
    }
  });
});
