import { createHash } from 'node:crypto';
import zlib from 'node:zlib';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createOutboundUrlPolicy } from '../../runtime/outbound/outbound-url.ts';
import { FEED_ACCEPT, FeedFetcher } from './feed-fetcher.ts';
import type { FetchOutcome, FetcherSettings } from './feed-fetcher.ts';
import { refusingPort, deferred, startServer, testLookup } from '../../../test/support/http-test-servers.ts';
import type { TestServer } from '../../../test/support/http-test-servers.ts';

const MiB = 1024 * 1024;
const feed = Buffer.from(
  '<?xml version="1.0"?><rss version="2.0"><channel><title>t</title>' +
    '<item><title>Hello</title></item>'.repeat(200) +
    '</channel></rss>',
);

const encodings: Record<string, [coding: string, body: Buffer]> = {
  gzip: ['gzip', zlib.gzipSync(feed)],
  'deflate-zlib': ['deflate', zlib.deflateSync(feed)],
  'deflate-raw': ['deflate', zlib.deflateRawSync(feed)],
  br: ['br', zlib.brotliCompressSync(feed)],
  corrupt: ['gzip', Buffer.from('this is not gzip at all')],
};

// `feeds.test` and `other.test` stand for public hosts: they are allowed by name and resolve (through
// the injected lookup only) to the local server. 127.0.0.1 itself is NOT allowed, so a redirect there
// is what a hostile public feed would do.
const policy = createOutboundUrlPolicy({ allow: ['feeds.test', 'other.test'] });
const fetchers: FeedFetcher[] = [];
function fetcher(settings: Partial<FetcherSettings> = {}) {
  const created = new FeedFetcher({ userAgent: 'news-test/1.0', policy, lookup: testLookup(), ...settings });
  fetchers.push(created);
  return created;
}
afterEach(async () => {
  await Promise.all(fetchers.splice(0).map((f) => f.close()));
});

function expectKind<K extends FetchOutcome['kind']>(outcome: FetchOutcome, kind: K) {
  expect(outcome, JSON.stringify({ ...outcome, body: undefined })).toMatchObject({ kind });
  return outcome as Extract<FetchOutcome, { kind: K }>;
}

describe('FeedFetcher against real servers', () => {
  let server: TestServer;
  let base: string;
  beforeAll(async () => {
    server = await startServer((request, response) => {
      const url = new URL(request.url ?? '/', 'http://x');
      const route = url.pathname;
      if (route === '/feed') {
        if (request.headers['if-none-match'] === '"v1"') {
          const fresh = url.searchParams.get('fresh');
          response.writeHead(304, fresh ? { etag: fresh } : {});
          return response.end();
        }
        response.writeHead(200, {
          'content-type': 'application/rss+xml; charset=utf-8',
          etag: '"v1"',
          'last-modified': 'Tue, 01 Sep 2026 10:00:00 GMT',
        });
        return response.end(feed);
      }
      const encoded = /^\/encoded\/(.+)$/.exec(route);
      if (encoded) {
        const [coding, body] = encodings[encoded[1]!] ?? ['identity', feed];
        response.writeHead(200, { 'content-encoding': coding, 'content-type': 'application/rss+xml' });
        return response.end(body);
      }
      const hops = /^\/hops\/(\d+)$/.exec(route);
      if (hops) {
        const left = Number(hops[1]);
        if (left === 0) return response.end(feed);
        // Relative Location: each hop must be resolved against the URL of the previous one.
        response.writeHead(302, { location: `${left - 1}` });
        return response.end('moved');
      }
      if (route === '/chain') {
        // /chain?s=301,308: a redirect of each status in turn (relative Locations), then the feed.
        const [status, ...rest] = (url.searchParams.get('s') ?? '').split(',').filter(Boolean);
        if (status === undefined) return response.writeHead(400).end();
        response.writeHead(Number(status), { location: rest.length ? `chain?s=${rest.join(',')}` : '/feed' });
        return response.end();
      }
      if (route === '/loop') {
        response.writeHead(301, { location: '/loop' });
        return response.end();
      }
      if (route === '/to') {
        response.writeHead(302, { location: url.searchParams.get('location') ?? '/' });
        return response.end();
      }
      if (route === '/secret') return response.end('internal admin page');
      if (route === '/too-many-requests') {
        response.writeHead(429, { 'retry-after': '120' });
        return response.end();
      }
      if (route === '/unavailable') {
        response.writeHead(503, { 'retry-after': 'Thu, 01 Jan 2026 00:01:30 GMT' });
        return response.end('down');
      }
      if (route === '/garbage') {
        response.writeHead(200, { 'content-type': 'application/rss+xml' });
        return response.end(garbage);
      }
      response.writeHead(404);
      response.end();
    });
    base = server.at('feeds.test');
  });
  afterAll(() => server.close());

  const garbage = createHash('sha512').update('seed').digest();

  it('sends feed headers, then a conditional GET that answers not_modified', async () => {
    const f = fetcher();
    const first = expectKind(await f.fetch({ url: `${base}/feed` }), 'ok');
    expect(first).toMatchObject({
      status: 200,
      contentType: 'application/rss+xml; charset=utf-8',
      etag: '"v1"',
      lastModified: 'Tue, 01 Sep 2026 10:00:00 GMT',
      finalUrl: `${base}/feed`,
      redirectStatuses: [],
    });
    expect(Buffer.from(first.body).equals(feed)).toBe(true);
    const sent = server.requests.at(-1)!.headers;
    expect(sent).toMatchObject({
      'user-agent': 'news-test/1.0',
      accept: FEED_ACCEPT,
      'accept-encoding': 'gzip, deflate, br',
      host: `feeds.test:${server.port}`,
    });
    expect(sent['if-none-match']).toBeUndefined();

    const second = await f.fetch({ url: `${base}/feed`, etag: first.etag, lastModified: first.lastModified });
    expect(second).toMatchObject({
      kind: 'not_modified',
      status: 304,
      etag: '"v1"',
      lastModified: 'Tue, 01 Sep 2026 10:00:00 GMT',
    });
    expect(server.requests.at(-1)!.headers).toMatchObject({
      'if-none-match': '"v1"',
      'if-modified-since': 'Tue, 01 Sep 2026 10:00:00 GMT',
    });
  });

  it('returns the validators a 304 carries instead of the old ones', async () => {
    const outcome = await fetcher().fetch({ url: `${base}/feed?fresh=%22v2%22`, etag: '"v1"' });
    expect(outcome).toMatchObject({ kind: 'not_modified', etag: '"v2"', lastModified: null });
  });

  it.each(['gzip', 'deflate-zlib', 'deflate-raw', 'br'])('decodes a %s body', async (variant) => {
    const outcome = expectKind(await fetcher().fetch({ url: `${base}/encoded/${variant}` }), 'ok');
    expect(Buffer.from(outcome.body).toString()).toBe(feed.toString());
  });

  it('reports a corrupt compressed body as failed', async () => {
    const outcome = expectKind(await fetcher().fetch({ url: `${base}/encoded/corrupt` }), 'failed');
    expect(outcome.status).toBe(200);
    expect(outcome.reason).toMatch(/^could not decode the gzip body: /);
  });

  it('returns binary garbage served as 200 unchanged (judging it is the parser’s job)', async () => {
    const outcome = expectKind(await fetcher().fetch({ url: `${base}/garbage` }), 'ok');
    expect(Buffer.from(outcome.body).equals(garbage)).toBe(true);
  });

  it('follows 3 redirects, resolving each Location against the previous URL', async () => {
    const outcome = expectKind(await fetcher().fetch({ url: `${base}/hops/3` }), 'ok');
    expect(outcome).toMatchObject({ redirectStatuses: [302, 302, 302], finalUrl: `${base}/hops/0` });
    expect(Buffer.from(outcome.body).equals(feed)).toBe(true);
  });

  it('records the status of every redirect, through to a 304 reached through them', async () => {
    const f = fetcher();
    const chain = expectKind(await f.fetch({ url: `${base}/chain?s=301,308,307,301` }), 'ok');
    expect(chain).toMatchObject({ redirectStatuses: [301, 308, 307, 301], finalUrl: `${base}/feed` });
    const notModified = expectKind(
      await f.fetch({ url: `${base}/chain?s=308`, etag: '"v1"' }),
      'not_modified',
    );
    expect(notModified).toMatchObject({ redirectStatuses: [308], finalUrl: `${base}/feed` });
    expect(expectKind(await f.fetch({ url: `${base}/feed` }), 'ok').redirectStatuses).toEqual([]);
  });

  it('fails a redirect whose Location is no URL, saying where it came from', async () => {
    const outcome = expectKind(
      await fetcher().fetch({
        url: `${base}/to?location=${encodeURIComponent('http://exa mple.com:99999/')}`,
      }),
      'failed',
    );
    expect(outcome).toMatchObject({ status: 302 });
    expect(outcome.reason).toMatch(/^redirect from http:\/\/feeds\.test:\d+\/to to an invalid URL /);
  });

  it('gives up after 5 redirects, and on a loop as soon as it comes round', async () => {
    const before = server.requests.length;
    const outcome = await fetcher().fetch({ url: `${base}/hops/6` });
    expect(outcome).toMatchObject({ kind: 'failed', status: expect.any(Number) as number });
    expect(outcome).toMatchObject({ reason: 'too many redirects (more than 5)' });
    expect(server.requests.length - before).toBe(6);

    const loopStart = server.requests.length;
    const loop = await fetcher().fetch({ url: `${base}/loop?x=1#top` });
    expect(loop).toMatchObject({ kind: 'failed', status: 301 });
    expect(loop.kind === 'failed' && loop.reason).toBe(
      `redirect loop: ${base}/loop redirects back to ${base}/loop, where it had been`,
    );
    expect(server.requests.length - loopStart).toBe(2);
  });

  it('refuses a redirect from a public host to a private or metadata address, without connecting', async () => {
    for (const target of [
      `http://127.0.0.1:${server.port}/secret`,
      'http://169.254.169.254/latest/meta-data/',
      `http://[::ffff:127.0.0.1]:${server.port}/secret`,
      'ftp://feeds.test/feed',
    ]) {
      const outcome = expectKind(
        await fetcher().fetch({ url: `${base}/to?location=${encodeURIComponent(target)}` }),
        'refused',
      );
      expect(outcome.reason).toMatch(/^refused: .*\(redirected from http:\/\/feeds\.test:\d+\/to\)$/);
    }
    expect(server.requests.some((r) => r.url === '/secret')).toBe(false);
    const last = await fetcher().fetch({
      url: `${base}/to?location=${encodeURIComponent(`http://127.0.0.1:${server.port}/secret`)}`,
    });
    expect(last).toMatchObject({
      reason: expect.stringContaining('127.0.0.1 is a loopback address, which is not allowed') as string,
    });
  });

  it('reads Retry-After as seconds on a 429 and as an HTTP-date on a 503', async () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    const f = fetcher({ clock: () => now });
    expect(await f.fetch({ url: `${base}/too-many-requests` })).toEqual({
      kind: 'failed',
      status: 429,
      reason: 'HTTP 429 Too Many Requests',
      retryAfterMs: 120_000,
      durationMs: 0,
    });
    expect(await f.fetch({ url: `${base}/unavailable` })).toEqual({
      kind: 'failed',
      status: 503,
      reason: 'HTTP 503 Service Unavailable',
      retryAfterMs: 90_000,
      durationMs: 0,
    });
    expect(await f.fetch({ url: `${base}/missing` })).toMatchObject({ status: 404, retryAfterMs: null });
  });

  it('resolves each host once per fetch and connects to the checked address', async () => {
    // feeds.test exists only in the injected lookup: the connection can only succeed if the socket
    // uses the address the policy checked rather than resolving the name itself.
    const lookup = testLookup();
    const f = fetcher({ lookup });
    expect(await f.fetch({ url: `${base}/hops/2` })).toMatchObject({ kind: 'ok' });
    expect(lookup.calls).toEqual(['feeds.test', 'feeds.test', 'feeds.test']);
  });

  it('fetches an IP literal when its range is allow-listed', async () => {
    const local = createOutboundUrlPolicy({ allow: ['127.0.0.0/8'] });
    const outcome = await fetcher({ policy: local }).fetch({ url: `http://127.0.0.1:${server.port}/feed` });
    expect(outcome).toMatchObject({ kind: 'ok', status: 200 });
    const refused = await fetcher().fetch({ url: `http://127.0.0.1:${server.port}/feed` });
    expect(refused).toMatchObject({ kind: 'refused' });
  });

  it('reports malformed URLs, other schemes and unknown hosts without throwing', async () => {
    const f = fetcher();
    expect(await f.fetch({ url: 'not a url' })).toMatchObject({
      kind: 'failed',
      reason: 'invalid URL "not a url"',
    });
    expect(await f.fetch({ url: 'ftp://feeds.test/feed.xml' })).toMatchObject({
      kind: 'refused',
      reason: 'refused: only http and https URLs are allowed, got ftp:',
    });
    expect(await f.fetch({ url: 'file:///etc/passwd' })).toMatchObject({ kind: 'refused' });
    expect(await f.fetch({ url: 'http://nowhere.example/feed' })).toMatchObject({
      kind: 'failed',
      status: null,
      reason: 'could not resolve nowhere.example (ENOTFOUND)',
    });
  });
});

describe('FeedFetcher against hostile servers', () => {
  const servers: TestServer[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((s) => s.close()));
  });
  async function hostile(handler: Parameters<typeof startServer>[0]) {
    const server = await startServer(handler);
    servers.push(server);
    return server;
  }

  it('aborts a slow-drip body at the total timeout and closes the connection', async () => {
    const closed = deferred<number>();
    const server = await hostile((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/rss+xml' });
      response.write('<');
      const drip = setInterval(() => response.write('x'), 1000);
      response.on('close', () => {
        clearInterval(drip);
        closed.resolve(Date.now());
      });
    });
    const started = Date.now();
    const outcome = expectKind(
      await fetcher({ totalTimeoutMs: 1000 }).fetch({ url: `${server.at('feeds.test')}/feed` }),
      'failed',
    );
    expect(outcome).toMatchObject({ status: 200, reason: 'timed out after 1000 ms while reading the body' });
    expect(outcome.durationMs).toBeGreaterThanOrEqual(1000);
    expect(outcome.durationMs).toBeLessThan(1500);
    expect((await closed.promise) - started).toBeLessThan(1500);
  });

  it('times out a server that accepts and never answers', async () => {
    const server = await hostile(() => undefined);
    const outcome = expectKind(
      await fetcher({ totalTimeoutMs: 1000 }).fetch({ url: `${server.at('feeds.test')}/feed` }),
      'failed',
    );
    expect(outcome).toMatchObject({
      status: null,
      reason: 'timed out after 1000 ms while waiting for the response headers',
    });
    expect(outcome.durationMs).toBeGreaterThanOrEqual(1000);
    expect(outcome.durationMs).toBeLessThan(1500);
  });

  it('stops reading a 100 MB streamed body at the cap and closes the connection', async () => {
    const total = 100 * MiB;
    const closed = deferred<number>();
    const server = await hostile((_request, response) => {
      // Chunked, no Content-Length: the cap must be enforced while reading.
      response.writeHead(200, { 'content-type': 'application/rss+xml' });
      const chunk = Buffer.alloc(64 * 1024, 0x61);
      let sent = 0;
      const pump = () => {
        while (sent < total) {
          sent += chunk.length;
          if (!response.write(chunk)) return void response.once('drain', pump);
        }
        response.end();
      };
      response.on('close', () => closed.resolve(sent));
      pump();
    });
    const outcome = await fetcher().fetch({ url: `${server.at('feeds.test')}/big` });
    expect(outcome).toMatchObject({ kind: 'failed', status: 200, reason: 'body larger than 10485760 bytes' });
    // The server got to write the cap plus what socket buffers hold, far from all 100 MB.
    expect(await closed.promise).toBeLessThan(40 * MiB);
  });

  it('refuses a declared Content-Length over the cap before reading', async () => {
    const closed = deferred();
    const server = await hostile((_request, response) => {
      response.writeHead(200, { 'content-length': String(100 * MiB) });
      response.write('x');
      response.on('close', () => closed.resolve());
    });
    const outcome = await fetcher().fetch({ url: `${server.at('feeds.test')}/big` });
    expect(outcome).toMatchObject({ kind: 'failed', reason: 'body larger than 10485760 bytes' });
    await closed.promise;
  });

  it('caps a gzip bomb on its decoded size', async () => {
    const bomb = zlib.gzipSync(Buffer.alloc(200 * MiB), { level: 9 });
    expect(bomb.length).toBeLessThan(MiB);
    const server = await hostile((_request, response) => {
      response.writeHead(200, { 'content-encoding': 'gzip', 'content-type': 'application/rss+xml' });
      response.end(bomb);
    });
    const outcome = await fetcher().fetch({ url: `${server.at('feeds.test')}/bomb` });
    expect(outcome).toMatchObject({ kind: 'failed', status: 200, reason: 'body larger than 10485760 bytes' });
  });

  it('reports a refused connection', async () => {
    const port = await refusingPort();
    const outcome = await fetcher().fetch({ url: `http://feeds.test:${port}/feed` });
    expect(outcome).toMatchObject({
      kind: 'failed',
      status: null,
      reason: `connection refused by feeds.test:${port}`,
      retryAfterMs: null,
    });
  });

  it("reports a server that does not answer in TLS plainly, without OpenSSL's source paths", async () => {
    const server = await hostile((_request, response) => response.end(feed));
    const plain = new URL(server.at('feeds.test'));
    const outcome = await fetcher().fetch({ url: `https://feeds.test:${plain.port}/feed` });
    expect(outcome).toMatchObject({
      kind: 'failed',
      reason: `TLS error with feeds.test:${plain.port}: the server did not answer in TLS (wrong version number)`,
    });
  });

  it('never has more than perHostConcurrency requests in flight to one host', async () => {
    const inFlight = new Map<string, number>();
    const maxSeen = new Map<string, number>();
    let maxTotal = 0;
    let total = 0;
    const server = await hostile((request, response) => {
      const host = request.headers.host!;
      inFlight.set(host, (inFlight.get(host) ?? 0) + 1);
      maxSeen.set(host, Math.max(maxSeen.get(host) ?? 0, inFlight.get(host)!));
      maxTotal = Math.max(maxTotal, ++total);
      // Holding each answer a moment is what gives extra requests (if the limit leaked) time to arrive.
      setTimeout(() => {
        inFlight.set(host, inFlight.get(host)! - 1);
        total -= 1;
        response.end(feed);
      }, 25);
    });
    const f = fetcher({ perHostConcurrency: 2 });
    const outcomes = await Promise.all(
      Array.from({ length: 16 }, (_, i) =>
        f.fetch({ url: `${server.at(i % 2 === 0 ? 'feeds.test' : 'other.test')}/feed/${i}` }),
      ),
    );
    expect(outcomes.every((o) => o.kind === 'ok')).toBe(true);
    expect(Object.fromEntries(maxSeen)).toEqual({
      [`feeds.test:${server.port}`]: 2,
      [`other.test:${server.port}`]: 2,
    });
    // The limit is per host: both hosts ran side by side.
    expect(maxTotal).toBe(4);
  });

  it('does not count time spent queueing for a host against the total timeout', async () => {
    // One slot, five requests, each answered after 150 ms: the last waits ~600 ms for its turn, longer
    // than the 400 ms deadline, yet its own request is well within it.
    const server = await hostile((_request, response) => {
      setTimeout(() => response.end(feed), 150);
    });
    const f = fetcher({ perHostConcurrency: 1, totalTimeoutMs: 400 });
    const outcomes = await Promise.all(
      Array.from({ length: 5 }, (_, i) => f.fetch({ url: `${server.at('feeds.test')}/feed/${i}` })),
    );
    expect(outcomes.map((o) => o.kind)).toEqual(['ok', 'ok', 'ok', 'ok', 'ok']);
    expect(Math.max(...outcomes.map((o) => o.durationMs))).toBeGreaterThan(600);
  });

  it('bounds a DNS lookup that never answers by the total timeout', async () => {
    const hanging = () => new Promise<never>(() => undefined);
    const outcome = await fetcher({ lookup: hanging, totalTimeoutMs: 300 }).fetch({
      url: 'http://feeds.test/feed',
    });
    expect(outcome).toMatchObject({
      kind: 'failed',
      status: null,
      reason: 'timed out after 300 ms while resolving the host',
    });
  });
});
