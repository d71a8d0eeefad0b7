// The BBC corpus (services/demo/corpus/bbc, see its README) as
// articles, and feeds built from it (JSON Feed 1.1, Atom 1.0, RSS 2.0) for the
// demo, tests and benchmarks.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const corpusDirectory = fileURLToPath(new URL('./corpus/bbc/', import.meta.url));

export interface CorpusArticle {
  id: string; // "business/001"
  category: string;
  title: string;
  /** Body paragraphs (non-empty lines after the headline). */
  paragraphs: string[];
}

export function readCorpus(directory = corpusDirectory): CorpusArticle[] {
  const articles: CorpusArticle[] = [];
  const root = path.join(directory, 'article');
  for (const category of readdirSync(root).sort()) {
    for (const file of readdirSync(path.join(root, category)).sort()) {
      const lines = readFileSync(path.join(root, category, file), 'utf8').split(/\r?\n/);
      const [title, ...rest] = lines;
      articles.push({
        id: `${category}/${file.replace(/\.txt$/, '')}`,
        category,
        title: title!.trim(),
        paragraphs: rest.map((l) => l.trim()).filter(Boolean),
      });
    }
  }
  return articles;
}

export const escapeXml = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
/** The body as HTML paragraphs. */
export const articleHtml = (a: CorpusArticle) => a.paragraphs.map((p) => `<p>${escapeXml(p)}</p>`).join('\n');

export interface FeedOptions {
  baseUrl: string; // where the article pages "live"
  title: string;
  /** Publication time of article i (newest first in the feed). */
  publishedAt?: (index: number) => Date;
  /** Link and id of article i; by default `<baseUrl>/<category>/<nnn>`. */
  itemUrl?: (article: CorpusArticle, index: number) => string;
}

const defaultDate = (i: number) => new Date(Date.UTC(2005, 2, 1, 12) - i * 3_600_000);
const urlOf = (options: FeedOptions) =>
  options.itemUrl ?? ((a: CorpusArticle) => `${options.baseUrl}/${a.id}`);

export function jsonFeed(articles: readonly CorpusArticle[], options: FeedOptions): string {
  const at = options.publishedAt ?? defaultDate;
  const url = urlOf(options);
  return JSON.stringify({
    version: 'https://jsonfeed.org/version/1.1',
    title: options.title,
    home_page_url: options.baseUrl,
    language: 'en',
    items: articles.map((a, i) => ({
      id: url(a, i),
      url: url(a, i),
      title: a.title,
      content_html: articleHtml(a),
      summary: a.paragraphs[0],
      date_published: at(i).toISOString(),
      tags: [a.category],
    })),
  });
}

export function atomFeed(articles: readonly CorpusArticle[], options: FeedOptions): string {
  const at = options.publishedAt ?? defaultDate;
  const url = urlOf(options);
  const entries = articles
    .map(
      (a, i) => `  <entry>
    <id>${escapeXml(url(a, i))}</id>
    <title>${escapeXml(a.title)}</title>
    <link rel="alternate" href="${escapeXml(url(a, i))}"/>
    <updated>${at(i).toISOString()}</updated>
    <published>${at(i).toISOString()}</published>
    <author><name>BBC News</name></author>
    <category term="${a.category}"/>
    <summary>${escapeXml(a.paragraphs[0] ?? '')}</summary>
    <content type="html">${escapeXml(articleHtml(a))}</content>
  </entry>`,
    )
    .join('\n');
  return `<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom" xml:lang="en">
  <title>${escapeXml(options.title)}</title>
  <id>${escapeXml(options.baseUrl)}/</id>
  <link rel="alternate" href="${escapeXml(options.baseUrl)}/"/>
  <updated>${at(0).toISOString()}</updated>
${entries}
</feed>`;
}

export function rssFeed(articles: readonly CorpusArticle[], options: FeedOptions): string {
  const at = options.publishedAt ?? defaultDate;
  const url = urlOf(options);
  const items = articles
    .map(
      (a, i) => `    <item>
      <guid isPermaLink="true">${escapeXml(url(a, i))}</guid>
      <link>${escapeXml(url(a, i))}</link>
      <title>${escapeXml(a.title)}</title>
      <description>${escapeXml(a.paragraphs[0] ?? '')}</description>
      <content:encoded><![CDATA[${articleHtml(a)}]]></content:encoded>
      <category>${a.category}</category>
      <pubDate>${at(i).toUTCString()}</pubDate>
    </item>`,
    )
    .join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/">
  <channel>
    <title>${escapeXml(options.title)}</title>
    <link>${escapeXml(options.baseUrl)}/</link>
    <language>en</language>
${items}
  </channel>
</rss>`;
}

export const feedFormats = ['rss', 'atom', 'json'] as const;
export type FeedFormat = (typeof feedFormats)[number];
export const isFeedFormat = (value: string): value is FeedFormat =>
  (feedFormats as readonly string[]).includes(value);

export const feedContentTypes: Record<FeedFormat, string> = {
  rss: 'application/rss+xml',
  atom: 'application/atom+xml',
  json: 'application/feed+json',
};

const builders = { rss: rssFeed, atom: atomFeed, json: jsonFeed } satisfies Record<FeedFormat, unknown>;

export function corpusFeed(
  format: FeedFormat,
  articles: readonly CorpusArticle[],
  options: FeedOptions,
): string {
  return builders[format](articles, options);
}
