// Writes testdata/bbc.json (JSON Feed 1.1) and testdata/bbc.atom from the three
// corpus articles that articles.ts names. The fixtures are committed; rerun after
// changing the articles:  npx tsx services/feeds/parser/testdata/bbc/build-fixtures.ts
// Each article is written a different way (HTML, plain text, XHTML) so that the
// tests cover every text form the parsers accept.

import { writeFileSync } from 'node:fs';
import { escapeText } from 'entities';
import { ARTICLE_SLUGS, loadArticle, type Article } from './articles.ts';

const articles = ARTICLE_SLUGS.map(loadArticle);
const dates = ['2005-02-14T09:30:00Z', '2005-02-15T12:00:00+00:00', '2005-02-16T18:45:10.250+01:00'];

const asHtmlParagraphs = (article: Article) =>
  article.paragraphs.map((p) => `<p>${escapeText(p)}</p>`).join('\n');

function jsonFeed(): string {
  const [first, second, third] = articles;
  if (!first || !second || !third) throw new Error('three articles expected');
  const feed = {
    version: 'https://jsonfeed.org/version/1.1',
    title: 'BBC News sample',
    home_page_url: 'https://www.bbc.co.uk/news/',
    feed_url: 'https://www.bbc.co.uk/news/sample.json',
    language: 'en-GB',
    authors: [{ name: 'BBC News' }],
    items: [
      {
        id: `bbc-${first.slug}`,
        url: `https://www.bbc.co.uk/news/${first.slug}`,
        title: first.headline,
        summary: first.summary,
        content_html: asHtmlParagraphs(first),
        date_published: dates[0],
        tags: [first.category],
        authors: [{ name: 'Business reporter' }, { name: 'Economics desk' }],
      },
      {
        id: `bbc-${second.slug}`,
        url: `${second.slug}`,
        title: second.headline,
        content_text: second.body,
        date_published: dates[1],
        tags: [second.category],
      },
      {
        id: `bbc-${third.slug}`,
        external_url: `https://www.bbc.co.uk/news/${third.slug}`,
        title: third.headline,
        content_text: third.body,
        content_html: asHtmlParagraphs(third),
        date_modified: dates[2],
        tags: [third.category, 'arts'],
        language: 'en-GB',
        image: `https://www.bbc.co.uk/images/${third.slug}.jpg`,
        attachments: [{ url: `https://www.bbc.co.uk/audio/${third.slug}.mp3`, mime_type: 'audio/mpeg' }],
      },
    ],
  };
  return `${JSON.stringify(feed, null, 2)}\n`;
}

function atomFeed(): string {
  const [first, second, third] = articles;
  if (!first || !second || !third) throw new Error('three articles expected');
  return `<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom" xml:base="https://www.bbc.co.uk/news/" xml:lang="en">
  <title type="html">BBC News &lt;i&gt;sample&lt;/i&gt;</title>
  <id>urn:example:bbc-sample</id>
  <updated>${dates[2]}</updated>
  <link rel="self" href="sample.atom"/>
  <link href="./"/>
  <author><name>BBC News</name></author>
  <entry>
    <id>bbc-${first.slug}</id>
    <title type="html">${escapeText(escapeText(first.headline))}</title>
    <link rel="alternate" type="text/html" href="${first.slug}"/>
    <published>${dates[0]}</published>
    <category term="${first.category}"/>
    <summary type="text">${escapeText(first.summary)}</summary>
    <content type="html">${escapeText(asHtmlParagraphs(first))}</content>
  </entry>
  <entry xml:base="https://archive.example.org/2005/">
    <id>bbc-${second.slug}</id>
    <title>${escapeText(second.headline)}</title>
    <link rel="edit" href="edit/${second.slug}"/>
    <link href="${second.slug}.html"/>
    <updated>${dates[1]}</updated>
    <author><name>Media correspondent</name></author>
    <content type="text">${escapeText(second.body)}</content>
  </entry>
  <entry xml:lang="en-GB">
    <id>bbc-${third.slug}</id>
    <title type="text">${escapeText(third.headline)}</title>
    <link rel="alternate" href="${third.slug}"/>
    <link rel="enclosure" type="audio/mpeg" href="audio/${third.slug}.mp3"/>
    <updated>${dates[2]}</updated>
    <content type="xhtml"><div xmlns="http://www.w3.org/1999/xhtml">${asHtmlParagraphs(third)}</div></content>
  </entry>
</feed>
`;
}

writeFileSync(new URL('../bbc.json', import.meta.url), jsonFeed());
writeFileSync(new URL('../bbc.atom', import.meta.url), atomFeed());
