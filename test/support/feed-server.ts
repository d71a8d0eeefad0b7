// A local feed server for tests and benchmarks: the real snapshots in
// services/feeds/parser/testdata/real, feeds built from the BBC corpus, a feed the test can
// change, redirects the test sets, and hostile endpoints. ETags are honoured (304 on a match).
// (The demo's own server, services/demo/local-feed-server.ts, shares the pieces.)
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  corpusFeed,
  feedContentTypes,
  isFeedFormat,
  readCorpus,
  type CorpusArticle,
} from '../../services/demo/corpus.ts';
import { readRealFeeds, sendFeed } from '../../services/demo/feed-responses.ts';

export interface FeedServer {
  url: string;
  /** Replace what /mutable.xml serves. */
  setMutable(body: string): void;
  /** Serve `body` at /feeds/<name>.xml (until replaced). */
  setFeed(name: string, body: string): void;
  /** Serve `html` at /pages/<name> as a web page (text/html). */
  setPage(name: string, html: string): void;
  /** Answer `path` with a redirect of `status` to `location` (sent as given), before anything else. */
  setRedirect(path: string, status: number, location: string): void;
  /** Requests seen per path. */
  hits: Map<string, number>;
  close(): Promise<void>;
}

export const hostileFeeds = {
  billionLaughs: `<?xml version="1.0"?>
<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
<!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;"><!ENTITY lol4 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">
<!ENTITY lol9 "&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;">]>
<rss version="2.0"><channel><title>&lol9;</title><item><title>&lol9;</title><link>http://x.example/1</link></item></channel></rss>`,
  externalEntity: `<?xml version="1.0"?>
<!DOCTYPE rss [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>
<rss version="2.0"><channel><title>x</title><item><title>&xxe;</title><link>http://x.example/1</link></item></channel></rss>`,
  htmlPage: '<!doctype html><html><head><title>Not a feed</title></head><body><p>Hello</p></body></html>',
};

export async function startFeedServer(
  options: {
    corpus?: CorpusArticle[];
    /**
     * Serve only requests with this User-Agent (the test's own poller and API); others get 403 and are
     * not counted. Pollers of other runs on a shared stack poll every source there is: this keeps them
     * from reading, or counting as hits, what a test watches.
     */
    userAgent?: string;
  } = {},
): Promise<FeedServer> {
  const corpus = options.corpus ?? readCorpus();
  let mutable = '';
  const named = new Map<string, string>();
  const pages = new Map<string, string>();
  const redirects = new Map<string, { status: number; location: string }>();
  const startedAt = Date.now();
  const hits = new Map<string, number>();
  const realFeeds = readRealFeeds();
  let baseUrl = '';

  const server: Server = createServer((req, res) => {
    if (options.userAgent !== undefined && req.headers['user-agent'] !== options.userAgent) {
      res.writeHead(403, { 'content-type': 'text/plain' });
      return res.end('not for you');
    }
    const url = new URL(req.url ?? '/', baseUrl);
    hits.set(url.pathname, (hits.get(url.pathname) ?? 0) + 1);
    const redirect = redirects.get(url.pathname);
    if (redirect) {
      res.writeHead(redirect.status, { location: redirect.location });
      return res.end();
    }
    const [, area, name = ''] = url.pathname.split('/');
    const real = area === 'real' ? realFeeds.get(name) : undefined;
    if (real) return sendFeed(req, res, real.body, real.contentType);
    const own = area === 'feeds' ? named.get(name.replace(/\.xml$/, '')) : undefined;
    if (own !== undefined) return sendFeed(req, res, own, 'application/rss+xml');
    const page = area === 'pages' ? pages.get(name) : undefined;
    if (page !== undefined) return sendFeed(req, res, page, 'text/html; charset=utf-8');
    if (area === 'corpus') {
      // /corpus/<category>.<json|atom|rss>?count=N
      const [category, format = ''] = name.split('.');
      const count = Number(url.searchParams.get('count') ?? 20);
      const articles = corpus.filter((a) => a.category === category).slice(0, count);
      // ?published=recent dates the items an hour apart back from the server's start instead of in 2005.
      const feedOptions = {
        baseUrl: `${baseUrl}/articles`,
        title: `BBC ${category}`,
        ...(url.searchParams.get('published') === 'recent'
          ? { publishedAt: (i: number) => new Date(startedAt - (i + 1) * 3_600_000) }
          : {}),
      };
      if (isFeedFormat(format)) {
        return sendFeed(req, res, corpusFeed(format, articles, feedOptions), feedContentTypes[format]);
      }
    }
    switch (url.pathname) {
      case '/mutable.xml':
        return sendFeed(req, res, mutable, 'application/rss+xml');
      case '/hostile/billion-laughs.xml':
        return sendFeed(req, res, hostileFeeds.billionLaughs, 'application/rss+xml');
      case '/hostile/external-entity.xml':
        return sendFeed(req, res, hostileFeeds.externalEntity, 'application/rss+xml');
      case '/hostile/html-page':
        return sendFeed(req, res, hostileFeeds.htmlPage, 'text/html');
      case '/hostile/garbage.xml':
        return sendFeed(req, res, randomBytes(64 * 1024), 'application/rss+xml');
      case '/hostile/redirect-loop':
        res.writeHead(302, { location: '/hostile/redirect-loop' });
        return res.end();
      case '/hostile/huge.xml': {
        // 100 MB, streamed (never held in memory), stopped as soon as the client goes away.
        res.writeHead(200, { 'content-type': 'application/rss+xml', 'content-length': 100 * 1024 * 1024 });
        const chunk = Buffer.alloc(64 * 1024, 'a');
        let sent = 0;
        const pump = () => {
          while (sent < 100 * 1024 * 1024 && !res.destroyed) {
            sent += chunk.length;
            if (!res.write(chunk)) return void res.once('drain', pump);
          }
          res.end();
        };
        return pump();
      }
      case '/hostile/slow.xml': {
        // One byte a second, forever (until the client gives up).
        res.writeHead(200, { 'content-type': 'application/rss+xml' });
        const timer = setInterval(() => res.write('<'), 1000);
        res.on('close', () => clearInterval(timer));
        return;
      }
    }
    res.writeHead(404, { 'content-type': 'text/plain' });
    res.end('not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: baseUrl,
    setMutable: (body) => (mutable = body),
    setFeed: (name, body) => void named.set(name, body),
    setPage: (name, html) => void pages.set(name, html),
    setRedirect: (path, status, location) => void redirects.set(path, { status, location }),
    hits,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
