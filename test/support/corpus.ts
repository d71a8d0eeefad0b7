// The BBC corpus in ../shared/corpus/bbc as articles, and feeds built from it
// (JSON Feed 1.1, Atom 1.0, RSS 2.0) for tests and benchmarks.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const corpusDirectory = fileURLToPath(new URL('../../../shared/corpus/bbc/', import.meta.url));

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

const escapeXml = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const html = (a: CorpusArticle) => a.paragraphs.map((p) => `<p>${escapeXml(p)}</p>`).join('\n');

export interface FeedOptions {
  baseUrl: string; // where the article pages "live"
  title: string;
  /** Publication time of article i (newest first in the feed). */
  publishedAt?: (index: number) => Date;
}

const defaultDate = (i: number) => new Date(Date.UTC(2005, 2, 1, 12) - i * 3_600_000);

export function jsonFeed(articles: readonly CorpusArticle[], options: FeedOptions): string {
  const at = options.publishedAt ?? defaultDate;
  return JSON.stringify({
    version: 'https://jsonfeed.org/version/1.1',
    title: options.title,
    home_page_url: options.baseUrl,
    language: 'en',
    items: articles.map((a, i) => ({
      id: `${options.baseUrl}/${a.id}`,
      url: `${options.baseUrl}/${a.id}`,
      title: a.title,
      content_html: html(a),
      summary: a.paragraphs[0],
      date_published: at(i).toISOString(),
      tags: [a.category],
    })),
  });
}

export function atomFeed(articles: readonly CorpusArticle[], options: FeedOptions): string {
  const at = options.publishedAt ?? defaultDate;
  const entries = articles
    .map(
      (a, i) => `  <entry>
    <id>${escapeXml(`${options.baseUrl}/${a.id}`)}</id>
    <title>${escapeXml(a.title)}</title>
    <link rel="alternate" href="${escapeXml(`${options.baseUrl}/${a.id}`)}"/>
    <updated>${at(i).toISOString()}</updated>
    <published>${at(i).toISOString()}</published>
    <author><name>BBC News</name></author>
    <category term="${a.category}"/>
    <summary>${escapeXml(a.paragraphs[0] ?? '')}</summary>
    <content type="html">${escapeXml(html(a))}</content>
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
  const items = articles
    .map(
      (a, i) => `    <item>
      <guid isPermaLink="true">${escapeXml(`${options.baseUrl}/${a.id}`)}</guid>
      <link>${escapeXml(`${options.baseUrl}/${a.id}`)}</link>
      <title>${escapeXml(a.title)}</title>
      <description>${escapeXml(a.paragraphs[0] ?? '')}</description>
      <content:encoded><![CDATA[${html(a)}]]></content:encoded>
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
