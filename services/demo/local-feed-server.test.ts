import { afterEach, describe, expect, it } from 'vitest';
import { parseFeed } from '../feeds/parser/parse-feed.ts';
import { readCorpus } from './corpus.ts';
import { CorpusRelease } from './corpus-release.ts';
import { readRealFeeds } from './feed-responses.ts';
import { startLocalFeedServer, type LocalFeedServer } from './local-feed-server.ts';

const periodMs = 3_000;
let now = 1_800_000_000_000;
const release = new CorpusRelease(readCorpus(), { periodMs, clock: () => now });
let server: LocalFeedServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

const get = async (path: string, headers: Record<string, string> = {}) => {
  const response = await fetch(`${server!.url}${path}`, { headers });
  return { response, body: new Uint8Array(await response.arrayBuffer()) };
};

describe('local feed server', () => {
  it('serves a live feed that gains the newest release every period, in each feed format', async () => {
    server = await startLocalFeedServer({ release, realFeeds: new Map(), window: 5 });
    for (const format of ['rss', 'atom', 'json']) {
      const first = await get(`/live/business.${format}`);
      const before = parseFeed(first.body, first.response.headers.get('content-type'));
      expect(before.items).toHaveLength(5);

      now += 5 * periodMs; // the categories take turns: five periods bring one more business article
      const second = await get(`/live/business.${format}`);
      const after = parseFeed(second.body, second.response.headers.get('content-type'));
      expect(after.items[1]!.guid).toBe(before.items[0]!.guid);
      expect(after.items[0]!.published!.getTime()).toBeGreaterThan(before.items[0]!.published!.getTime());
      expect(after.items.every((item) => item.categories.includes('business'))).toBe(true);
    }
  });

  it('answers 304 to a client that holds the current version, until the next release', async () => {
    server = await startLocalFeedServer({ release, realFeeds: new Map(), window: 5 });
    const first = await get('/live/all.json');
    const etag = first.response.headers.get('etag')!;
    expect((await get('/live/all.json', { 'if-none-match': etag })).response.status).toBe(304);
    now += periodMs;
    expect((await get('/live/all.json', { 'if-none-match': etag })).response.status).toBe(200);
  });

  it('serves the real snapshots byte for byte, and the page behind each released link', async () => {
    const realFeeds = readRealFeeds();
    server = await startLocalFeedServer({ release, realFeeds, window: 3 });
    const guardian = await get('/real/guardian.rss');
    expect(Buffer.from(guardian.body).equals(realFeeds.get('guardian.rss')!.body)).toBe(true);

    const { body, response } = await get('/live/tech.rss');
    const [item] = parseFeed(body, response.headers.get('content-type')).items;
    const page = await fetch(item!.url!);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain(item!.title!.replace(/&/g, '&amp;'));

    expect((await get('/live/weather.rss')).response.status).toBe(404);
    expect((await get('/real/missing.rss')).response.status).toBe(404);
  });

  it('keeps webhook events POSTed to an inbox, with their signature headers, newest first', async () => {
    server = await startLocalFeedServer({ release, realFeeds: new Map(), window: 5 });
    for (const n of [1, 2]) {
      const posted = await fetch(`${server.url}/inbox/alerts`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'webhook-id': `msg_${n}`,
          'webhook-signature': 'v1,x',
        },
        body: JSON.stringify({ event: 'news.alert', n }),
      });
      expect(posted.status).toBe(204);
    }
    const inbox = (await (await fetch(`${server.url}/inbox/alerts`)).json()) as {
      events: { webhook_id: string; webhook_signature: string; body: { n: number } }[];
    };
    expect(inbox.events.map((e) => [e.webhook_id, e.body.n])).toEqual([
      ['msg_2', 2],
      ['msg_1', 1],
    ]);
    expect(inbox.events[0]!.webhook_signature).toBe('v1,x');
    const empty: unknown = await fetch(`${server.url}/inbox/other`).then((r) => r.json());
    expect(empty).toMatchObject({ events: [] });
  });
});
