import { describe, expect, it } from 'vitest';
import { parseFeed } from './parse-feed.ts';
import { readRealFeed, utf8 } from './testdata/read.ts';

describe('RSS 1.0 / RDF real feeds', () => {
  it('rdf-rss-1.rss: every item has a url and a dc:date', () => {
    const feed = parseFeed(readRealFeed('rdf-rss-1.rss'), 'application/rdf+xml');
    expect(feed.format).toBe('rdf');
    expect(feed.title).toBe('Science twis');
    expect(feed.siteUrl).toBe('http://science.sciencemag.org');
    expect(feed.items).toHaveLength(69);
    const first = feed.items[0];
    expect(first?.guid).toBe('http://science.sciencemag.org/cgi/content/short/356/6343/1134-a?rss=1');
    expect(first?.title).toBe('Food for fungi');
    expect(first?.url).toBe('http://science.sciencemag.org/cgi/content/short/356/6343/1134-a?rss=1');
    expect(first?.publishedRaw).toBe('2017-06-15T10:29:47-07:00');
    expect(first?.published?.toISOString()).toBe('2017-06-15T17:29:47.000Z');
    expect(first?.author).toBe('Hines, P. J.');
    expect(first?.categories).toEqual(['Botany, Microbiology']);
    expect(feed.items.filter((item) => item.url?.startsWith('http://science.sciencemag.org/'))).toHaveLength(
      69,
    );
    expect(feed.items.filter((item) => item.published !== null)).toHaveLength(69);
    expect(feed.items.at(-1)?.published?.toISOString()).toBe('2017-05-25T17:24:10.000Z');
  });

  it('craigslist.rss: enc:enclosure images, dc:language per item, HTML kept in titles', () => {
    const feed = parseFeed(readRealFeed('craigslist.rss'), 'application/rss+xml');
    expect(feed.title).toBe('craigslist SF bay area | apts/housing for rent search');
    expect(feed.siteUrl).toBe('https://sfbay.craigslist.org/search/apa');
    expect(feed.language).toBe('en-us');
    expect(feed.items).toHaveLength(25);
    const first = feed.items[0];
    expect(first?.title).toBe(
      'Bright, Spacious Beautiful Victorian (oakland north / temescal) &#x0024;4300 3bd 1930ft<sup>2</sup>',
    );
    expect(first?.url).toBe('http://sfbay.craigslist.org/eby/apa/6186664607.html');
    expect(first?.published?.toISOString()).toBe('2017-06-21T17:33:10.000Z');
    expect(first?.author).toBeNull();
    expect(first?.language).toBe('en-us');
    expect(first?.imageUrl).toBe('https://images.craigslist.org/00l0l_fbVZikCjEKO_300x300.jpg');
    expect(first?.enclosureUrl).toBeNull();
    expect(feed.items.filter((item) => item.imageUrl !== null)).toHaveLength(24);
  });
});

describe('RDF details', () => {
  it('reads RSS 0.90 (Netscape namespace) like RSS 1.0', () => {
    const body = utf8(`<?xml version="1.0"?>
<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="http://my.netscape.com/rdf/simple/0.9/">
  <channel><title>Mozilla Dot Org</title><link>http://www.mozilla.org</link></channel>
  <item><title>New Status Updates</title><link>http://www.mozilla.org/status/</link></item>
  <item><title>Bugzilla Reorganized</title><link>http://www.mozilla.org/bugs/</link></item>
</rdf:RDF>`);
    const feed = parseFeed(body, null);
    expect(feed.format).toBe('rdf');
    expect(feed.title).toBe('Mozilla Dot Org');
    expect(feed.items.map((item) => [item.title, item.url])).toEqual([
      ['New Status Updates', 'http://www.mozilla.org/status/'],
      ['Bugzilla Reorganized', 'http://www.mozilla.org/bugs/'],
    ]);
  });

  it('refuses an rdf:RDF document with neither an RSS channel nor items', () => {
    const body = utf8('<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><x/></rdf:RDF>');
    expect(() => parseFeed(body, null)).toThrow(
      'RDF document has neither an RSS 1.0 <channel> nor any <item>',
    );
  });

  it('reads the items of an rdf:RDF document without a channel', () => {
    const body =
      utf8(`<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="http://purl.org/rss/1.0/">
  <item rdf:about="https://example.org/a"><title>A</title><link>https://example.org/a</link></item>
</rdf:RDF>`);
    const feed = parseFeed(body, null);
    expect(feed.title).toBeNull();
    expect(feed.items.map((item) => [item.title, item.url])).toEqual([['A', 'https://example.org/a']]);
  });

  it("reads Atom's elements in an item that has not RSS 1.0's or Dublin Core's", () => {
    // Found by gofeed's and SimplePie's corpora (an RSS 1.0 item whose only date, author, link or text
    // is an Atom element).
    const body =
      utf8(`<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="http://purl.org/rss/1.0/"
      xmlns:atom="http://www.w3.org/2005/Atom">
  <channel rdf:about="https://example.org/"><title>T</title><link>https://example.org/</link></channel>
  <item rdf:about="https://example.org/a">
    <atom:title>Atom title</atom:title><atom:link href="/a"/>
    <atom:summary type="html">&lt;p&gt;Atom &lt;b&gt;summary&lt;/b&gt;&lt;/p&gt;</atom:summary>
    <atom:author><atom:name>Jane Smith</atom:name></atom:author>
    <atom:updated>2020-01-02T15:04:05Z</atom:updated><atom:category term="science"/>
  </item>
</rdf:RDF>`);
    const [item] = parseFeed(body, null).items;
    expect(item).toMatchObject({
      title: 'Atom title',
      url: 'https://example.org/a',
      summaryHtml: '<p>Atom <b>summary</b></p>',
      author: 'Jane Smith',
      publishedRaw: '2020-01-02T15:04:05Z',
      categories: ['science'],
    });
  });
});
