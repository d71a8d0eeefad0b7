import { afterEach, describe, expect, it } from 'vitest';
import { gzipSync } from 'node:zlib';
import { FeedParseError } from './errors.ts';
import { parseFeed } from './parse-feed.ts';
import { FeedParsePool, parserFor, type FeedParsePoolOptions } from './parse-pool.ts';
import { readRealFeed, reasonOf, utf8 } from './testdata/read.ts';
import type { ParsedFeed } from './types.ts';

const misbehaving = new URL('./parse-pool.test-worker.ts', import.meta.url);
const pools: FeedParsePool[] = [];
function pool(options: Partial<FeedParsePoolOptions> = {}): FeedParsePool {
  const created = new FeedParsePool({ size: 1, timeoutMs: 30_000, ...options });
  pools.push(created);
  return created;
}
afterEach(async () => {
  await Promise.all(pools.splice(0).map((p) => p.close()));
});

const podcast = readRealFeed('giantbomb-podcast.rss'); // 1.6 MB, 730 items
const small = utf8(
  '<rss version="2.0"><channel><title>T</title><item><title>A</title><link>http://x/a</link></item></channel></rss>',
);

// A worker's first parse includes loading tsx and the parser in the new thread (about a second here).
const startup = 20_000;

describe('FeedParsePool', () => {
  it(
    'parses a real TypeScript parser in a worker, to the same feed as on this thread',
    async () => {
      const parsed = await pool().parse(podcast, 'application/rss+xml');
      expect(parsed).toEqual(parseFeed(podcast, 'application/rss+xml'));
      expect(parsed.items).toHaveLength(730);
      expect(parsed.items[0]!.published).toBeInstanceOf(Date);
    },
    startup,
  );

  it(
    'keeps the event loop turning while a large feed parses',
    async () => {
      const p = pool();
      await p.parse(small, null); // the worker is up
      let ticks = 0;
      const ticker = setInterval(() => ticks++, 5);
      try {
        const parsing = p.parse(podcast, null).then(() => ticks);
        // Parsing 1.6 MB takes well over 5 ms anywhere, so timers ran during it unless the thread was blocked.
        expect(await parsing).toBeGreaterThan(0);
      } finally {
        clearInterval(ticker);
      }
    },
    startup,
  );

  it(
    'rejects with a FeedParseError carrying the same reason as parseFeed',
    async () => {
      const notAFeed = utf8('<html><body>Not found</body></html>');
      const error = await pool()
        .parse(notAFeed, 'text/html')
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(FeedParseError);
      expect((error as FeedParseError).reason).toBe(reasonOf(() => parseFeed(notAFeed, 'text/html')));
      expect((error as FeedParseError).message).toBe((error as FeedParseError).reason);
    },
    startup,
  );

  it(
    'rethrows an unexpected error of the parse as that error, not as a feed problem',
    async () => {
      const error = await pool({ workerEntry: misbehaving })
        .parse(small, 'test/bug')
        .catch((e: unknown) => e);
      expect(error).not.toBeInstanceOf(FeedParseError);
      expect(error).toMatchObject({ name: 'TypeError', message: 'a parser bug' });
    },
    startup,
  );

  it(
    'stops a parse that runs past its time, fails it with the reason and replaces the worker',
    async () => {
      const lost: string[] = [];
      const p = pool({ workerEntry: misbehaving, timeoutMs: 2_000, onWorkerLost: (r) => lost.push(r) });
      await p.parse(small, null); // a new worker's start is not part of the time limit (see below)
      const error = await p.parse(small, 'test/hang').catch((e: unknown) => e);
      expect(error).toBeInstanceOf(FeedParseError);
      expect((error as FeedParseError).reason).toBe('parsing took longer than 2000 ms and was stopped');
      expect(lost).toEqual(['parsing took longer than 2000 ms and was stopped']);
      expect(p.workers).toBe(0);
      // The next parse gets a new worker.
      expect((await p.parse(small, null)).items).toHaveLength(1);
    },
    startup * 2,
  );

  it(
    "counts a parse's time from when its worker is ready, not from its start",
    async () => {
      // The worker takes 3 s longer to start than the parse may take: a clock started at the hand-off
      // would stop the parse before the worker has even loaded. Starting slower only widens the margin.
      const slowStart = new URL('./parse-pool.test-worker.ts?start=3000', import.meta.url);
      const lost: string[] = [];
      const p = pool({ workerEntry: slowStart, timeoutMs: 1_000, onWorkerLost: (r) => lost.push(r) });
      expect((await p.parse(small, null)).items).toHaveLength(1);
      expect(lost).toEqual([]);
      // The clock still runs once the worker is up.
      const error = await p.parse(small, 'test/hang').catch((e: unknown) => e);
      expect((error as FeedParseError).reason).toBe('parsing took longer than 1000 ms and was stopped');
    },
    startup * 2,
  );

  it(
    'stops a worker that does not start within its own bound, failing its parse',
    async () => {
      const neverStarts = new URL('./parse-pool.test-worker.ts?start=never', import.meta.url);
      const lost: string[] = [];
      const p = pool({ workerEntry: neverStarts, startTimeoutMs: 1_000, onWorkerLost: (r) => lost.push(r) });
      const error = await p.parse(small, null).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(FeedParseError);
      expect((error as FeedParseError).reason).toBe(
        'the parser did not start within 1000 ms and was stopped',
      );
      expect(lost).toEqual(['the parser did not start within 1000 ms and was stopped']);
      expect(p.workers).toBe(0);
    },
    startup,
  );

  it(
    'fails the parse of a worker that runs out of memory, and carries on with a new one',
    async () => {
      const lost: string[] = [];
      const p = pool({ workerEntry: misbehaving, maxHeapMb: 32, onWorkerLost: (r) => lost.push(r) });
      const error = await p.parse(small, 'test/out-of-memory').catch((e: unknown) => e);
      expect(error).toBeInstanceOf(FeedParseError);
      expect((error as FeedParseError).reason).toMatch(/^the parser failed: .*memory/);
      expect(lost).toHaveLength(1);
      expect((await p.parse(small, null)).items).toHaveLength(1);
    },
    startup * 2,
  );

  it(
    'fails the parse of a worker that exits',
    async () => {
      const p = pool({ workerEntry: misbehaving });
      const error = await p.parse(small, 'test/exit').catch((e: unknown) => e);
      expect(error).toBeInstanceOf(FeedParseError);
      expect((error as FeedParseError).reason).toBe('the parser stopped unexpectedly (exit code 3)');
      expect((await p.parse(small, null)).items).toHaveLength(1);
    },
    startup * 2,
  );

  it(
    'runs at most `size` workers, queueing the other parses',
    async () => {
      const p = pool({ size: 2 });
      let most = 0;
      const parses = Array.from({ length: 6 }, () =>
        p.parse(small, null).then((feed) => {
          most = Math.max(most, p.workers);
          return feed;
        }),
      );
      most = Math.max(most, p.workers);
      expect(await Promise.all(parses)).toHaveLength(6);
      expect(most).toBe(2);
    },
    startup,
  );

  it(
    'fails what is queued or running when closed',
    async () => {
      const p = pool();
      const parsing = p.parse(podcast, null).catch((e: unknown) => e);
      await p.close();
      expect(await parsing).toMatchObject({ message: 'the feed parse pool is closed' });
      await expect(p.parse(small, null)).rejects.toThrow('the feed parse pool is closed');
    },
    startup,
  );
});

describe('parserFor', () => {
  it(
    'parses small bodies on this thread and large ones on the pool',
    async () => {
      const p = pool();
      const parse = parserFor({ pool: p, offThreadBytes: 1024 });
      const here = parse(small, null);
      expect(here).not.toBeInstanceOf(Promise);
      expect(p.workers).toBe(0);
      const there = parse(podcast, null);
      expect(there).toBeInstanceOf(Promise);
      expect((await there).items).toHaveLength(730);
      expect(p.workers).toBe(1);
    },
    startup,
  );

  it(
    'parses a gzip-compressed body on the pool however small: its decompressed size is unknown',
    async () => {
      const p = pool();
      const parse = parserFor({ pool: p, offThreadBytes: 1024 * 1024 });
      const there = parse(gzipSync(small), null);
      expect(there).toBeInstanceOf(Promise);
      expect((await there).items.length).toBe((parse(small, null) as ParsedFeed).items.length);
      expect(p.workers).toBe(1);
    },
    startup,
  );

  it('parses everything on this thread without a pool', () => {
    const parse = parserFor({ pool: null, offThreadBytes: 0 });
    expect(parse(podcast, null)).not.toBeInstanceOf(Promise);
  });
});
