import { describe, expect, it } from 'vitest';
import { escapeText } from 'entities';
import { parseFeed } from './parse-feed.ts';
import { ARTICLE_SLUGS, loadArticle } from './testdata/bbc/articles.ts';
import { readRealFeed, readTestdata, utf8 } from './testdata/read.ts';

const atomType = 'application/atom+xml';

const unescapeHtml = (html: string) =>
  html.replace(/&(lt|gt|amp);/g, (_, name: string) => (name === 'lt' ? '<' : name === 'gt' ? '>' : '&'));

/** The text of every <p>, in order, unescaped. */
const paragraphsOf = (html: string) =>
  [...html.matchAll(/<p>([\s\S]*?)<\/p>/g)].map((m) => unescapeHtml(m[1] ?? ''));

describe('Atom real feeds', () => {
  it('heise.atom: German umlauts, html summary and content, feed author inherited', () => {
    const feed = parseFeed(readRealFeed('heise.atom'), atomType);
    expect(feed.format).toBe('atom');
    expect(feed.title).toBe('heise developer neueste Meldungen');
    expect(feed.siteUrl).toBe('http://www.heise.de/developer/');
    expect(feed.language).toBeNull();
    expect(feed.items).toHaveLength(15);
    const first = feed.items[0];
    expect(first?.guid).toBe('http://heise.de/-3088438');
    expect(first?.title).toBe('Java-Anwendungsserver: Red Hat gibt WildFly 10 frei');
    expect(first?.url).toBe(
      'http://www.heise.de/developer/meldung/Java-Anwendungsserver-Red-Hat-gibt-WildFly-10-frei-3088438.html?wt_mc=rss.developer.beitrag.atom',
    );
    expect(first?.publishedRaw).toBe('2016-02-01T17:22:00+01:00');
    expect(first?.published?.toISOString()).toBe('2016-02-01T16:22:00.000Z');
    expect(first?.author).toBe('heise online');
    expect(first?.summaryHtml?.startsWith('Die nun verfügbare Version 10 des Enterprise-Java-Servers')).toBe(
      true,
    );
    expect(first?.summaryHtml).toContain('dritte größere Release');
    expect(feed.items[1]?.title).toBe('Scrum Day 2016: Bewerbungen für Vorträge und Workshops');
    expect(feed.items[1]?.contentHtml).toContain(
      '<img src="http://www.heise.de/scale/geometry/264/q80/imgs/18/1/7/4/0/0/6/3/header_scrumday_01-e4ef3375d4c003c4.jpeg" alt="Vortragseinreichungen zum Scrum Day 2016 erwünscht" />',
    );
    expect(feed.items[4]?.title).toBe('Änderungen bei der Authentifizierung in Microsofts v2.0 App Model');
    expect(feed.items[10]?.title).toBe('Facebook schließt Parse-Plattform');
  });

  it('feedburner.atom: Blogger feed with categories, escaped HTML content and a thumbnail', () => {
    const feed = parseFeed(readRealFeed('feedburner.atom'), atomType);
    expect(feed.title).toBe('Google Ads Developer Blog');
    expect(feed.siteUrl).toBe('http://googleadsdeveloper.blogspot.com/search/label/adwords_api');
    expect(feed.items).toHaveLength(25);
    const first = feed.items[0];
    expect(first?.title).toBe('AdWords and DFP Java client library will soon require Java 7+');
    // feedburner:origLink, not the click-tracking alternate link (feedproxy.google.com/~r/…).
    expect(first?.url).toBe(
      'http://googleadsdeveloper.blogspot.com/2016/06/adwords-and-dfp-java-client-library.html',
    );
    expect(first?.published?.toISOString()).toBe('2016-06-03T14:38:00.000Z');
    expect(first?.author).toBe('Google Ads Developer Advisor');
    expect(first?.categories).toEqual(['adwords_api', 'client_libraries', 'dfp_api']);
    expect(
      first?.contentHtml?.startsWith(
        '<div dir="ltr" style="text-align: left;" trbidi="on">After <b>November 2016</b>, all releases',
      ),
    ).toBe(true);
    expect(feed.items.flatMap((item) => (item.imageUrl ? [item.imageUrl] : []))).toEqual([
      'https://lh3.googleusercontent.com/-I5VHr9twxlU/AAAAAAAAAAI/AAAAAAAABoc/XKIvgIIEw7I/s72-c/photo.jpg',
    ]);
  });

  it('many-links.rss (an Atom feed): the alternate link among replies/edit/self links', () => {
    const feed = parseFeed(readRealFeed('many-links.rss'), 'application/rss+xml');
    expect(feed.format).toBe('atom');
    expect(feed.title).toBe('Google Testing Blog');
    expect(feed.siteUrl).toBe('http://testing.googleblog.com/');
    expect(feed.items).toHaveLength(25);
    const first = feed.items[0];
    expect(first?.title).toBe('Code Health: Providing Context with Commit Messages and Bug Reports');
    expect(first?.url).toBe('http://testing.googleblog.com/2017/09/code-health-providing-context-with.html');
    expect(first?.published?.toISOString()).toBe('2017-09-11T21:01:00.000Z');
    expect(first?.author).toBe('Google Testing Bloggers');
    expect(first?.categories).toEqual(['Chris Lewis', 'Code Health', 'TotT']);
    expect(feed.items[1]?.url).toBe(
      'http://testing.googleblog.com/2017/08/code-health-eliminate-yagni-smells.html',
    );
    expect(feed.items.filter((item) => item.imageUrl !== null)).toHaveLength(8);
  });

  it('missing-fields.atom: only an id; everything else is null', () => {
    const feed = parseFeed(readRealFeed('missing-fields.atom'), atomType);
    expect(feed).toEqual({
      format: 'atom',
      title: null,
      siteUrl: null,
      language: 'en-US',
      hints: { ttlSeconds: null, updateIntervalSeconds: null, hubs: [], selfUrl: null },
      items: [
        {
          guid: 'tag:github.com,2008:Repository/11167738/v3.9.0',
          url: null,
          title: null,
          summaryHtml: null,
          contentHtml: null,
          author: null,
          publishedRaw: null,
          published: null,
          categories: [],
          language: null,
          imageUrl: null,
          enclosureUrl: null,
          publisher: null,
        },
      ],
      warnings: [],
    });
  });

  it('incomplete-fields.atom: an empty <author> gives a null author, not ""', () => {
    const feed = parseFeed(readRealFeed('incomplete-fields.atom'), atomType);
    expect(feed.title).toBeNull();
    expect(feed.language).toBe('en-US');
    expect(feed.items).toHaveLength(1);
    expect(feed.items[0]).toEqual({
      guid: null,
      url: null,
      title: null,
      summaryHtml: null,
      contentHtml: null,
      author: null,
      publishedRaw: null,
      published: null,
      categories: [],
      language: null,
      imageUrl: null,
      enclosureUrl: null,
      publisher: null,
    });
  });
});

describe('Atom built from the BBC corpus (testdata/bbc.atom)', () => {
  const feed = parseFeed(readTestdata('bbc.atom'), atomType);
  const [first, second, third] = ARTICLE_SLUGS.map(loadArticle);

  it('reads the feed: html title as plain text, xml:base-relative home page', () => {
    expect(feed.title).toBe('BBC News sample');
    expect(feed.siteUrl).toBe('https://www.bbc.co.uk/news/');
    expect(feed.language).toBe('en');
    expect(feed.items.map((item) => item.guid)).toEqual(ARTICLE_SLUGS.map((slug) => `bbc-${slug}`));
  });

  it('type="html": every paragraph survives exactly', () => {
    const item = feed.items[0];
    expect(item?.title).toBe(first?.headline);
    expect(item?.url).toBe('https://www.bbc.co.uk/news/business-001');
    expect(item?.published?.toISOString()).toBe('2005-02-14T09:30:00.000Z');
    expect(item?.author).toBe('BBC News');
    expect(item?.categories).toEqual(['business']);
    expect(paragraphsOf(item?.contentHtml ?? '')).toEqual(first?.paragraphs);
    expect(item?.contentHtml).toContain('$1.13bn (£600m)');
    // A type="text" summary is escaped, so it reads the same as HTML.
    expect(item?.summaryHtml).toBe(escapeText(first?.summary ?? ''));
  });

  it('type="text": the whole body, escaped, with its blank lines; nested xml:base', () => {
    const item = feed.items[1];
    expect(item?.contentHtml).toBe(escapeText(second?.body ?? ''));
    expect(unescapeHtml(item?.contentHtml ?? '')).toBe(second?.body);
    expect(item?.contentHtml).toContain('the Daily Mail &amp; General Trust');
    expect(item?.url).toBe('https://archive.example.org/2005/business-014.html');
    expect(item?.author).toBe('Media correspondent');
    expect(item?.publishedRaw).toBe('2005-02-15T12:00:00+00:00');
  });

  it('type="xhtml": the markup inside the wrapper div, every paragraph exact', () => {
    const item = feed.items[2];
    expect(item?.contentHtml?.startsWith('<p>')).toBe(true);
    expect(item?.contentHtml).not.toContain('xmlns');
    expect(paragraphsOf(item?.contentHtml ?? '')).toEqual(third?.paragraphs);
    expect(item?.contentHtml).toContain('Langlands &amp; Bell');
    expect(item?.language).toBe('en-GB');
    expect(item?.enclosureUrl).toBe('https://www.bbc.co.uk/news/audio/tech-005.mp3');
    expect(item?.published?.toISOString()).toBe('2005-02-16T17:45:10.250Z');
  });
});

describe('Atom details', () => {
  const atom = (body: string, attributes = '') =>
    parseFeed(utf8(`<feed xmlns="http://www.w3.org/2005/Atom"${attributes}>${body}</feed>`), null);

  it('keeps mixed XHTML content in document order', () => {
    const feed = atom(`<entry><id>1</id>
      <title type="xhtml"><div xmlns="http://www.w3.org/1999/xhtml">A <b>bold</b> move</div></title>
      <content type="xhtml"><xh:div xmlns:xh="http://www.w3.org/1999/xhtml">Hello <xh:b>world</xh:b> again<xh:br/>!</xh:div></content>
    </entry>`);
    expect(feed.items[0]?.title).toBe('A <b>bold</b> move');
    expect(feed.items[0]?.contentHtml).toBe('Hello <b>world</b> again<br />!');
  });

  it('prefers rel="alternate" (or no rel) and resolves it against xml:base on the link itself', () => {
    const feed = atom(
      `<link rel="self" href="/feed.atom"/><link href="/"/>
       <entry><id>1</id><link rel="replies" href="/c/1"/><link rel="alternate" xml:base="/posts/" href="one"/></entry>
       <entry><id>2</id><link rel="edit" href="/e/2"/><link href="two"/></entry>`,
      ' xml:base="https://example.org/blog/"',
    );
    expect(feed.siteUrl).toBe('https://example.org/');
    expect(feed.items.map((item) => item.url)).toEqual([
      'https://example.org/posts/one',
      'https://example.org/blog/two',
    ]);
  });

  it('joins several authors and falls back to the source element', () => {
    const feed =
      atom(`<entry><id>1</id><author><name>Ann</name></author><author><name>Bob</name></author></entry>
      <entry><id>2</id><source><author><name>Syndicated</name></author></source></entry>`);
    expect(feed.items.map((item) => item.author)).toEqual(['Ann, Bob', 'Syndicated']);
  });

  it('names the feed an entry was copied from (<source>: its title and home page)', () => {
    const feed = atom(
      `<entry><id>1</id><source><id>tag:a</id><title type="html">Ann &amp;amp; Co</title>
         <link rel="self" href="https://ann.example/feed"/><link href="/"/></source></entry>
       <entry><id>2</id><source xml:base="https://bob.example/blog/"><link rel="alternate" href="home"/></source></entry>
       <entry><id>3</id><source><author><name>Only an author</name></author></source></entry>
       <entry><id>4</id></entry>`,
      ' xml:base="https://ann.example/"',
    );
    expect(feed.items.map((item) => item.publisher)).toEqual([
      { name: 'Ann & Co', url: 'https://ann.example/' },
      { name: null, url: 'https://bob.example/blog/home' },
      null,
      null,
    ]);
  });

  it('reads Atom 0.3: issued date, escaped content mode', () => {
    const body = utf8(`<feed version="0.3" xmlns="http://purl.org/atom/ns#"><title>Old</title>
      <link rel="alternate" type="text/html" href="http://example.org/"/>
      <entry><title>E</title><id>urn:1</id><link rel="alternate" href="http://example.org/1"/>
        <issued>2004-05-06T07:08:09Z</issued><modified>2004-05-07T00:00:00Z</modified>
        <content type="text/html" mode="escaped">&lt;p&gt;hi&lt;/p&gt;</content></entry></feed>`);
    const feed = parseFeed(body, null);
    expect(feed.format).toBe('atom');
    expect(feed.siteUrl).toBe('http://example.org/');
    expect(feed.items[0]?.published?.toISOString()).toBe('2004-05-06T07:08:09.000Z');
    expect(feed.items[0]?.contentHtml).toBe('<p>hi</p>');
  });

  it('drops out-of-line and binary content rather than guessing', () => {
    const feed =
      atom(`<entry><id>1</id><content src="https://example.org/1.pdf" type="application/pdf"/></entry>
      <entry><id>2</id><content type="image/png">iVBORw0KGgo=</content></entry>`);
    expect(feed.items.map((item) => item.contentHtml)).toEqual([null, null]);
  });

  it('reads Base64 content of another type when it is Base64, and drops it when it is not', () => {
    // Found by gofeed's corpus: Node's decoder skips what is not Base64, so inline JSON became "k".
    const encoded = Buffer.from('Hello, world').toString('base64');
    const feed = atom(`<entry><id>1</id><content type="application/json">{"a":1}</content></entry>
      <entry><id>2</id><content type="application/octet-stream">${encoded}</content></entry>`);
    expect(feed.items.map((item) => item.contentHtml)).toEqual([null, 'Hello, world']);
  });

  it('reads a title or summary of a type no text construct has as Base64 text if it is, else as text', () => {
    const encoded = Buffer.from('Example <b>Atom</b>').toString('base64');
    const feed = atom(`<entry><id>1</id><title type="application/x-custom">Rates rise</title>
      <summary type="TEXT/PLAIN">a &lt; b</summary></entry>
      <entry><id>2</id><title type="application/octet-stream">
        ${encoded}
      </title></entry>`);
    expect(feed.items.map((item) => item.title)).toEqual(['Rates rise', 'Example &lt;b&gt;Atom&lt;/b&gt;']);
    expect(feed.items[0]?.summaryHtml).toBe('a &lt; b');
  });
});
