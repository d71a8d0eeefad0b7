// The demo's feed server on loopback, standing in for the publishers the
// offline machine cannot reach:
//   /real/<file>                      the real feed snapshots, as published
//   /live/<category>.<rss|atom|json>  the latest BBC corpus releases of a category (grows over time)
//   /live/all.<rss|atom|json>         the latest releases of every category (not registered: for trying POST /v1/sources)
//   /articles/<edition>/<category>/<nnn>  the page an article's link points to
//   /inbox/<name>                     a webhook receiver: POST keeps an event, GET shows the latest
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  articleHtml,
  corpusFeed,
  escapeXml,
  feedContentTypes,
  isFeedFormat,
  type CorpusArticle,
  type FeedFormat,
} from './corpus.ts';
import type { CorpusRelease, ReleasedArticle } from './corpus-release.ts';
import { sendFeed, type RealFeed } from './feed-responses.ts';
import { WebhookInbox } from './webhook-inbox.ts';

export interface LocalFeedServer {
  url: string;
  close(): Promise<void>;
}

export interface LocalFeedServerOptions {
  release: CorpusRelease;
  realFeeds: ReadonlyMap<string, RealFeed>;
  /** How many of the latest releases a live feed holds. */
  window: number;
  host?: string;
  /** 0 picks a free port. */
  port?: number;
}

const articlePage = (article: CorpusArticle) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeXml(article.title)}</title></head>` +
  `<body><article><h1>${escapeXml(article.title)}</h1>\n${articleHtml(article)}</article></body></html>`;

export async function startLocalFeedServer(options: LocalFeedServerOptions): Promise<LocalFeedServer> {
  const { release, realFeeds, window } = options;
  const inbox = new WebhookInbox();
  let url = '';

  const liveFeed = (released: ReleasedArticle[], format: FeedFormat, title: string) =>
    corpusFeed(
      format,
      released.map((r) => r.article),
      {
        baseUrl: `${url}/articles`,
        title,
        publishedAt: (i) => released[i]!.publishedAt,
        itemUrl: (_, i) => `${url}/articles/${released[i]!.path}`,
      },
    );

  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    const [, area = '', ...rest] = path.split('/');
    const name = rest.join('/');

    if (area === 'inbox') return inbox.handle(req, res, name);

    const real = area === 'real' ? realFeeds.get(name) : undefined;
    if (real) return sendFeed(req, res, real.body, real.contentType);

    const live = area === 'live' ? /^([a-z]+)\.([a-z]+)$/.exec(name) : null;
    if (live && isFeedFormat(live[2]!)) {
      const [, category = '', format] = live;
      if (category === 'all') {
        const body = liveFeed(release.latest(window), format, 'BBC News (demo, every category)');
        return sendFeed(req, res, body, feedContentTypes[format]);
      }
      if (release.categories.includes(category)) {
        const body = liveFeed(release.latest(window, category), format, `BBC ${category} (demo)`);
        return sendFeed(req, res, body, feedContentTypes[format]);
      }
    }

    const article = area === 'articles' ? release.articleAt(name) : undefined;
    if (article) return sendFeed(req, res, articlePage(article), 'text/html; charset=utf-8');

    if (path === '/') {
      const feeds = [
        ...release.categories.map((c) => `${url}/live/${c}.rss`),
        `${url}/live/all.json`,
        ...[...realFeeds.keys()].map((n) => `${url}/real/${n}`),
      ];
      return sendFeed(req, res, `${feeds.join('\n')}\n`, 'text/plain; charset=utf-8');
    }
    res.writeHead(404, { 'content-type': 'text/plain' });
    res.end('not found');
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  url = `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}`;
  return {
    url,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
