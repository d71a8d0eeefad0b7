import { describe, expect, it } from 'vitest';
import type { FetchOutcome } from '../../feeds/fetcher/feed-fetcher.ts';
import { feedCheck } from './feed-check.ts';

const ok = (body: string, contentType: string, finalUrl = 'https://site.example/'): FetchOutcome => ({
  kind: 'ok',
  status: 200,
  body: Buffer.from(body),
  contentType,
  etag: null,
  lastModified: null,
  finalUrl,
  redirectStatuses: [],
  durationMs: 1,
  hints: {} as never,
});
const checkOf = (outcome: FetchOutcome) => feedCheck({ fetch: async () => outcome });

describe('feedCheck', () => {
  it("reads a feed's title, language and home page", async () => {
    const rss = `<rss version="2.0"><channel><title>Site</title><link>/</link><language>en-gb</language>
      <item><title>A</title><link>https://site.example/a</link></item></channel></rss>`;
    expect(
      await checkOf(ok(rss, 'application/rss+xml', 'https://site.example/feed'))('https://site.example/feed'),
    ).toEqual({
      ok: true,
      title: 'Site',
      language: 'en-gb',
      siteUrl: 'https://site.example/',
      items: 1,
    });
  });

  it('gives the feeds a web page links to, resolved against where the page was fetched from', async () => {
    const page = `<!doctype html><html><head><link rel="alternate" type="application/rss+xml" href="rss.xml"></head></html>`;
    const result = await checkOf(ok(page, 'text/html; charset=utf-8', 'https://www.site.example/news/'))(
      'https://site.example/news',
    );
    expect(result).toEqual({
      ok: false,
      reason: 'not a feed: an HTML page',
      feedLinks: ['https://www.site.example/news/rss.xml'],
      pageUrl: 'https://www.site.example/news/',
    });
  });

  it('gives no links for a fetch that failed or was refused', async () => {
    const failed: FetchOutcome = {
      kind: 'failed',
      status: 404,
      reason: 'HTTP 404',
      retryAfterMs: null,
      durationMs: 1,
    };
    expect(await checkOf(failed)('https://site.example/x')).toEqual({
      ok: false,
      reason: 'HTTP 404',
      feedLinks: [],
      retryAfterMs: null,
    });
    // A feed that says when to ask again: passed on (subscriptions.ts answers with it).
    const busy: FetchOutcome = { ...failed, status: 503, reason: 'HTTP 503', retryAfterMs: 30_000 };
    expect(await checkOf(busy)('https://site.example/x')).toMatchObject({ ok: false, retryAfterMs: 30_000 });
    const refused: FetchOutcome = { kind: 'refused', reason: 'a private address', durationMs: 1 };
    expect(await checkOf(refused)('http://10.0.0.1/')).toEqual({
      ok: false,
      reason: 'a private address',
      feedLinks: [],
    });
  });
});
