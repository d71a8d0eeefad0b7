import { createHash } from 'node:crypto';
// The outcome rules of one poll, with fakes for Kafka and Redis (the
// integration suite runs the same code against the real ones): first
// sightings, revisions of changed items, the bound on revisions, and the pace
// the source is given (poll-interval.ts pins the rule itself).
import { describe, expect, it } from 'vitest';
import type { ArticleDiscovered, FeedPoll } from '../runtime/events/types.generated.ts';
import type { EventProducer } from '../runtime/kafka/producer.ts';
import { createLogger } from '../runtime/logger.ts';
import { movedSource, sourceState } from '../sources/source.ts';
import type { MoveResult } from '../sources/source-registry.ts';
import type { FetchOutcome } from '../feeds/fetcher/feed-fetcher.ts';
import { noResponseHints } from '../feeds/fetcher/response-hints.ts';
import { FeedParseError } from '../feeds/parser/errors.ts';
import { normaliseFeed } from '../feeds/normalise/normalise-item.ts';
import { articleId } from '../feeds/normalise/article-id.ts';
import { parseFeed } from '../feeds/parser/parse-feed.ts';
import { FeedParsePool, parserFor } from '../feeds/parser/parse-pool.ts';
import { readRealFeed } from '../feeds/parser/testdata/read.ts';
import { defaultIntervalSettings } from './poll-interval.ts';
import { goneRetryMs, pollSource, type PollDependencies } from './poll-source.ts';
import type { PollState, PollStateStore } from './poll-state.ts';
import type { RevisionBound } from './revision-bound.ts';
import { memorySeen } from '../../test/support/memory-seen.ts';
import { decodeRecord } from './seen-articles.ts';

const source = sourceState(
  { name: 'S', feed_url: 'https://feeds.example/rss', category: 'general', language: 'en', country: 'gb' },
  null,
  0,
);

function harness(
  outcomes: FetchOutcome[],
  options: { revisions?: RevisionBound; values?: Map<string, string> } = {},
) {
  const sent: { topic: string; values: unknown[] }[] = [];
  let state: PollState = { etag: null, lastModified: null, consecutiveFailures: 0 };
  let now = Date.UTC(2026, 10, 20, 12);
  const memory = memorySeen(options.values);
  const deps: PollDependencies = {
    fetch: async () => outcomes.shift()!,
    parse: parseFeed,
    producer: {
      send: async (topic: string, events: { value: unknown }[]) =>
        void sent.push({ topic, values: events.map((e) => e.value) }),
    } as unknown as EventProducer,
    seen: memory.seen,
    revisions: options.revisions ?? { perDay: 6, minIntervalMs: 0 },
    state: {
      get: async () => state,
      set: async (_: string, next: PollState) => void (state = next),
    } as unknown as PollStateStore,
    logger: createLogger('test', 'silent'),
    clock: () => now,
    unhealthyAfter: 3,
    nextPollAt: (_s, failures) => 1_000 + 60_000 * 2 ** failures,
  };
  const polls = () =>
    sent.filter((s) => s.topic === 'news.feed-polls.v1').flatMap((s) => s.values as FeedPoll[]);
  const articles = () =>
    sent
      .filter((s) => s.topic === 'news.articles.discovered.v1')
      .flatMap((s) => s.values as ArticleDiscovered[]);
  /** Moves the poller's clock on. */
  const later = (ms: number) => void (now += ms);
  return {
    deps,
    sent,
    polls,
    articles,
    later,
    values: memory.values,
    aliases: memory.aliases,
    state: () => state,
  };
}

const failed: FetchOutcome = {
  kind: 'failed',
  status: 503,
  reason: 'HTTP 503 Service Unavailable',
  retryAfterMs: null,
  durationMs: 5,
};
const rss = (items: string) =>
  new TextEncoder().encode(
    `<rss version="2.0"><channel><title>T</title><link>https://feeds.example/</link>${items}</channel></rss>`,
  );
const ok = (body: Uint8Array, hints = noResponseHints): FetchOutcome => ({
  kind: 'ok',
  status: 200,
  body,
  contentType: 'text/plain',
  etag: '"v1"',
  lastModified: null,
  finalUrl: 'https://feeds.example/rss',
  redirectStatuses: [],
  durationMs: 5,
  hints,
});

describe('pollSource', () => {
  it('marks a source unhealthy after repeated failures, keeps scheduling it, and recovers on success', async () => {
    const { deps, polls } = harness([
      failed,
      failed,
      failed,
      ok(rss('<item><title>A</title><link>https://feeds.example/a</link></item>')),
    ]);
    for (let i = 0; i < 4; i++) await pollSource(source, deps);
    expect(polls().map((p) => [p.status, p.consecutive_failures, p.healthy])).toEqual([
      ['failed', 1, true],
      ['failed', 2, true],
      ['failed', 3, false],
      ['ok', 0, true],
    ]);
    expect(polls()[2]!.next_poll_at).toBe(1_000 + 60_000 * 8);
    expect(polls()[2]!.error_reason).toBe('HTTP 503 Service Unavailable');
  });

  it('asks for a feed answered 410 Gone once a day, saying why, where a 404 backs off as any failure', async () => {
    const answered = (status: number, reason: string, retryAfterMs: number | null = null): FetchOutcome => ({
      ...failed,
      status,
      reason,
      retryAfterMs,
    });
    const { deps, polls } = harness([
      answered(410, 'HTTP 410 Gone'),
      answered(404, 'HTTP 404 Not Found'),
      answered(410, 'HTTP 410 Gone', 3 * goneRetryMs),
    ]);
    const retryAfter: (number | null)[] = [];
    deps.nextPollAt = (_s, _failures, retryAfterMs) => (retryAfter.push(retryAfterMs), 0);
    for (let i = 0; i < 3; i++) await pollSource(source, deps);
    expect(retryAfter).toEqual([goneRetryMs, null, 3 * goneRetryMs]);
    expect(polls()[0]).toMatchObject({ status: 'failed', http_status: 410, consecutive_failures: 1 });
    expect(polls()[0]!.error_reason).toMatch(/^HTTP 410 Gone: .*removed for good.*once a day/);
    expect(polls()[1]!.error_reason).toBe('HTTP 404 Not Found');
    // Gone for good is unhealthy at once (polled once a day, it would take days to fail as often as the
    // others); a 404 after it, a failure like any, counts as the third in a row.
    expect(polls().map((p) => [p.http_status, p.consecutive_failures, p.healthy])).toEqual([
      [410, 1, false],
      [404, 2, true],
      [410, 3, false],
    ]);
  });

  it('keeps the first of two items with one guid and link, and says why the second was not', async () => {
    const listed = (title: string) =>
      `<item><guid>g7</guid><title>${title}</title><link>https://feeds.example/g7</link></item>`;
    const { deps, articles } = harness([
      ok(rss(listed('Budget passes') + listed('Budget passes') + listed('Budget fails'))),
    ]);
    const { poll } = await pollSource(source, deps);
    expect(articles().map((a) => a.title)).toEqual(['Budget passes']);
    expect(poll).toMatchObject({ items_seen: 3, new_items: 1, skipped_items: 1 });
    expect(poll.skipped_reasons).toEqual([
      'item "Budget fails" has the guid and link of "Budget passes" listed before it, with another text: only the first is kept',
    ]);
  });

  it('keeps the listing with text of an article listed twice, once without it (by its link and through a redirect)', async () => {
    const listed = (link: string, text: string) =>
      `<item><title>Match Eleitoral soma 500 mil testes</title><link>${link}</link><description>${text}</description></item>`;
    const direct = 'https://www1.folha.example/poder/match.shtml';
    const { deps, articles } = harness([
      ok(
        rss(
          listed(direct, '') +
            listed(
              `https://redir.folha.example/redir/online/poder/rss091/*${direct}`,
              'Já são mais de 500 mil testes.',
            ),
        ),
      ),
    ]);
    const { poll } = await pollSource(source, deps);
    expect(articles().map((a) => [a.url, a.summary])).toEqual([[direct, 'Já são mais de 500 mil testes.']]);
    expect(poll).toMatchObject({ items_seen: 2, new_items: 1, skipped_items: 1 });
    expect(poll.skipped_reasons[0]).toMatch(
      /is listed twice, once without its text: the listing with the text is kept$/,
    );
  });

  it('reads a feed served with the wrong content type (format comes from the content)', async () => {
    const { deps, sent } = harness([
      ok(rss('<item><title>A</title><link>https://feeds.example/a</link></item>')),
    ]);
    const { poll } = await pollSource(source, deps);
    expect(poll).toMatchObject({ status: 'ok', items_seen: 1, new_items: 1 });
    expect(sent.find((s) => s.topic === 'news.articles.discovered.v1')?.values).toHaveLength(1);
  });

  it('counts skipped items with a reason and emits the rest', async () => {
    const { deps } = harness([
      ok(
        rss(
          '<item><title>No link</title></item><item><title>B</title><link>https://feeds.example/b</link></item>',
        ),
      ),
    ]);
    const { poll } = await pollSource(source, deps);
    expect(poll).toMatchObject({ status: 'ok', items_seen: 2, new_items: 1, skipped_items: 1 });
    expect(poll.skipped_reasons).toEqual(['item "No link" has no usable link']);
  });

  it('bounds what a skipped item quotes: five reasons, each a line, whatever the feed holds', async () => {
    const long = 'Headline '.repeat(30_000);
    const items = Array.from({ length: 7 }, (_, i) => `<item><title>${i} ${long}</title></item>`).join('');
    const { deps } = harness([
      ok(rss(`${items}<item><title>Kept</title><link>https://feeds.example/k</link></item>`)),
    ]);
    const { poll } = await pollSource(source, deps);
    expect(poll).toMatchObject({ new_items: 1, skipped_items: 7 });
    expect(poll.skipped_reasons).toHaveLength(5);
    for (const reason of poll.skipped_reasons) {
      expect(reason.length).toBeLessThanOrEqual(300);
      expect(reason).toMatch(/^item "\d Headline Headline .*…" has no usable link$/);
    }
  });

  it("records the parser's warnings on an ok poll", async () => {
    const { deps } = harness([ok(rss('<item><title>A</title><link>https://feeds.example/a</link></item>'))]);
    const parse = deps.parse;
    deps.parse = async (body, contentType, options) => ({
      ...(await parse(body, contentType, options)),
      warnings: ['the declared charset "bogus" is unknown; read as UTF-8'],
    });
    const { poll } = await pollSource(source, deps);
    expect(poll).toMatchObject({
      status: 'ok',
      warnings: ['the declared charset "bogus" is unknown; read as UTF-8'],
    });
  });

  it('records an unparseable feed as failed and forgets the validators', async () => {
    const { deps } = harness([ok(new TextEncoder().encode('<html><body>nope</body></html>'))]);
    const { poll } = await pollSource(source, deps);
    expect(poll).toMatchObject({ status: 'failed', http_status: 200, etag: null });
    expect(poll.error_reason).toMatch(/^feed could not be parsed: not a feed: an HTML page/);
  });

  it('names the feeds a web page links to when the feed URL now answers with the page', async () => {
    const page =
      '<!doctype html><html><head><link rel="alternate" type="application/rss+xml" href="/news/rss.xml">' +
      '<link rel="alternate" type="application/atom+xml" href="https://feeds.example/atom"></head></html>';
    const { deps } = harness([ok(new TextEncoder().encode(page))]);
    const { poll } = await pollSource(source, deps);
    expect(poll).toMatchObject({ status: 'failed' });
    expect(poll.error_reason).toBe(
      'feed could not be parsed: not a feed: an HTML page that names feeds: ' +
        'https://feeds.example/news/rss.xml, https://feeds.example/atom',
    );
  });

  it('records a parse that failed off the event loop (stopped for its time) as failed, with the reason', async () => {
    const { deps } = harness([ok(rss('<item><title>A</title><link>https://feeds.example/a</link></item>'))]);
    deps.parse = async () => {
      throw new FeedParseError('parsing took longer than 15000 ms and was stopped');
    };
    const { poll } = await pollSource(source, deps);
    expect(poll).toMatchObject({ status: 'failed', http_status: 200, etag: null });
    expect(poll.error_reason).toBe(
      'feed could not be parsed: parsing took longer than 15000 ms and was stopped',
    );
  });

  it('polls a large feed parsed on a worker thread like any other', async () => {
    const pool = new FeedParsePool({ size: 1, timeoutMs: 30_000 });
    try {
      const body = readRealFeed('giantbomb-podcast.rss');
      const { deps, articles } = harness([ok(body)]);
      deps.parse = parserFor({ pool, offThreadBytes: 128 * 1024 });
      const { poll } = await pollSource(source, deps);
      expect(poll).toMatchObject({ status: 'ok', items_seen: 730 });
      expect(pool.workers).toBe(1);
      // Normalised a slice at a time, to the same articles as in one go.
      const whole = normaliseFeed(parseFeed(body, null, { baseUrl: 'https://feeds.example/rss' }), source, 0);
      expect(articles().map((a) => a.article_id)).toEqual(
        whole.flatMap((n) => ('article' in n ? [n.article.article_id] : [])),
      );
    } finally {
      await pool.close();
    }
  }, 20_000);

  it('tells apart items of a long feed that share a guid across its slices', async () => {
    // 150 items in English (normalised 100 at a time); the CMS gives the first and the last guid "1".
    const items = Array.from({ length: 150 }, (_, i) => {
      const guid = i === 0 || i === 149 ? '1' : `g-${i}`;
      return `<item><title>Story ${i}</title><link>https://feeds.example/s/${i}</link><guid>${guid}</guid></item>`;
    }).join('');
    const body = new TextEncoder().encode(
      `<rss version="2.0"><channel><title>T</title><language>en</language><link>https://feeds.example/</link>${items}</channel></rss>`,
    );
    const { deps, articles } = harness([ok(body)]);
    await pollSource(source, deps);
    const ids = articles().map((a) => a.article_id);
    expect(new Set(ids).size).toBe(150);
    expect(ids[0]).toBe(articleId(source.source_id, null, 'https://feeds.example/s/0'));
    expect(ids[149]).toBe(articleId(source.source_id, null, 'https://feeds.example/s/149'));
  });

  it('emits nothing for items already seen', async () => {
    const body = rss('<item><guid>g1</guid><title>A</title><link>https://feeds.example/a</link></item>');
    const { deps, sent } = harness([ok(body), ok(body)]);
    await pollSource(source, deps);
    const second = await pollSource(source, deps);
    expect(second.poll).toMatchObject({ status: 'ok', items_seen: 1, new_items: 0 });
    expect(sent.filter((s) => s.topic === 'news.articles.discovered.v1')).toHaveLength(1);
  });
});

describe('pollSource, when a feed gives its items new guids at every fetch', () => {
  const item = (
    guid: string,
    title = 'Minister resigns',
    link = 'https://feeds.example/a',
    text = 'Monday.',
    date = 'Mon, 16 Nov 2026 09:00:00 GMT',
  ) =>
    `<item><guid isPermaLink="false">${guid}</guid><title>${title}</title><link>${link}</link>` +
    `<description>${text}</description><pubDate>${date}</pubDate></item>`;

  it('keeps one article per page and title, however its guid changes', async () => {
    const { deps, articles, polls } = harness([
      ok(rss(item('a-1701') + item('b-1701', 'Budget passes', 'https://feeds.example/b'))),
      ok(rss(item('a-1702') + item('b-1702', 'Budget passes', 'https://feeds.example/b'))),
      ok(rss(item('a-1703') + item('b-1703', 'Budget passes', 'https://feeds.example/b'))),
    ]);
    for (let i = 0; i < 3; i++) await pollSource(source, deps);
    expect(articles().map((a) => a.title)).toEqual(['Minister resigns', 'Budget passes']);
    expect(polls().map((p) => p.new_items)).toEqual([2, 0, 0]);
  });

  it('keeps one article per item when its site moves to https, permalink guids and links alike', async () => {
    const permalink = (scheme: string, host: string, slug: string, title: string) =>
      `<item><guid>${scheme}://${host}/${slug}</guid><title>${title}</title>` +
      `<description>Monday.</description><pubDate>Mon, 16 Nov 2026 09:00:00 GMT</pubDate></item>`;
    const linkOnly = (scheme: string, host: string) =>
      `<item><title>Canals reopen</title><link>${scheme}://${host}/canals</link>` +
      `<description>Monday.</description><pubDate>Mon, 16 Nov 2026 09:00:00 GMT</pubDate></item>`;
    const { deps, articles, polls } = harness([
      ok(
        rss(
          permalink('http', 'feeds.example', 'harbours', 'Harbours close') +
            linkOnly('http', 'feeds.example'),
        ),
      ),
      ok(
        rss(
          permalink('https', 'www.feeds.example', 'harbours', 'Harbours close') +
            linkOnly('https', 'www.feeds.example'),
        ),
      ),
    ]);
    await pollSource(source, deps);
    await pollSource(source, deps);
    expect(articles().map((a) => a.title)).toEqual(['Harbours close', 'Canals reopen']);
    expect(polls().map((p) => [p.new_items, p.updated_items])).toEqual([
      [2, 0],
      [0, 0],
    ]);
  });

  it('keeps one article for an item listed twice in one poll under two guids, the same link and text', async () => {
    const { deps, articles, polls } = harness([
      ok(
        rss(
          item('t-1') + item('t-2') + item('t-3', 'Minister resigns', 'https://feeds.example/a', 'Tuesday.'),
        ),
      ),
    ]);
    await pollSource(source, deps);
    expect(articles().map((a) => [a.guid, a.summary])).toEqual([
      ['t-1', 'Monday.'],
      ['t-3', 'Tuesday.'],
    ]);
    expect(polls()[0]!.skipped_reasons).toEqual([
      'item "Minister resigns" is listed twice, under the guids "t-1" and "t-2" with the same link and text: only the first is kept',
    ]);
  });

  it("makes a changed item under a new guid its article's next revision", async () => {
    const { deps, articles } = harness([
      ok(rss(item('a-1701'))),
      ok(rss(item('a-1702', 'Minister resigns', 'https://feeds.example/a', 'Monday, at noon.'))),
    ]);
    await pollSource(source, deps);
    await pollSource(source, deps);
    const [first, second] = articles();
    expect(second).toMatchObject({
      article_id: first!.article_id,
      revision: 2,
      changed_fields: ['summary'],
      guid: 'a-1702',
    });
  });

  it('keeps items apart that share a page but not a title (a live page), and new pages new', async () => {
    const live = 'https://feeds.example/live';
    const { deps, articles } = harness([
      ok(rss(item('p1', 'First update', live))),
      ok(rss(item('p2', 'Second update', live) + item('p1', 'First update', live))),
      ok(rss(item('c1', 'Another story', 'https://feeds.example/c'))),
    ]);
    for (let i = 0; i < 3; i++) await pollSource(source, deps);
    expect(articles().map((a) => [a.title, a.revision])).toEqual([
      ['First update', 1],
      ['Second update', 1],
      ['Another story', 1],
    ]);
  });

  it("keeps a daily column apart: the same page and title, another day's date and text", async () => {
    const column = (guid: string, text: string, day: number) =>
      item(guid, 'Our view', 'https://feeds.example/opinion', text, `Tue, ${day} Nov 2026 06:00:00 GMT`);
    const { deps, articles } = harness([
      ok(rss(column('col-17', 'On taxes.', 17))),
      ok(rss(column('col-18', 'On schools.', 18))),
    ]);
    await pollSource(source, deps);
    await pollSource(source, deps);
    expect(articles().map((a) => [a.summary, a.revision])).toEqual([
      ['On taxes.', 1],
      ['On schools.', 1],
    ]);
    expect(new Set(articles().map((a) => a.article_id)).size).toBe(2);
  });

  it('keeps apart items that one document lists on one page under one title with guids of their own', async () => {
    const brief = (guid: string, text: string) => item(guid, 'In brief', 'https://feeds.example/', text);
    const { deps, articles } = harness([
      ok(rss(brief('n1', 'One.') + brief('n2', 'Two.'))),
      ok(rss(brief('n3', 'Three.') + brief('n1', 'One.') + brief('n2', 'Two.'))),
    ]);
    await pollSource(source, deps);
    await pollSource(source, deps);
    expect(articles().map((a) => [a.summary, a.revision])).toEqual([
      ['One.', 1],
      ['Two.', 1],
      ['Three.', 1],
    ]);
  });

  it('keeps one article for an item without a guid whose link carries a timestamp that changes at every fetch', async () => {
    const stamped = (at: number, id = 48213) =>
      `<item><title>Minister resigns</title><link>https://feeds.example/story.php?id=${id}&amp;ts=${at}</link>` +
      '<description>Monday.</description></item>';
    const { deps, articles } = harness([
      ok(rss(stamped(1_764_000_000) + stamped(1_764_000_000, 48214))),
      ok(rss(stamped(1_764_000_300) + stamped(1_764_000_300, 48214))),
    ]);
    await pollSource(source, deps);
    const second = await pollSource(source, deps);
    // The article's own id in the link tells the two apart; the timestamp makes nothing new.
    expect(articles().map((a) => a.url)).toEqual([
      'https://feeds.example/story.php?id=48213&ts=1764000000',
      'https://feeds.example/story.php?id=48214&ts=1764000000',
    ]);
    expect(second.poll).toMatchObject({ new_items: 0 });
  });

  it('keeps the id an item without a guid was first emitted under when ids were made from its URL alone', async () => {
    const undated = '<item><title>Minister resigns</title><link>https://feeds.example/a</link></item>';
    const { deps, articles, values, aliases } = harness([ok(rss(undated)), ok(rss(undated))]);
    await pollSource(source, deps);
    const [emitted] = articles();
    // The memory as an earlier version left it: the same article under the id of its URL alone.
    const urlOnly = `art_${createHash('sha256').update('url\nhttps://feeds.example/a').digest('hex').slice(0, 32)}`;
    values.set(urlOnly, values.get(emitted!.article_id)!);
    values.delete(emitted!.article_id);
    for (const [alias, id] of aliases) if (id === emitted!.article_id) aliases.set(alias, urlOnly);
    const second = await pollSource(source, deps);
    expect(second.poll).toMatchObject({ new_items: 0, updated_items: 0 });
    expect(articles()).toHaveLength(1);
  });

  it('takes an item listed under both its old and its new guid as the one article', async () => {
    const { deps, articles } = harness([ok(rss(item('a-1701'))), ok(rss(item('a-1702') + item('a-1701')))]);
    await pollSource(source, deps);
    const second = await pollSource(source, deps);
    expect(articles()).toHaveLength(1);
    expect(second.poll).toMatchObject({ new_items: 0 });
  });
});

describe('pollSource, when an item it emitted changes', () => {
  const item = (fields: { title?: string; description?: string; link?: string; date?: string | null }) =>
    `<item><guid>g1</guid><title>${fields.title ?? 'Minister resigns'}</title>` +
    `<link>${fields.link ?? 'https://feeds.example/a'}</link>` +
    `<description>${fields.description ?? 'The minister resigned on Monday.'}</description>` +
    (fields.date === null ? '' : `<pubDate>${fields.date ?? 'Mon, 16 Nov 2026 09:00:00 GMT'}</pubDate>`) +
    '</item>';
  const feed = (...fields: Parameters<typeof item>[0][]) => ok(rss(fields.map(item).join('')));

  it('appends a corrected headline as revision 2, naming what changed, and counts it as updated', async () => {
    const { deps, articles, polls, later } = harness([
      feed({}),
      feed({ title: 'Minister resigns over leak' }),
    ]);
    await pollSource(source, deps);
    later(60_000);
    await pollSource(source, deps);
    const [first, second] = articles();
    expect(first).toMatchObject({ revision: 1, changed_fields: [], first_published_at: null });
    expect(second).toMatchObject({
      article_id: first!.article_id,
      title: 'Minister resigns over leak',
      revision: 2,
      changed_fields: ['title'],
      first_published_at: first!.published_at,
      first_discovered_at: first!.discovered_at,
      discovered_at: first!.discovered_at + 60_000,
    });
    expect(polls()[1]).toMatchObject({ new_items: 0, updated_items: 1, skipped_items: 0 });
  });

  it('appends a link corrected under the same guid as a revision whose url is the new one', async () => {
    const { deps, articles, polls, later } = harness([
      feed({}),
      feed({ link: 'https://feeds.example/minister-resigns' }),
    ]);
    await pollSource(source, deps);
    later(60_000);
    await pollSource(source, deps);
    const [first, second] = articles();
    expect(second).toMatchObject({
      article_id: first!.article_id,
      url: 'https://feeds.example/minister-resigns',
      revision: 2,
      changed_fields: ['url'],
    });
    expect(polls()[1]).toMatchObject({ new_items: 0, updated_items: 1 });
  });

  it('ignores whitespace, markup and tracking parameters, and a date the feed never gave', async () => {
    const { deps, articles, later } = harness([
      feed({ date: null, description: 'Read https://news.example/story?id=7 now.' }),
      feed({
        date: null,
        title: '  Minister\n  resigns ',
        link: 'https://feeds.example/a?utm_source=rss&amp;utm_medium=feed',
        description:
          '&lt;p&gt;Read  https://news.example/story?id=7&amp;amp;utm_campaign=x   now.&lt;/p&gt;\n\n',
      }),
    ]);
    await pollSource(source, deps);
    later(60_000); // an undated item's published_at is the discovery time: it differs on every poll
    const second = await pollSource(source, deps);
    expect(articles()).toHaveLength(1);
    expect(second.poll).toMatchObject({ new_items: 0, updated_items: 0, skipped_items: 0 });
  });

  it("keeps revision 1's date for an undated item, and names a moved date", async () => {
    const { deps, articles, later } = harness([
      feed({ date: null }),
      feed({ date: null, description: 'The minister resigned on Monday night.' }),
      feed({ date: 'Tue, 17 Nov 2026 09:00:00 GMT', description: 'The minister resigned on Monday night.' }),
    ]);
    await pollSource(source, deps);
    later(60_000);
    await pollSource(source, deps);
    later(60_000);
    await pollSource(source, deps);
    const [first, second, third] = articles();
    expect(second).toMatchObject({
      revision: 2,
      changed_fields: ['summary'],
      published_at: first!.published_at,
    });
    expect(third).toMatchObject({
      revision: 3,
      changed_fields: ['published_at'],
      published_at: Date.parse('2026-11-17T09:00:00Z'),
      first_published_at: first!.published_at,
    });
  });

  it('takes a date clamped as in the future, once the clock catches up with it, as no change', async () => {
    // Found at 12:00 dated 15:00 (a publisher's clock three hours ahead): dated when found. The same
    // item at 13:30 and at 16:00, its date now within the tolerance and then past: nothing changed.
    const ahead = 'Fri, 20 Nov 2026 15:00:00 GMT';
    const { deps, articles, later } = harness([
      feed({ date: ahead }),
      feed({ date: ahead }),
      feed({ date: ahead }),
      feed({ date: ahead, title: 'Minister resigns over leak' }),
    ]);
    const first = await pollSource(source, deps);
    expect(articles()[0]).toMatchObject({
      published_at: Date.UTC(2026, 10, 20, 12),
      published_at_clamped: true,
    });
    expect(first.poll.new_items).toBe(1);
    later(90 * 60_000);
    expect((await pollSource(source, deps)).poll).toMatchObject({ new_items: 0, updated_items: 0 });
    later(150 * 60_000);
    expect((await pollSource(source, deps)).poll).toMatchObject({ new_items: 0, updated_items: 0 });
    expect(articles()).toHaveLength(1);
    // A real correction later is one, and names only what changed.
    later(60 * 60_000);
    await pollSource(source, deps);
    expect(articles()[1]).toMatchObject({ revision: 2, changed_fields: ['title'] });
  });

  it('holds back a revision within the minimum interval, with a reason, and emits the latest text after it', async () => {
    const { deps, articles, polls, later } = harness(
      [feed({}), feed({ title: 'Fix one' }), feed({ title: 'Fix two' }), feed({ title: 'Fix two' })],
      { revisions: { perDay: 6, minIntervalMs: 15 * 60_000 } },
    );
    await pollSource(source, deps);
    later(5 * 60_000);
    await pollSource(source, deps);
    later(5 * 60_000);
    await pollSource(source, deps);
    expect(articles()).toHaveLength(1);
    expect(polls()[1]).toMatchObject({ updated_items: 0, skipped_items: 1 });
    expect(polls()[1]!.skipped_reasons[0]).toMatch(
      /^update of "Fix one" held back: first seen 300 s ago \(POLLER_UPDATE_MIN_INTERVAL_SECONDS=900\)$/,
    );
    later(5 * 60_000);
    await pollSource(source, deps);
    // The changes made meanwhile arrive as one update, against the revision emitted last.
    expect(articles().map((a) => [a.revision, a.title, a.changed_fields])).toEqual([
      [1, 'Minister resigns', []],
      [2, 'Fix two', ['title']],
    ]);
  });

  it('emits an update held back after its item left the feed, at the first poll the bound allows', async () => {
    // A busy feed: corrected 5 minutes after it was first seen, and pushed out of the feed 5 minutes later.
    const other = ok(
      rss('<item><guid>g2</guid><title>Storm warning</title><link>https://feeds.example/b</link></item>'),
    );
    const { deps, articles, polls, later, state } = harness(
      [feed({}), feed({ title: 'Fix one' }), other, other, other, other],
      { revisions: { perDay: 6, minIntervalMs: 15 * 60_000 } },
    );
    const firstSeen = (await pollSource(source, deps)).articles[0]!;
    later(5 * 60_000);
    await pollSource(source, deps);
    expect(state().held?.map((h) => [h.article.title, h.notBefore])).toEqual([
      ['Fix one', firstSeen.discovered_at + 15 * 60_000],
    ]);
    later(5 * 60_000);
    await pollSource(source, deps);
    expect(articles().map((a) => a.title)).toEqual(['Minister resigns', 'Storm warning']);
    // Kept, and the feed asked for whole meanwhile (no validators): a 304 would not run the release.
    expect([state().held?.length, state().etag]).toEqual([1, null]);
    later(6 * 60_000);
    const released = await pollSource(source, deps);
    expect(articles().map((a) => [a.revision, a.title, a.changed_fields])).toEqual([
      [1, 'Minister resigns', []],
      [1, 'Storm warning', []],
      [2, 'Fix one', ['title']],
    ]);
    // As if this poll had read it: its time is the poll's, so the bound counts from it.
    expect(articles()[2]).toMatchObject({
      article_id: firstSeen.article_id,
      discovered_at: firstSeen.discovered_at + 16 * 60_000,
      first_discovered_at: firstSeen.discovered_at,
    });
    expect(released.poll.updated_items).toBe(1);
    expect([state().held ?? [], state().etag]).toEqual([[], '"v1"']);
    later(60 * 60_000);
    await pollSource(source, deps);
    expect(articles()).toHaveLength(3);
    expect(polls().map((p) => p.updated_items)).toEqual([0, 0, 0, 1, 0]);
  });

  it('forgets an update held back when the feed lists the item again as it was emitted', async () => {
    const { deps, articles, later, state } = harness(
      [feed({}), feed({ title: 'Fix one' }), feed({}), ok(rss(''))],
      { revisions: { perDay: 6, minIntervalMs: 15 * 60_000 } },
    );
    await pollSource(source, deps);
    later(60_000);
    await pollSource(source, deps);
    expect(state().held).toHaveLength(1);
    later(60_000);
    await pollSource(source, deps); // the correction undone
    expect(state().held).toEqual([]);
    later(30 * 60_000);
    await pollSource(source, deps); // and the item gone
    expect(articles().map((a) => a.revision)).toEqual([1]);
  });

  it('keeps updates held back through polls that read no feed (a failure, a 304)', async () => {
    const { deps, articles, later, state } = harness(
      [feed({}), feed({ title: 'Fix one' }), failed, ok(rss(''))],
      { revisions: { perDay: 6, minIntervalMs: 15 * 60_000 } },
    );
    await pollSource(source, deps);
    later(60_000);
    await pollSource(source, deps);
    later(60_000);
    await pollSource(source, deps);
    expect(state().held).toHaveLength(1);
    later(30 * 60_000);
    await pollSource(source, deps);
    expect(articles().map((a) => [a.revision, a.title])).toEqual([
      [1, 'Minister resigns'],
      [2, 'Fix one'],
    ]);
  });

  it('asks for the feed whole while an update is held back, so a server answering 304 cannot hide it', async () => {
    // A server that answers 304 to the validators of what it serves now, as real ones do.
    const versions = [feed({}), feed({ title: 'Fix one' })].map((outcome, i) => ({
      ...outcome,
      etag: `"v${i + 1}"`,
    })) as Extract<FetchOutcome, { kind: 'ok' }>[];
    let current = versions[0]!;
    const { deps, articles, polls, later, state } = harness([], {
      revisions: { perDay: 6, minIntervalMs: 15 * 60_000 },
    });
    const sentEtags: (string | null | undefined)[] = [];
    deps.fetch = async (request) => {
      sentEtags.push(request.etag);
      if (request.etag === current.etag) {
        return { ...current, kind: 'not_modified', status: 304 };
      }
      return current;
    };
    await pollSource(source, deps);
    current = versions[1]!; // corrected a minute after it was first seen
    later(60_000);
    await pollSource(source, deps);
    expect(polls()[1]!.skipped_reasons[0]).toMatch(/^update of "Fix one" held back: /);
    expect(state().etag).toBeNull();
    later(20 * 60_000);
    await pollSource(source, deps);
    later(60_000);
    await pollSource(source, deps);
    expect(sentEtags).toEqual([null, '"v1"', null, '"v2"']);
    expect(articles().map((a) => [a.revision, a.title])).toEqual([
      [1, 'Minister resigns'],
      [2, 'Fix one'],
    ]);
    expect(polls().map((p) => p.status)).toEqual(['ok', 'ok', 'ok', 'not_modified']);
  });

  it('gives an article at most perDay updates in a rolling day', async () => {
    const titles = ['A', 'B', 'C', 'D'];
    const { deps, articles, polls, later } = harness([feed({}), ...titles.map((title) => feed({ title }))], {
      revisions: { perDay: 2, minIntervalMs: 0 },
    });
    await pollSource(source, deps);
    for (let i = 0; i < titles.length; i++) {
      later(60 * 60_000);
      await pollSource(source, deps);
    }
    expect(articles().map((a) => a.revision)).toEqual([1, 2, 3]);
    expect(polls().map((p) => p.updated_items)).toEqual([0, 1, 1, 0, 0]);
    expect(polls()[3]!.skipped_reasons).toEqual([
      'update of "C" held back: 2 updates in the last 24 hours (POLLER_UPDATES_PER_DAY=2)',
    ]);
  });

  it('adopts a memory from before revisions (only "seen") without emitting, and revises from there', async () => {
    const values = new Map<string, string>();
    const { deps, articles, polls, later } = harness(
      [feed({ title: 'Now' }), feed({ title: 'Now' }), feed({ title: 'Later' })],
      { values },
    );
    // The first poll learns the id; then the memory is made to look like the old poller's.
    await pollSource(source, deps);
    const [articleId] = [...values.keys()];
    values.set(articleId!, 'seen');
    const before = articles().length;
    later(60_000);
    await pollSource(source, deps);
    expect(articles()).toHaveLength(before);
    expect(polls()[1]).toMatchObject({ new_items: 0, updated_items: 0 });
    expect(decodeRecord(values.get(articleId!)!)).toMatchObject({ revision: 1, firstPublishedAt: null });
    later(60_000);
    await pollSource(source, deps);
    expect(articles().at(-1)).toMatchObject({
      revision: 2,
      changed_fields: ['title'],
      title: 'Later',
      first_published_at: null,
    });
  });
});

describe('pollSource and its claims', () => {
  const twoItems = rss(
    '<item><title>A</title><link>https://feeds.example/a</link></item>' +
      '<item><title>B</title><link>https://feeds.example/b</link></item>',
  );

  it('claims the items it has never seen as it looks them up, and remembers them once they are in Kafka', async () => {
    const { deps, articles, values } = harness([ok(twoItems)]);
    await pollSource(source, deps);
    expect(articles().map((a) => a.title)).toEqual(['A', 'B']);
    expect([...values.values()].map((v) => decodeRecord(v)?.revision)).toEqual([1, 1]);
  });

  it('leaves an item another poll has claimed to that poll', async () => {
    const first = harness([ok(twoItems)]);
    await pollSource(source, first.deps);
    const idOfA = first.articles().find((a) => a.title === 'A')!.article_id;
    const { deps, articles, polls } = harness([ok(twoItems)], { values: new Map([[idOfA, 'claimed']]) });
    await pollSource(source, deps);
    expect(articles().map((a) => a.title)).toEqual(['B']);
    expect(polls()[0]!.new_items).toBe(1);
  });

  it('gives its claims back when producing fails, and when anything before it does', async () => {
    const producing = harness([ok(twoItems)]);
    producing.deps.producer = {
      send: async () => {
        throw new Error('Kafka is down');
      },
    };
    await expect(pollSource(source, producing.deps)).rejects.toThrow('Kafka is down');
    expect(producing.values.size).toBe(0);

    const adopting = harness([ok(twoItems)]);
    adopting.deps.seen.adopt = async () => {
      throw new Error('Redis is down');
    };
    await expect(pollSource(source, adopting.deps)).rejects.toThrow('Redis is down');
    expect(adopting.values.size).toBe(0);
    // The next poll finds them new again.
    const again = harness([ok(twoItems)], { values: adopting.values });
    await pollSource(source, again.deps);
    expect(again.articles().map((a) => a.title)).toEqual(['A', 'B']);
  });
});

describe('pollSource and the state it is given', () => {
  it('uses the state its caller read (as taking the lock does) instead of reading it again', async () => {
    const requests: { etag?: string | null }[] = [];
    const { deps, polls } = harness([]);
    deps.fetch = async (request) => {
      requests.push(request);
      return {
        kind: 'not_modified',
        status: 304,
        etag: null,
        lastModified: null,
        finalUrl: request.url,
        redirectStatuses: [],
        durationMs: 1,
        hints: noResponseHints,
      };
    };
    deps.state.get = async () => {
      throw new Error('read again');
    };
    await pollSource(source, deps, { etag: '"held"', lastModified: null, consecutiveFailures: 2 });
    expect(requests[0]!.etag).toBe('"held"');
    expect(polls()[0]).toMatchObject({ status: 'not_modified', etag: '"held"', consecutive_failures: 0 });
  });
});

describe('pollSource and the pace of the source', () => {
  const minute = 60_000;
  const hour = 60 * minute;
  const start = Date.UTC(2026, 10, 20, 12);
  const item = (n: number, at: number | null) =>
    `<item><guid>p${n}</guid><title>Story ${n}</title><link>https://feeds.example/${n}</link>` +
    (at === null ? '' : `<pubDate>${new Date(at).toUTCString()}</pubDate>`) +
    '</item>';
  /** Items 1..count, `gapMs` apart, the newest `ageMs` before the start; `extra` inside the channel. */
  const paced = (count: number, gapMs: number, ageMs = 0, extra = '') =>
    Array.from({ length: count }, (_, i) => item(count - i, start - ageMs - i * gapMs)).join('') + extra;
  const notModified = (freshForMs: number | null = null): FetchOutcome => ({
    kind: 'not_modified',
    status: 304,
    etag: '"v1"',
    lastModified: null,
    finalUrl: 'https://feeds.example/rss',
    redirectStatuses: [],
    durationMs: 5,
    hints: { ...noResponseHints, freshForMs },
  });
  const adaptive = (outcomes: FetchOutcome[]) => {
    const h = harness(outcomes);
    h.deps.intervals = defaultIntervalSettings;
    const scheduled: [failures: number, intervalSeconds: number][] = [];
    h.deps.nextPollAt = (_s, failures, _retryAfter, intervalSeconds) => {
      scheduled.push([failures, intervalSeconds]);
      return 0;
    };
    return { ...h, scheduled };
  };
  const intervals = (polls: FeedPoll[]) => polls.map((p) => [p.poll_interval_seconds, p.interval_reason]);

  it("learns the pace from the feed's dated items at its first poll, and records the interval and why", async () => {
    const { deps, polls, scheduled, state } = adaptive([ok(rss(paced(5, 20 * minute)))]);
    await pollSource(source, deps);
    // √(20 min × 2 min)
    expect(intervals(polls())).toEqual([[379, 'median gap 20 min between the last 5 items']]);
    expect(scheduled).toEqual([[0, 379]]);
    expect(state().pace).toEqual({
      publications: [0, 1, 2, 3, 4].map((i) => start - i * 20 * minute),
      publisher: { ttlSeconds: null, updateIntervalSeconds: null },
      intervalSeconds: 379,
      freshSeconds: null,
    });
  });

  it('adds only new items after that: a feed that re-dates its items on every build does not look busy', async () => {
    const redated = Array.from({ length: 3 }, (_, i) => item(3 - i, start + 10 * minute)).join('');
    const { deps, polls, later, state } = adaptive([ok(rss(paced(3, 6 * hour))), ok(rss(redated))]);
    await pollSource(source, deps);
    later(10 * minute);
    await pollSource(source, deps);
    expect(state().pace!.publications).toEqual([start, start - 6 * hour, start - 12 * hour]);
    expect(intervals(polls()).map(([seconds]) => seconds)).toEqual([1610, 1610]);
  });

  it('adds a new undated item at the time it was found', async () => {
    const { deps, later, state } = adaptive([
      ok(rss(paced(3, 6 * hour))),
      ok(rss(paced(3, 6 * hour) + item(4, null))),
    ]);
    await pollSource(source, deps);
    later(30 * minute);
    await pollSource(source, deps);
    expect(state().pace!.publications).toEqual([
      start + 30 * minute,
      start,
      start - 6 * hour,
      start - 12 * hour,
    ]);
  });

  it('keeps the pace through a 304 and a failure, stretched by the silence, with backoff from it', async () => {
    const { deps, polls, later, scheduled } = adaptive([
      ok(rss(paced(5, 10 * minute))),
      notModified(),
      failed,
      notModified(hour),
    ]);
    await pollSource(source, deps);
    later(3 * hour);
    await pollSource(source, deps);
    later(minute);
    await pollSource(source, deps);
    later(minute);
    await pollSource(source, deps);
    expect(intervals(polls())).toEqual([
      [268, 'median gap 10 min between the last 5 items'],
      [569, 'no new item for 3 h (median gap 10 min between the last 5 items)'],
      [571, 'no new item for 3 h (median gap 10 min between the last 5 items)'],
      // The 304's Cache-Control.
      [3600, 'response fresh for 60 min (Cache-Control/Expires)'],
    ]);
    expect(scheduled).toEqual([
      [0, 268],
      [0, 569],
      [1, 571],
      [0, 3600],
    ]);
  });

  it("remembers the publisher's ttl for the 304s that follow", async () => {
    const { deps, polls, later } = adaptive([
      ok(rss(paced(5, 10 * minute, 0, '<ttl>60</ttl>'))),
      notModified(),
    ]);
    await pollSource(source, deps);
    later(hour);
    await pollSource(source, deps);
    expect(intervals(polls())).toEqual([
      [3600, "publisher's ttl: 60 min"],
      [3600, "publisher's ttl: 60 min"],
    ]);
  });

  it("remembers the response's Cache-Control for the bare 304s that follow, until a read says otherwise", async () => {
    const fresh = (freshForMs: number | null) =>
      ok(rss(paced(5, 10 * minute)), { ...noResponseHints, freshForMs });
    const { deps, polls, later, state } = adaptive([
      fresh(hour),
      notModified(),
      failed,
      notModified(),
      notModified(2 * hour), // a 304 that says its own freshness updates it
      notModified(),
      fresh(null), // a read that says none takes it away
    ]);
    for (let i = 0; i < 7; i++) {
      await pollSource(source, deps);
      later(minute);
    }
    const floor = (seconds: number, said: string) => [
      seconds,
      `response fresh for ${said} (Cache-Control/Expires)`,
    ];
    const hourFloor = floor(3600, '60 min');
    expect(intervals(polls()).slice(0, 6)).toEqual([
      hourFloor,
      hourFloor,
      hourFloor,
      hourFloor,
      floor(7200, '2 h'),
      floor(7200, '2 h'),
    ]);
    expect(intervals(polls())[6]![1]).toMatch(/median gap/);
    expect(state().pace!.freshSeconds).toBeNull();
  });

  it('polls at the safety-net interval while the WebSub hook says the hub pushes the source', async () => {
    const { deps, polls } = adaptive([ok(rss(paced(5, 10 * minute)))]);
    deps.websubLease = async (sourceId) => (sourceId === source.source_id ? { upkeepAt: null } : null);
    await pollSource(source, deps);
    expect(intervals(polls())).toEqual([[3600, 'WebSub active: polled only as a safety net']]);
  });

  it('polls a pushed source by the time its subscription is due for renewal', async () => {
    const { deps, polls } = adaptive([ok(rss(paced(5, 10 * minute)))]);
    deps.websubLease = async () => ({ upkeepAt: deps.clock() + 20 * minute });
    await pollSource(source, deps);
    expect(intervals(polls())).toEqual([
      [1200, 'WebSub active: polled when its subscription is due for renewal'],
    ]);
  });

  it('polls at the configured interval without adaptive polling, and learns the pace all the same', async () => {
    const { deps, polls, state } = harness([ok(rss(paced(5, 10 * minute)))]);
    await pollSource(source, deps);
    expect(intervals(polls())).toEqual([[900, 'configured interval (POLLER_ADAPTIVE=false)']]);
    expect(state().pace!.publications).toHaveLength(5);
  });
});

describe('pollSource: a feed that moved', () => {
  const newUrl = 'https://new.example/feed.xml';
  const items = rss(
    '<item><guid>g-1</guid><title>A</title><link>https://feeds.example/a</link></item>' +
      '<item><title>B</title><link>https://feeds.example/b</link></item>',
  );
  const redirected = (redirectStatuses: number[], finalUrl = newUrl): FetchOutcome => ({
    ...(ok(items) as Extract<FetchOutcome, { kind: 'ok' }>),
    finalUrl,
    redirectStatuses,
  });
  /** The harness, with moves after 3 polls; `answer` says what each attempt to move finds. */
  const moving = (outcomes: FetchOutcome[], answer: (to: string) => Promise<MoveResult>) => {
    const h = harness(outcomes);
    const attempts: string[] = [];
    h.deps.moves = {
      afterPolls: 3,
      move: async (from, to) => {
        expect(from.source_id).toBe(source.source_id);
        attempts.push(to);
        return answer(to);
      },
    };
    return { ...h, attempts };
  };
  const moved = (to: string): Promise<MoveResult> =>
    Promise.resolve({ kind: 'moved', source: movedSource(source, to, 0) });

  it('moves the source after 3 polls whose redirects are permanent, says so, and keeps its articles', async () => {
    const { deps, polls, articles, attempts, state } = moving(
      [redirected([301]), redirected([308, 301]), redirected([301]), ok(items)],
      moved,
    );
    for (let i = 0; i < 3; i++) await pollSource(source, deps);
    expect(attempts).toEqual([newUrl]);
    expect(polls().map((p) => [p.feed_url, p.final_url, p.redirect_statuses])).toEqual([
      [source.feed_url, newUrl, [301]],
      [source.feed_url, newUrl, [308, 301]],
      [source.feed_url, newUrl, [301]],
    ]);
    expect(polls().map((p) => p.warnings[0])).toEqual([
      `the feed redirects permanently to ${newUrl}: the source moves there after 3 polls in a row end there (1 so far)`,
      `the feed redirects permanently to ${newUrl}: the source moves there after 3 polls in a row end there (2 so far)`,
      `the feed moved permanently: the source is polled at ${newUrl} from now on (it was at ${source.feed_url})`,
    ]);
    expect(state().move ?? null).toBeNull();

    // Polled at its new URL, same id: the same items are the same articles, nothing new.
    const after = movedSource(source, newUrl, 0);
    const { poll } = await pollSource(after, deps);
    expect(poll).toMatchObject({ feed_url: newUrl, final_url: null, redirect_statuses: [], new_items: 0 });
    expect(poll.warnings).toEqual([]);
    expect(articles()).toHaveLength(2);
  });

  it('never moves a source redirected temporarily, and records each redirect', async () => {
    // Each with a permanent hop too: only a chain of nothing but permanent ones counts.
    const chains = [
      [301, 307],
      [308, 302],
      [301, 303],
      [302, 301],
    ];
    const { deps, polls, attempts, state } = moving(
      chains.map((chain) => redirected(chain)),
      moved,
    );
    for (let i = 0; i < chains.length; i++) await pollSource(source, deps);
    expect(attempts).toEqual([]);
    expect(polls().map((p) => p.redirect_statuses)).toEqual(chains);
    expect(polls().every((p) => p.final_url === newUrl && p.warnings.length === 0)).toBe(true);
    expect(state().move ?? null).toBeNull();
  });

  it('starts counting again after a failed poll, a refused redirect or an unreadable page at the new URL', async () => {
    const page = (): FetchOutcome => ({
      ...(redirected([301]) as Extract<FetchOutcome, { kind: 'ok' }>),
      body: new TextEncoder().encode('<html><body>parked domain</body></html>'),
    });
    // What the fetcher makes of a redirect to a private address (the poll's chain stops there).
    const refused: FetchOutcome = {
      kind: 'refused',
      reason: 'refused: 10.0.0.5 is a private address (redirected from https://feeds.example/rss)',
      durationMs: 1,
    };
    const r = () => redirected([301]);
    const { deps, attempts, polls } = moving(
      [r(), r(), failed, r(), r(), refused, r(), r(), page(), r()],
      moved,
    );
    for (let i = 0; i < 10; i++) await pollSource(source, deps);
    expect(attempts).toEqual([]);
    expect(polls().map((p) => p.status)).toEqual([
      'ok',
      'ok',
      'failed',
      'ok',
      'ok',
      'refused',
      'ok',
      'ok',
      'failed',
      'ok',
    ]);
    expect(polls().at(-1)!.warnings[0]).toMatch(/\(1 so far\)$/);
  });

  it("leaves the source where it is when the new URL is another source's, says so, and tries again later", async () => {
    const answers: MoveResult[] = [
      { kind: 'taken', by: 'src_other' },
      { kind: 'taken', by: 'src_other' },
    ];
    const { deps, attempts, polls, state } = moving(
      Array.from({ length: 6 }, () => redirected([301])),
      async () => answers.shift()!,
    );
    const lines: { level: number; msg: string }[] = [];
    deps.logger = createLogger('test', 'debug', {
      write: (line: string) => lines.push(JSON.parse(line) as { level: number; msg: string }),
    });
    for (let i = 0; i < 6; i++) await pollSource(source, deps);
    expect(attempts).toEqual([newUrl, newUrl]);
    // Warned once; the retry that finds the same is not said again at warn.
    expect(lines.filter((l) => l.msg.includes('not moved')).map((l) => l.level)).toEqual([40, 20]);
    const taken = `the feed moved permanently to ${newUrl}, which is already source src_other: this source stays at its URL (tried again after 3 polls)`;
    expect(polls().map((p) => p.warnings[0])).toEqual([
      expect.stringMatching(/\(1 so far\)$/),
      expect.stringMatching(/\(2 so far\)$/),
      taken,
      taken,
      taken,
      taken,
    ]);
    expect(state().move).toEqual({ url: newUrl, polls: 0, feedRead: true, takenBy: 'src_other' });
  });

  it('records the poll and keeps the count when the move itself fails, so the next poll moves it', async () => {
    let fail = true;
    const { deps, attempts, polls } = moving(
      Array.from({ length: 4 }, () => redirected([301])),
      async (to) => {
        if (fail) {
          fail = false;
          throw new Error('KafkaJSConnectionError: broker down');
        }
        return moved(to);
      },
    );
    for (let i = 0; i < 4; i++) await pollSource(source, deps);
    expect(attempts).toEqual([newUrl, newUrl]);
    expect(polls().map((p) => p.status)).toEqual(['ok', 'ok', 'ok', 'ok']);
    expect(polls()[2]!.warnings[0]).toMatch(/\(3 so far\)$/);
    expect(polls()[3]!.warnings[0]).toMatch(/^the feed moved permanently: the source is polled at /);
  });

  it('asks for the feed whole while a 304 is all the new address gave, then moves', async () => {
    const notModified: FetchOutcome = {
      kind: 'not_modified',
      status: 304,
      etag: '"v1"',
      lastModified: null,
      finalUrl: newUrl,
      redirectStatuses: [301],
      durationMs: 1,
      hints: noResponseHints,
    };
    const { deps, attempts } = moving([ok(items), notModified, redirected([301]), redirected([301])], moved);
    const fetch = deps.fetch;
    const sentEtags: (string | null | undefined)[] = [];
    deps.fetch = async (request) => {
      sentEtags.push(request.etag);
      return fetch(request);
    };
    for (let i = 0; i < 4; i++) await pollSource(source, deps);
    expect(sentEtags).toEqual([null, '"v1"', null, '"v1"']);
    expect(attempts).toEqual([newUrl]);
  });

  it('does not move a source that changed meanwhile, and never moves without the hook', async () => {
    const { deps, attempts, state } = moving(
      Array.from({ length: 3 }, () => redirected([301])),
      async () => ({ kind: 'stale', reason: 'the source is at https://elsewhere.example/ now' }),
    );
    for (let i = 0; i < 3; i++) await pollSource(source, deps);
    expect(attempts).toEqual([newUrl]);
    expect(state().move ?? null).toBeNull();

    const plain = harness(Array.from({ length: 4 }, () => redirected([301])));
    for (let i = 0; i < 4; i++) await pollSource(source, plain.deps);
    expect(plain.polls().every((p) => p.warnings.length === 0 && p.final_url === newUrl)).toBe(true);
  });
});
