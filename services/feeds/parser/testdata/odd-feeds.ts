// Test helpers for the odd corpus (odd/): feeds written for these tests, one per
// kind of structure, field or breakage real aggregators meet, each with
// <name>.expected.json beside it saying what a reader should get from it.

import { readdirSync, readFileSync } from 'node:fs';
import { plainLine, plainText } from '../../../runtime/plain-text.ts';
import type { ParsedFeed } from '../types.ts';

/** What the test compares: an article as a reader sees it, field by field. */
export interface ArticleView {
  title: string;
  link: string | null;
  /** ISO 8601 in UTC, or null. */
  date: string | null;
  summary: string;
  /** The item's declared language, else the feed's. */
  language: string | null;
  categories: string[];
  author: string | null;
  image: string | null;
  enclosure: string | null;
  /** Plain text of the full content. */
  content: string;
  summaryHtml: string | null;
  contentHtml: string | null;
}

/** The six fields every expectation states; the others are checked only where it states them. */
export const requiredFields = ['title', 'link', 'date', 'summary', 'language', 'categories'] as const;

export interface OddFeedExpectation {
  /** Why the feed is in the corpus. */
  about: string;
  /** Passed to parseFeed as the URL the feed was fetched from. */
  baseUrl?: string;
  feed: { title: string | null; siteUrl: string | null; language: string | null };
  /** Each is the start of the warning at the same position (the rest quotes the XML parser). */
  warnings: string[];
  articles: (Pick<ArticleView, (typeof requiredFields)[number]> & Partial<ArticleView>)[];
}

export const oddFeedNames = (): string[] =>
  readdirSync(new URL('./odd/', import.meta.url))
    .filter((name) => /\.(rss|atom|json)$/.test(name) && !name.endsWith('.expected.json'))
    .sort();

export function readOddFeed(name: string): Uint8Array {
  return readFileSync(new URL(`./odd/${name}`, import.meta.url));
}

export function readOddExpectation(name: string): OddFeedExpectation {
  return JSON.parse(
    readFileSync(new URL(`./odd/${name}.expected.json`, import.meta.url), 'utf8'),
  ) as OddFeedExpectation;
}

export function articleViews(feed: ParsedFeed): ArticleView[] {
  return feed.items.map((item) => ({
    title: plainLine(item.title),
    link: item.url,
    date: item.published?.toISOString() ?? null,
    summary: plainText(item.summaryHtml),
    language: item.language ?? feed.language,
    categories: item.categories,
    author: item.author,
    image: item.imageUrl,
    enclosure: item.enclosureUrl,
    content: plainText(item.contentHtml),
    summaryHtml: item.summaryHtml,
    contentHtml: item.contentHtml,
  }));
}
