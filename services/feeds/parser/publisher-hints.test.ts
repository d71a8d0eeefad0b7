import { describe, expect, it } from 'vitest';
import { parseFeed } from './parse-feed.ts';

const parse = (xml: string, baseUrl = 'https://news.example/feed') =>
  parseFeed(new TextEncoder().encode(xml), null, { baseUrl }).hints;

describe('publisher hints', () => {
  it('reads RSS ttl, the syndication module and the WebSub links of a channel', () => {
    const hints = parse(`<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom"
      xmlns:sy="http://purl.org/rss/1.0/modules/syndication/"><channel><title>T</title>
      <ttl> 30 </ttl><sy:updatePeriod>hourly</sy:updatePeriod><sy:updateFrequency>4</sy:updateFrequency>
      <atom:link rel="hub" href="https://hub.example/"/><atom:link rel="hub" href="https://hub.example/"/>
      <atom:link rel="self" href="/feed.xml"/><atom:link rel="hub" href="ftp://no.example/"/>
      </channel></rss>`);
    expect(hints).toEqual({
      ttlSeconds: 1800,
      updateIntervalSeconds: 900,
      hubs: ['https://hub.example/'],
      selfUrl: 'https://news.example/feed.xml',
    });
  });

  it('takes the module defaults (daily, once) for a missing half and ignores nonsense', () => {
    const sy = (inner: string) =>
      parse(
        `<rss version="2.0" xmlns:sy="http://purl.org/rss/1.0/modules/syndication/"><channel>${inner}</channel></rss>`,
      );
    expect(sy('<sy:updateFrequency>2</sy:updateFrequency>').updateIntervalSeconds).toBe(43_200);
    expect(sy('<sy:updatePeriod>weekly</sy:updatePeriod>').updateIntervalSeconds).toBe(604_800);
    expect(sy('<sy:updatePeriod>sometimes</sy:updatePeriod>').updateIntervalSeconds).toBeNull();
    expect(sy('<sy:updateFrequency>0</sy:updateFrequency>').updateIntervalSeconds).toBeNull();
    expect(sy('<ttl>-5</ttl><ttl>9</ttl>').ttlSeconds).toBeNull();
    expect(sy('<ttl>soon</ttl>').ttlSeconds).toBeNull();
  });

  it('reads the hub of an Atom feed and of a JSON Feed', () => {
    const atom = parse(`<feed xmlns="http://www.w3.org/2005/Atom"><title>A</title>
      <link rel="hub" href="http://hub.example/push"/><link rel="self" href="https://news.example/atom"/></feed>`);
    expect(atom.hubs).toEqual(['http://hub.example/push']);
    expect(atom.selfUrl).toBe('https://news.example/atom');
    const json = parse(
      JSON.stringify({
        version: 'https://jsonfeed.org/version/1.1',
        title: 'J',
        feed_url: 'https://news.example/feed.json',
        hubs: [
          { type: 'WebSub', url: 'https://hub.example/' },
          { type: 'rssCloud', url: 'https://cloud.example/' },
          7,
        ],
        items: [],
      }),
    );
    expect(json).toEqual({
      ttlSeconds: null,
      updateIntervalSeconds: null,
      hubs: ['https://hub.example/'],
      selfUrl: 'https://news.example/feed.json',
    });
  });

  it('is empty for a feed that says nothing', () => {
    expect(parse('<rss version="2.0"><channel><title>T</title></channel></rss>')).toEqual({
      ttlSeconds: null,
      updateIntervalSeconds: null,
      hubs: [],
      selfUrl: null,
    });
  });
});
