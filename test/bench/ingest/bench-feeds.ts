// The feeds bench:ingest serves, in one place, so that the parse-only baseline (parse-baseline.ts) parses
// exactly the bodies the poller fetches: the same items, the same host in the links, the same bytes.
import { readCorpus, rssFeed, type CorpusArticle } from '../../../services/demo/corpus.ts';

const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** Content-Type the server sends with every feed (and the baseline passes to the parser). */
export const benchFeedContentType = 'application/rss+xml; charset=utf-8';

export interface BenchFeeds {
  /** Small feed `n` as served from `host` (host:port, as in the request's Host header). */
  feed(n: number, host: string): string;
  /** Full-text feed `k` of about 1.6 MB as served from `host`. */
  largeFeed(k: number, host: string): string;
}

/** `items`: items per small feed (BENCH_ITEMS). */
export function benchFeeds(items: number, corpus: readonly CorpusArticle[] = readCorpus()): BenchFeeds {
  return {
    feed(n, host) {
      const parts: string[] = [];
      for (let i = 0; i < items; i++) {
        const a = corpus[(n * 7 + i) % corpus.length]!;
        const link = `http://${host}/articles/${n}/${i}`;
        parts.push(
          `<item><guid>${link}</guid><link>${link}</link><title>${escape(a.title)}</title>` +
            `<description>${escape(a.paragraphs[0] ?? '')}</description><category>${a.category}</category>` +
            `<pubDate>${new Date(Date.UTC(2005, 2, 1) - (n * 20 + i) * 60_000).toUTCString()}</pubDate></item>`,
        );
      }
      return `<?xml version="1.0" encoding="UTF-8"?><rss version="2.0"><channel><title>Bench feed ${n}</title><link>http://${host}/</link><language>en</language>${parts.join('')}</channel></rss>`;
    },
    /**
     * A full-text feed of 1.6 MB (the size of the largest real feed in the parser's snapshots): the
     * corpus's articles over and over, each with its whole text in content:encoded, as a publisher's
     * archive feed carries them. Item links differ per feed `k`, so every large feed's articles are new.
     */
    largeFeed(k, host) {
      const base = `http://${host}/large/${k}`;
      const build = (count: number) =>
        rssFeed(
          Array.from({ length: count }, (_, i) => corpus[i % corpus.length]!),
          { baseUrl: base, title: `Bench archive ${k}`, itemUrl: (_a, i) => `${base}/${i}` },
        );
      const perItem = build(100).length / 100;
      return build(Math.ceil(largeFeedBytes / perItem));
    },
  };
}

const largeFeedBytes = 1_600_000;
