import { describe, expect, it } from 'vitest';
import { feedLinks, maxPageBytes } from './feed-links.ts';

const urls = (html: string, page = 'https://news.example/world/') => feedLinks(html, page).map((l) => l.url);

describe('feedLinks', () => {
  it('finds the feeds a page declares, resolved against the page, in its order', () => {
    const html = `<!doctype html><html><head><title>News</title>
      <link rel="stylesheet" href="/site.css">
      <link rel="alternate" type="application/rss+xml" title="World RSS" href="rss.xml">
      <link rel="alternate" type="application/atom+xml" href="/atom">
      <link rel="alternate" hreflang="fr" href="https://news.example/fr/">
      <link rel="alternate" type="application/feed+json" href="//cdn.example/feed.json">
    </head><body></body></html>`;
    expect(feedLinks(html, 'https://news.example/world/')).toEqual([
      { url: 'https://news.example/world/rss.xml', title: 'World RSS', type: 'application/rss+xml' },
      { url: 'https://news.example/atom', title: null, type: 'application/atom+xml' },
      { url: 'https://cdn.example/feed.json', title: null, type: 'application/feed+json' },
    ]);
  });

  it('reads rel and type as HTML does: any case, rel a list of words, type with parameters', () => {
    const html = `<LINK REL="Alternate Feed" TYPE="Application/RSS+XML; charset=utf-8" HREF="/a.xml">
      <link rel=alternate type=application/atom+xml href=/b.xml>
      <link rel="alternate stylesheet" type="text/css" href="/c.css">
      <link rel="alternated" type="application/rss+xml" href="/d.xml">`;
    expect(urls(html)).toEqual(['https://news.example/a.xml', 'https://news.example/b.xml']);
  });

  it("resolves against the page's first <base href>, wherever it stands", () => {
    const html = `<link rel="alternate" type="application/rss+xml" href="feed/">
      <base href="https://static.example/site/"><base href="https://ignored.example/">`;
    expect(urls(html)).toEqual(['https://static.example/site/feed/']);
  });

  it('decodes entities in href and title', () => {
    const [link] = feedLinks(
      `<link rel="alternate" type="application/rss+xml" title="Caf&eacute; &amp; Co" href="/rss?a=1&amp;b=2">`,
      'https://news.example/',
    );
    expect(link).toEqual({
      url: 'https://news.example/rss?a=1&b=2',
      title: 'Café & Co',
      type: 'application/rss+xml',
    });
  });

  it('puts comments feeds after the others (WordPress names one on every post)', () => {
    const html = `<link rel="alternate" type="application/rss+xml" title="Blog » Comments Feed" href="/comments/feed/">
      <link rel="alternate" type="application/rss+xml" title="Post comments" href="/2026/11/post/feed/">
      <link rel="alternate" type="application/rss+xml" title="Blog » Feed" href="/feed/">`;
    expect(urls(html, 'https://blog.example/2026/11/post/')).toEqual([
      'https://blog.example/feed/',
      'https://blog.example/comments/feed/',
      'https://blog.example/2026/11/post/feed/',
    ]);
  });

  it("takes application/json only when it says it is a feed, not WordPress's REST API link", () => {
    const html = `<link rel="alternate" type="application/json" href="https://blog.example/wp-json/wp/v2/pages/7">
      <link rel="alternate" type="application/json+oembed" href="https://blog.example/wp-json/oembed/1.0/embed">
      <link rel="alternate" type="application/json" title="JSON Feed" href="/index.json">`;
    expect(urls(html, 'https://blog.example/')).toEqual(['https://blog.example/index.json']);
  });

  it('leaves out what is no http(s) URL, a duplicate, an empty href; keeps no fragment', () => {
    const html = `<link rel="alternate" type="application/rss+xml" href="javascript:alert(1)">
      <link rel="alternate" type="application/rss+xml" href="">
      <link rel="alternate" type="application/rss+xml" href="ftp://news.example/rss">
      <link rel="alternate" type="application/rss+xml" href="http://[::1">
      <link rel="alternate" type="application/rss+xml" href="/rss#top">
      <link rel="alternate" type="application/rss+xml" href="https://news.example/rss">`;
    expect(urls(html)).toEqual(['https://news.example/rss']);
  });

  it('reads broken markup and pages that name no feed without failing', () => {
    expect(urls('')).toEqual([]);
    expect(urls('<html><head><title>x</title></head><body><a href="/rss.xml">RSS</a>')).toEqual([]);
    expect(urls('<link rel="alternate" type="application/rss+xml" href="/ok.xml"<<<>>><div')).toEqual([
      'https://news.example/ok.xml',
    ]);
  });

  it('gives at most `limit`, and reads no further than the first MiB of a page', () => {
    const many = Array.from(
      { length: 20 },
      (_, i) => `<link rel="alternate" type="application/rss+xml" href="/f${i}">`,
    ).join('');
    expect(feedLinks(many, 'https://news.example/', 3)).toHaveLength(3);
    const late = `${' '.repeat(maxPageBytes)}<link rel="alternate" type="application/rss+xml" href="/late.xml">`;
    expect(urls(late)).toEqual([]);
  });
});
