// The read API on real components: a feed served locally -> a real poller
// process -> Kafka -> the projector -> ClickHouse -> GET /v1/articles; source
// subscriptions; parameter validation and injection safety; stable paging
// while articles arrive; and a client generated from the OpenAPI document.
import createClient from 'openapi-fetch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ArticleDiscovered } from '../../services/runtime/events/types.generated.ts';
import { topicNames } from '../../services/runtime/kafka/topics.ts';
import { encodeCursor } from '../../services/api/articles/article-query.ts';
import type { components, paths } from '../api-client/schema.d.ts';
import { startFeedServer, type FeedServer } from '../support/feed-server.ts';
import { startApiStack, type ApiStack } from './support/api-stack.ts';
import { createTestClient } from './support/test-clients.ts';
import {
  openedStory,
  sampleArticle,
  sampleAudioKey,
  sampleEnrichment,
  sampleNarration,
} from './support/kafka.ts';
import { startPoller, type PollerProcess } from './support/poller-process.ts';
import { waitFor } from './support/wait.ts';
import { provisionalAiSummary } from '../../services/api/articles/provisional-summary.ts';

type ArticleList = components['schemas']['ArticleList'];
type ArticleDetail = components['schemas']['ArticleDetail'];
type SourceList = components['schemas']['SourceList'];
type Subscribed = components['schemas']['SourceSubscribed'];
type Source = components['schemas']['Source'];

const rssFeed = (run: string, base: string, items: { n: number; at: number }[]) =>
  `<?xml version="1.0" encoding="UTF-8"?><rss version="2.0"><channel><title>API e2e ${run}</title>
<link>${base}/</link><language>en-gb</language>
${items
  .map(
    ({
      n,
      at,
    }) => `<item><title>E2E ${run} story ${n}</title><link>${base}/e2e/${run}/${n}?utm_source=rss</link>
<guid isPermaLink="false">e2e-${run}-${n}</guid><pubDate>${new Date(at).toUTCString()}</pubDate>
<description>&lt;p&gt;Summary of story ${n}, with &lt;b&gt;markup&lt;/b&gt;.&lt;/p&gt;</description>
${n % 2 === 1 ? '<source url="https://www.reuters.com">Reuters</source>' : ''}</item>`,
  )
  .join('\n')}</channel></rss>`;

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
};

describe('read API', () => {
  let stack: ApiStack;
  let server: FeedServer;
  let poller: PollerProcess | undefined;
  let run: string;

  beforeAll(async () => {
    stack = await startApiStack('api');
    run = stack.run;
    server = await startFeedServer({ corpus: [] });
  }, 120_000);

  afterAll(async () => {
    poller?.child.kill('SIGKILL');
    // Pause the test's feed so later runs' pollers do not keep polling a server that is gone.
    const all = await stack?.call<SourceList>('GET', '/v1/sources?limit=1000');
    const ours = (all?.body.sources ?? []).filter((s) => server && s.url.startsWith(server.url));
    for (const s of ours) {
      await stack.producer.send(topicNames.sources, [
        {
          key: s.id,
          value: {
            source_id: s.id,
            name: s.name,
            feed_url: s.url,
            previous_urls: [],
            site_url: s.site_url,
            category: s.category,
            language: s.language,
            country: s.country,
            active: false,
            poll_interval_seconds: 10,
            created_by_tenant: 'default',
            created_at: Date.now(),
            version: 2,
            occurred_at: Date.now(),
          },
        },
      ]);
    }
    await server?.close();
    await stack?.close();
  }, 60_000);

  it('serves an article polled from a local feed within seconds, with the right fields', async () => {
    server.setMutable(rssFeed(run, server.url, []));
    const added = await stack.call<Subscribed>('POST', '/v1/sources', {
      url: `${server.url}/mutable.xml`,
      name: `API e2e ${run}`,
      category: 'technology',
      country: 'gb',
    });
    expect(added.status, added.text).toBe(201);
    expect(added.body.created).toBe(true);
    expect(added.body.source).toMatchObject({ language: 'en', subscribed: true, active: true });
    const sourceId = added.body.source.id;

    poller = startPoller({
      POLLER_GROUP: `api-test-poller-${run}`,
      REDIS_KEY_PREFIX: `test:${run}:`,
      OUTBOUND_ALLOW_LIST: '127.0.0.1',
    });
    // The new source is polled within seconds (its health then shows the poll).
    await waitFor(
      async () => {
        const s = await stack.call<SourceList>('GET', '/v1/sources?subscribed=true');
        return s.body.sources.find((x) => x.id === sourceId)?.health.last_polled_at;
      },
      'the first poll of the new source',
      60_000,
    );

    const delays: number[] = [];
    const pipeline: number[] = [];
    const items: { n: number; at: number }[] = [];
    for (let n = 1; n <= 5; n++) {
      const at = Math.floor(Date.now() / 1000) * 1000 - 60_000;
      items.push({ n, at });
      server.setMutable(rssFeed(run, server.url, items));
      const published = Date.now();
      const hitsBefore = server.hits.get('/mutable.xml') ?? 0;
      let fetched: number | undefined;
      // Sampled every 5 ms, apart from the slower API checks, to time the poll that fetches the change.
      const sampler = setInterval(() => {
        if (fetched === undefined && (server.hits.get('/mutable.xml') ?? 0) > hitsBefore)
          fetched = Date.now();
      }, 5);
      const article = await waitFor(
        async () => {
          const list = await stack.call<ArticleList>('GET', `/v1/articles?source=${sourceId}&limit=10`);
          return list.body.articles.find((a) => a.title === `E2E ${run} story ${n}`);
        },
        `story ${n} in the API`,
        60_000,
        50,
      );
      clearInterval(sampler);
      delays.push(Date.now() - published);
      pipeline.push(Date.now() - (fetched ?? published));
      expect(article).toMatchObject({
        summary: `Summary of story ${n}, with markup.`,
        // Not enriched yet: the provisional summary, from the feed's (one sentence: itself).
        ai_summary: `Summary of story ${n}, with markup.`,
        // not narrated yet: the article's narration URL, which narrates it when fetched
        audio_url: expect.stringMatching(/\/v1\/articles\/[^/]+\/audio\?expires=\d+&signature=/) as string,
        source: `API e2e ${run}`,
        source_id: sourceId,
        published_at: new Date(at).toISOString().replace('.000Z', 'Z'),
        language: 'en',
        category: 'technology',
        url: `${server.url}/e2e/${run}/${n}`,
      });
      const detail = await stack.call<ArticleDetail>('GET', `/v1/articles/${article.id}`);
      expect(detail.status).toBe(200);
      expect(detail.body).toMatchObject({ id: article.id, title: article.title, source: `API e2e ${run}` });
      expect(detail.body.content).toContain(`Summary of story ${n}`);
      // An aggregator's item names the outlet that published it (RSS <source>, as Google News writes it).
      const publisher = n % 2 === 1 ? { name: 'Reuters', url: 'https://www.reuters.com/' } : null;
      expect(detail.body.publisher).toEqual(publisher);
      // The list item names it too, from the list's own rows.
      expect(article.publisher).toEqual(publisher);
    }
    // From the change: waiting for the next poll (every 10 s here), then the pipeline. From the poll that
    // fetched it: poller (parse, dedupe) -> Kafka -> projector -> ClickHouse -> API (checked every 50 ms).
    console.log(
      `end-to-end delay, feed change -> GET /v1/articles: p50 ${percentile(delays, 50)} ms (samples ${delays.join(', ')}; ` +
        `poll interval 10 s); poll that fetched it -> GET /v1/articles: p50 ${percentile(pipeline, 50)} ms ` +
        `(samples ${pipeline.join(', ')})`,
    );
    expect(percentile(pipeline, 50)).toBeLessThan(5_000);
    expect(percentile(delays, 50)).toBeLessThan(30_000);
  }, 240_000);

  it('manages subscriptions: reuse by canonical URL, list, unsubscribe, refuse what is not a feed', async () => {
    const url = `${server.url}/mutable.xml`;
    // The same feed under another spelling of its URL is the same source.
    const again = await stack.call<Subscribed>('POST', '/v1/sources', {
      url: url.replace('http://', 'HTTP://') + '#top',
      category: 'world',
      country: 'us',
    });
    expect(again.status, again.text).toBe(200);
    expect(again.body.created).toBe(false);
    const id = again.body.source.id;
    expect(again.body.source.category).toBe('technology'); // the existing source is reused, not changed

    const mine = await stack.call<SourceList>('GET', '/v1/sources?subscribed=true');
    expect(mine.body.sources.map((s) => s.id)).toContain(id);
    // The reference set's GET /sources takes no parameters: without a limit, a page holds the whole
    // bundled catalog, so a client that pages nothing gets every source.
    const whole = await stack.call<SourceList>('GET', '/v1/sources');
    expect(whole.body.paging.limit).toBe(1000);
    const asked = await stack.call<SourceList>('GET', '/v1/sources?limit=1000');
    expect(whole.body.sources.map((s) => s.id)).toEqual(asked.body.sources.map((s) => s.id));
    // Another tenant sees the source but not the subscription, and cannot end it.
    const other = { apiKey: stack.otherClient.apiKey };
    const theirs = await stack.call<SourceList>('GET', '/v1/sources?subscribed=true', undefined, other);
    expect(theirs.body.sources.map((s) => s.id)).not.toContain(id);
    const foreign = await stack.call('DELETE', `/v1/sources/${id}/subscription`, undefined, other);
    expect([foreign.status, foreign.body.error.code]).toEqual([404, 'not_found']);
    const still = await stack.call<SourceList>('GET', '/v1/sources?subscribed=true');
    expect(still.body.sources.map((s) => s.id)).toContain(id);
    const gone = await stack.call('DELETE', `/v1/sources/${id}/subscription`);
    expect(gone.status).toBe(204);
    const twice = await stack.call('DELETE', `/v1/sources/${id}/subscription`);
    expect(twice.status).toBe(404);
    expect(twice.body.error.code).toBe('not_found');
    const after = await stack.call<SourceList>('GET', '/v1/sources?subscribed=true');
    expect(after.body.sources.map((s) => s.id)).not.toContain(id);
    const others = await stack.call<SourceList>('GET', `/v1/sources?subscribed=false&limit=1000`);
    expect(others.body.sources.map((s) => s.id)).toContain(id);
    // The test's tenant added it, and no tenant follows it now: it is no longer polled (every 10 s
    // before), and says so: not active, no next poll, not among the sources being polled.
    const unpolled = others.body.sources.find((s) => s.id === id)!;
    expect([unpolled.active, unpolled.health.next_poll_at]).toEqual([false, null]);
    const polledOnly = await stack.call<SourceList>('GET', `/v1/sources?active_only=true&limit=1000`);
    expect(polledOnly.body.sources.map((s) => s.id)).not.toContain(id);
    await waitFor(
      () => poller!.unfollowed.has(id),
      'the poller to stop polling a source nobody follows',
      20_000,
    );
    const hits = () => server.hits.get('/mutable.xml') ?? 0;
    const before = hits();
    await new Promise((resolve) => setTimeout(resolve, 12_000));
    expect(hits(), 'fetches of a source nobody follows').toBe(before);
    // Re-subscribe so the afterAll can find (and pause) it; followed again, it is polled again.
    expect(
      (await stack.call('POST', '/v1/sources', { url, category: 'technology', country: 'gb' })).status,
    ).toBe(200);
    await waitFor(() => hits() > before, 'a poll of the source followed again', 30_000);
    expect((await stack.call<Source>('GET', `/v1/sources/${id}`)).body.active).toBe(true);

    const html = await stack.call('POST', '/v1/sources', {
      url: `${server.url}/hostile/html-page`,
      category: 'world',
      country: 'gb',
      language: 'en',
      name: 'not a feed',
    });
    expect(html.status).toBe(400);
    expect(html.body.error.code).toBe('invalid_parameter');
    expect(html.body.error.message).toMatch(/^url: could not be read as a feed: not a feed: an HTML page/);
    for (const [body, message] of [
      [{ category: 'world', country: 'gb' }, /^url: is required$/],
      [{ url, category: 'cooking', country: 'gb' }, /^category: must be one of general, world/],
      [{ url, category: 'world', country: 'zz' }, /^country: must be a lowercase ISO 3166-1 alpha-2 code/],
      [{ url, category: 'world', country: 'gb', colour: 'red' }, /^colour: unknown field/],
      // Checked on an existing source's URL too (it is reused), not only when a new one is made.
      [
        { url, category: 'world', country: 'gb', site_url: 'javascript:alert(1)' },
        /^site_url: must be an absolute/,
      ],
      [{ url, category: 'world', country: 'gb', name: '\u0000\u200e' }, /^name: must have a letter/],
      [['not', 'an', 'object'], /^body: /],
    ] as const) {
      const answer = await stack.call('POST', '/v1/sources', body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body.error.message).toMatch(message);
    }
  }, 120_000);

  it('subscribes through a web page to the feed it names (autodiscovery), and says when it names none', async () => {
    server.setFeed(
      `discovered-${run}`,
      `<?xml version="1.0"?><rss version="2.0"><channel><title>Discovered ${run}</title>` +
        `<language>en</language><item><title>Item</title><link>/items/1</link></item></channel></rss>`,
    );
    server.setPage(
      `site-${run}`,
      `<!doctype html><html><head><title>Site ${run}</title>` +
        `<link rel="alternate" type="application/rss+xml" title="Comments" href="/feeds/none.xml?comments=1">` +
        `<link rel="alternate" type="application/rss+xml" title="Site ${run}" href="../feeds/discovered-${run}.xml">` +
        `</head><body><h1>News</h1></body></html>`,
    );
    const page = `${server.url}/pages/site-${run}`;
    const added = await stack.call<Subscribed>('POST', '/v1/sources', {
      url: page,
      category: 'world',
      country: 'gb',
    });
    expect(added.status, added.text).toBe(201);
    expect(added.body.source).toMatchObject({
      url: `${server.url}/feeds/discovered-${run}.xml`,
      name: `Discovered ${run}`,
      site_url: page,
      subscribed: true,
    });
    // The page again, or the feed itself: the same source.
    for (const url of [page, `${server.url}/feeds/discovered-${run}.xml`]) {
      const again = await stack.call<Subscribed>('POST', '/v1/sources', {
        url,
        category: 'world',
        country: 'gb',
      });
      expect([again.status, again.body.source.id], url).toEqual([200, added.body.source.id]);
    }

    server.setPage(
      `bare-${run}`,
      `<!doctype html><html><head><title>No feed</title></head><body></body></html>`,
    );
    const bare = await stack.call('POST', '/v1/sources', {
      url: `${server.url}/pages/bare-${run}`,
      category: 'world',
      country: 'gb',
    });
    expect([bare.status, bare.body.error.message]).toEqual([
      400,
      'url: could not be read as a feed: not a feed: an HTML page that links to no feed ' +
        '(no <link rel="alternate"> of an RSS, Atom or JSON Feed type)',
    ]);
  }, 60_000);

  it('adds a feed whose home page is relative or has no scheme, and takes uk as gb', async () => {
    const feed = (link: string, n: number) =>
      `<?xml version="1.0"?><rss version="2.0"><channel><title>Home ${run} ${n}</title><link>${link}</link>` +
      `<language>en</language><item><title>Item ${n}</title><link>/items/${n}</link></item></channel></rss>`;
    server.setFeed(`relative-home-${run}`, feed('/', 1));
    server.setFeed(`schemeless-home-${run}`, feed('www.example.com', 2));
    const relative = await stack.call<Subscribed>('POST', '/v1/sources', {
      url: `${server.url}/feeds/relative-home-${run}.xml`,
      category: 'world',
      country: 'UK',
    });
    expect(relative.status, relative.text).toBe(201);
    // "/" resolved against the feed's URL; uk (any case) read as ISO's gb, as the list filter reads it.
    expect(relative.body.source).toMatchObject({ site_url: `${server.url}/`, country: 'gb' });
    const schemeless = await stack.call<Subscribed>('POST', '/v1/sources', {
      url: `${server.url}/feeds/schemeless-home-${run}.xml`,
      category: 'world',
      country: 'gb',
    });
    expect(schemeless.status, schemeless.text).toBe(201);
    expect(schemeless.body.source).toMatchObject({
      name: `Home ${run} 2`,
      site_url: 'http://www.example.com/',
    });
    for (const added of [relative, schemeless])
      expect((await stack.call('DELETE', `/v1/sources/${added.body.source.id}/subscription`)).status).toBe(
        204,
      );
  }, 60_000);

  it("shows a private feed's token only to the tenants that subscribe to it", async () => {
    server.setFeed(
      `private-${run}`,
      `<?xml version="1.0"?><rss version="2.0"><channel><title>Private ${run}</title><language>en</language>` +
        `<item><title>One</title><link>https://private-${run}.example/1</link></item></channel></rss>`,
    );
    const url = `${server.url}/feeds/private-${run}.xml?format=rss&token=pr1vate${run}`;
    const added = await stack.call<Subscribed>('POST', '/v1/sources', {
      url,
      category: 'world',
      country: 'gb',
    });
    expect(added.status, added.text).toBe(201);
    const { id } = added.body.source;
    expect(added.headers.get('location')).toBe(`/v1/sources/${id}`);
    expect(added.body.source.url).toBe(url);
    const mine = await stack.call<SourceList>('GET', '/v1/sources?subscribed=true&limit=1000');
    expect(mine.body.sources.find((s) => s.id === id)?.url).toBe(url);
    const other = { apiKey: stack.otherClient.apiKey };
    const theirs = await stack.call<SourceList>(
      'GET',
      '/v1/sources?subscribed=false&limit=1000',
      undefined,
      other,
    );
    expect(theirs.body.sources.find((s) => s.id === id)?.url).toBe(
      `${server.url}/feeds/private-${run}.xml?format=rss&token=redacted`,
    );
    expect(theirs.text).not.toContain(`pr1vate${run}`);
    expect((await stack.call('DELETE', `/v1/sources/${id}/subscription`)).status).toBe(204);
  }, 60_000);

  it("refuses a new source another's name, and quotes nothing of a body that is not a feed", async () => {
    const feed = (title: string) =>
      `<?xml version="1.0"?><rss version="2.0"><channel><title>${title}</title><language>en</language>` +
      `<item><title>One</title><link>https://outlet-${run}.example/1</link></item></channel></rss>`;
    server.setFeed(`outlet-${run}`, feed(`Outlet ${run}`));
    server.setFeed(`spoof-${run}`, feed(`Outlet ${run}`));
    server.setFeed(`secret-${run}`, 'SECRET_TOKEN=abcdef0123456789');
    const outlet = await stack.call<Subscribed>('POST', '/v1/sources', {
      url: `${server.url}/feeds/outlet-${run}.xml`,
      category: 'world',
      country: 'gb',
    });
    expect(outlet.status, outlet.text).toBe(201);
    // Articles show their source's name to every tenant: a second "Outlet" would publish under it.
    const named = await stack.call('POST', '/v1/sources', {
      url: `${server.url}/feeds/spoof-${run}.xml`,
      name: ` outlet ${run.toUpperCase()} `,
      category: 'world',
      country: 'gb',
    });
    expect([named.status, named.body.error.code]).toEqual([409, 'conflict']);
    expect(named.body.error.message).toContain(outlet.body.source.id);
    // Nor in fullwidth letters, which show as the same name ("Ｏｕｔｌｅｔ" is "Outlet" in NFKC).
    const fullwidth = (text: string) =>
      text.replace(/[!-~]/g, (c) => String.fromCharCode(c.charCodeAt(0) + 0xfee0));
    const lookalike = await stack.call('POST', '/v1/sources', {
      url: `${server.url}/feeds/spoof-${run}.xml`,
      name: fullwidth(`Outlet ${run}`),
      category: 'world',
      country: 'gb',
    });
    expect([lookalike.status, lookalike.body.error.code], lookalike.text).toEqual([409, 'conflict']);
    expect(lookalike.body.error.message).toContain(outlet.body.source.id);
    // Its own title taken, the feed is named with its host beside it.
    const titled = await stack.call<Subscribed>('POST', '/v1/sources', {
      url: `${server.url}/feeds/spoof-${run}.xml`,
      category: 'world',
      country: 'gb',
    });
    expect(titled.status, titled.text).toBe(201);
    expect(titled.body.source.name).toBe(`Outlet ${run} (${new URL(server.url).host})`);
    const secret = await stack.call('POST', '/v1/sources', {
      url: `${server.url}/feeds/secret-${run}.xml`,
      category: 'world',
      country: 'gb',
    });
    expect(secret.status).toBe(400);
    expect(secret.body.error.message).toBe(
      'url: could not be read as a feed: not a feed: the body is text, not RSS, Atom, RDF or JSON Feed',
    );
    for (const added of [outlet, titled])
      expect((await stack.call('DELETE', `/v1/sources/${added.body.source.id}/subscription`)).status).toBe(
        204,
      );
  }, 60_000);

  it('creates a new feed once when several requests add it at the same time', async () => {
    server.setFeed(
      `concurrent-${run}`,
      `<?xml version="1.0"?><rss version="2.0"><channel><title>Concurrent ${run}</title><language>en</language>` +
        `<item><title>One</title><link>https://concurrent-${run}.example/1</link></item></channel></rss>`,
    );
    const url = `${server.url}/feeds/concurrent-${run}.xml`;
    const answers = await Promise.all(
      Array.from({ length: 4 }, () =>
        stack.call<Subscribed>('POST', '/v1/sources', { url, category: 'world', country: 'gb' }),
      ),
    );
    // One creates it; the others wait for it and find it (their tenant already subscribed: 200).
    expect(answers.map((a) => a.status).sort()).toEqual([200, 200, 200, 201]);
    expect(answers.filter((a) => a.body.created)).toHaveLength(1);
    expect(new Set(answers.map((a) => a.body.source.id)).size).toBe(1);
    // The one source, by its id, as the list shows it.
    const one = await stack.call<Source>('GET', `/v1/sources/${answers[0]!.body.source.id}`);
    expect(one.status, one.text).toBe(200);
    expect(one.body).toMatchObject({ id: answers[0]!.body.source.id, url, subscribed: true });
    const other = await stack.call<Source>('GET', `/v1/sources/${answers[0]!.body.source.id}`, undefined, {
      apiKey: stack.otherClient.apiKey,
    });
    expect(other.body.subscribed).toBe(false);
    const unknown = await stack.call('GET', '/v1/sources/src_none');
    expect([unknown.status, unknown.body.error.code]).toEqual([404, 'not_found']);
    expect(
      (await stack.call('DELETE', `/v1/sources/${answers[0]!.body.source.id}/subscription`)).status,
    ).toBe(204);
  }, 60_000);

  it("refuses a tenant one more source of its own past its plan's, also when requests come at once", async () => {
    const limited = await createTestClient(stack, {
      name: `added sources ${run}`,
      plan: 'professional',
      addedSources: 2,
    });
    // Known to the API once its directory has read the client from its topic.
    await waitFor(
      async () =>
        (await stack.call('GET', '/v1/sources?limit=1', undefined, { apiKey: limited.apiKey })).status ===
        200,
      'the new client',
    );
    const add = (name: string) => {
      server.setFeed(
        `added-${name}-${run}`,
        `<?xml version="1.0"?><rss version="2.0"><channel><title>Added ${name} ${run}</title>` +
          `<language>en</language><item><title>One</title><link>https://added-${run}.example/${name}</link>` +
          '</item></channel></rss>',
      );
      const url = `${server.url}/feeds/added-${name}-${run}.xml`;
      return stack.call<Subscribed>(
        'POST',
        '/v1/sources',
        { url, category: 'world', country: 'gb' },
        {
          apiKey: limited.apiKey,
        },
      );
    };
    const errorOf = (r: { body: unknown }) => (r.body as { error?: { code: string; message: string } }).error;
    const [a, b] = [await add('a'), await add('b')];
    expect([a.status, b.status]).toEqual([201, 201]);
    const refused = await add('c');
    expect([refused.status, errorOf(refused)?.code]).toEqual([403, 'plan_limit_reached']);
    expect(errorOf(refused)?.message).toMatch(/the plan allows 2 sources added by your tenant .* and 2 are/);
    // A source another tenant added is in the catalog already: following it is not limited.
    const theirs = await add('theirs-added-by-main');
    expect(theirs.status).toBe(403);
    const mainAdds = await stack.call<Subscribed>('POST', '/v1/sources', {
      url: `${server.url}/feeds/added-theirs-added-by-main-${run}.xml`,
      category: 'world',
      country: 'gb',
    });
    expect(mainAdds.status).toBe(201);
    const followed = await add('theirs-added-by-main');
    expect([followed.status, followed.body.source.added_by_you]).toEqual([200, false]);
    expect(mainAdds.body.source.added_by_you).toBe(true);
    expect(a.body.source.added_by_you).toBe(true);
    // One of its own left makes room for one: of two sent at once, one is added.
    const left = await stack.call('DELETE', `/v1/sources/${a.body.source.id}/subscription`, undefined, {
      apiKey: limited.apiKey,
    });
    expect(left.status).toBe(204);
    const atOnce = await Promise.all([add('d'), add('e')]);
    expect(atOnce.map((r) => r.status).sort()).toEqual([201, 403]);
    // Following its own again is one more of its own.
    const again = await add('a');
    expect([again.status, errorOf(again)?.code]).toEqual([403, 'plan_limit_reached']);
  }, 60_000);

  describe('with articles produced straight to Kafka', () => {
    const base = Date.UTC(2026, 9, 1, 12, 0, 0);
    let sourceId: string;
    let sourceName: string;
    const article = (n: number, publishedAt: number): ArticleDiscovered =>
      sampleArticle(n, {
        article_id: `art_${run}_${String(n).padStart(3, '0')}`,
        source_id: sourceId,
        source_name: sourceName,
        url: `https://paging-${run}.example/${n}`,
        title: `Paging ${run} number ${n}`,
        summary: `Walk summary ${n}`,
        published_at: publishedAt,
        category: n % 2 === 0 ? 'science' : 'health',
        language: n % 3 === 0 ? 'de' : 'en',
      });
    const walk = async (query: string, limit: number, between?: (page: number) => Promise<void>) => {
      const seen: string[] = [];
      let cursor: string | null = null;
      for (let page = 0; page < 100; page++) {
        const suffix: string = cursor ? `&cursor=${cursor}` : '';
        const answer = await stack.call<ArticleList>('GET', `/v1/articles?${query}&limit=${limit}${suffix}`);
        expect(answer.status, answer.text).toBe(200);
        seen.push(...answer.body.articles.map((a) => a.id));
        cursor = answer.body.paging.next_cursor;
        if (!cursor) return seen;
        await between?.(page);
      }
      throw new Error('the walk did not end');
    };

    beforeAll(async () => {
      sourceId = `src_paging_${run}`;
      sourceName = `Paging ${run}`;
      // 60 articles a minute apart, and every fifth one sharing its minute with the next, so ties occur.
      const articles = Array.from({ length: 60 }, (_, i) =>
        article(i, base - Math.floor(i / 5) * 5 * 60_000 - (i % 5 === 1 ? 0 : (i % 5) * 60_000)),
      );
      await stack.producer.send(
        topicNames.articlesDiscovered,
        articles.map((a) => ({ key: a.article_id, value: a })),
      );
      await waitFor(
        async () => (await walk(`source=${sourceId}`, 100)).length === 60,
        'the 60 articles in the API',
        60_000,
      );
    }, 90_000);

    it('walks every page exactly once while new articles arrive (cursor paging)', async () => {
      const before = await walk(`source=${sourceId}`, 100);
      let extra = 100;
      const seen = await walk(`source=${sourceId}`, 7, async (page) => {
        // New articles land on top (newer) and in the middle (older than the walk's position).
        const newer = article(extra++, base + 3_600_000 + page * 1000);
        const older = article(extra++, base - 40 * 60_000 - page * 1000 - 500);
        await stack.producer.send(topicNames.articlesDiscovered, [
          { key: newer.article_id, value: newer },
          { key: older.article_id, value: older },
        ]);
        await waitFor(
          async () =>
            (await stack.call<ArticleDetail>('GET', `/v1/articles/${older.article_id}`)).status === 200 &&
            (await stack.call<ArticleDetail>('GET', `/v1/articles/${newer.article_id}`)).status === 200,
          'the arrivals in the API',
          30_000,
        );
      });
      expect(new Set(seen).size).toBe(seen.length); // nothing twice
      expect(seen.filter((id) => before.includes(id))).toEqual(before); // everything that was there, once, in order
      expect(before).toHaveLength(60);
    }, 120_000);

    it('sorts newest first, then by id, and offset pages agree with the cursor walk', async () => {
      const all = await stack.call<ArticleList>('GET', `/v1/articles?source=${sourceId}&limit=100`);
      const items = all.body.articles;
      for (let i = 1; i < items.length; i++) {
        const [a, b] = [items[i - 1]!, items[i]!];
        expect(a.published_at > b.published_at || (a.published_at === b.published_at && a.id > b.id)).toBe(
          true,
        );
      }
      const byOffset: string[] = [];
      for (let offset = 0; offset < items.length; offset += 9) {
        const page = await stack.call<ArticleList>(
          'GET',
          `/v1/articles?source=${sourceId}&limit=9&offset=${offset}`,
        );
        byOffset.push(...page.body.articles.map((a) => a.id));
      }
      expect(byOffset).toEqual(items.map((a) => a.id));
    });

    it('filters by category, language, source name, date_range and words', async () => {
      const ids = async (query: string) =>
        (await walk(`source=${sourceId}&${query}`, 100))
          .map((id) => Number(id.slice(-3)))
          .sort((a, b) => a - b);
      const original = (n: number) => n < 60;
      expect((await ids('category=science')).filter(original)).toEqual(
        Array.from({ length: 30 }, (_, i) => i * 2),
      );
      expect((await ids('language=de')).filter(original)).toEqual(
        Array.from({ length: 20 }, (_, i) => i * 3),
      );
      expect(await walk(`source=${encodeURIComponent(sourceName.toUpperCase())}&q=number%207`, 100)).toEqual([
        `art_${run}_007`,
      ]);
      expect(await ids('q=walk%20SUMMARY%2042')).toEqual([42]);
      // Relevance: the same matches, in an order of their own, each once, paged by offset.
      const relevant = await stack.call<ArticleList>(
        'GET',
        `/v1/articles?source=${sourceId}&q=walk&sort_by=Relevance&limit=100`,
      );
      expect(relevant.status, relevant.text).toBe(200); // in any case, as the other enumerations
      expect(relevant.body.paging.next_cursor).toBeNull();
      expect(relevant.body.articles.map((a) => a.id).sort()).toEqual(
        (await walk(`source=${sourceId}&q=walk`, 100)).sort(),
      );
      // Articles 0..4 were published in the window [base - 4 min, base].
      const from = new Date(base - 4 * 60_000).toISOString();
      const to = new Date(base + 1000).toISOString();
      expect(await ids(`date_range=${from}..${to}`)).toEqual([0, 1, 2, 3, 4]);
      expect(await ids('date_range=2030-01-01..')).toEqual([]);
    });
    it('carries the latest AI summary and audio in lists, and the enrichment in the detail', async () => {
      const id = `art_${run}_005`;
      const enrichment = sampleEnrichment(id, base, {
        summary: 'The AI summary.',
        context: 'Some context.',
        insights: ['A concrete insight.'],
      });
      const narration = sampleNarration(id, base);
      await stack.producer.send(topicNames.articlesEnriched, [{ key: id, value: enrichment }]);
      await stack.producer.send(topicNames.articlesNarrated, [{ key: id, value: narration }]);
      const item = await waitFor(async () => {
        const list = await stack.call<ArticleList>('GET', `/v1/articles?source=${sourceId}&limit=100`);
        const found = list.body.articles.find((a) => a.id === id);
        return found?.ai_summary === 'The AI summary.' && found.audio_url.includes('/v1/audio/')
          ? found
          : undefined;
      }, 'the enrichment and narration in the list');
      expect(item.ai_summary).toBe('The AI summary.');
      // Signed when the answer is built, on the API's own address: the key, an expiry, a signature.
      expect(item.audio_url).toMatch(
        new RegExp(
          `^${stack.api.url}/v1/audio/${sampleAudioKey}\\?expires=\\d+&signature=[\\w-]+\\.[\\w-]{43}$`,
        ),
      );
      const detail = await stack.call<ArticleDetail>('GET', `/v1/articles/${id}`);
      expect(detail.body.enrichment).toMatchObject({
        summary: 'The AI summary.',
        insights: ['A concrete insight.'],
        sentiment: { label: 'positive', score: 0.6 },
        entities: [{ name: 'Time Warner', type: 'organization' }],
      });
      const others = (await stack.call<ArticleList>('GET', `/v1/articles?source=${sourceId}&limit=100`)).body
        .articles;
      const notProvisional = others.filter((a) => a.ai_summary !== provisionalAiSummary(a.title, a.summary));
      expect(notProvisional.map((a) => a.id)).toEqual([id]);
    });
  });

  it('answers 400 invalid_parameter naming the parameter for each invalid value', async () => {
    const cases: [string, string][] = [
      ['/v1/articles?limit=0', 'limit'],
      ['/v1/articles?limit=101', 'limit'],
      ['/v1/articles?limit=abc', 'limit'],
      ['/v1/articles?offset=-1', 'offset'],
      ['/v1/articles?date_range=next-week', 'date_range'],
      ['/v1/articles?date_range=2026-13-01..', 'date_range'],
      ['/v1/articles?date_range=2026-02-01..2026-01-01', 'date_range'],
      ['/v1/articles?category=cooking', 'category'],
      ['/v1/articles?language=xx', 'language'],
      ['/v1/articles?cursor=not-a-cursor', 'cursor'],
      ['/v1/articles?sort_by=oldest', 'sort_by'],
      ['/v1/articles?sort_by=relevance', 'sort_by'],
      ['/v1/articles?q=rates&sort_by=relevance&search_in=content', 'sort_by'],
      ['/v1/articles?search_in=title', 'search_in'],
      ['/v1/stories?search_in=summary', 'search_in'],
      [
        `/v1/articles?q=rates&sort_by=relevance&cursor=${encodeCursor({ publishedAt: 1, id: 'a' })}`,
        'cursor',
      ],
      ['/v1/articles?q=(rates', 'q'],
      ['/v1/articles?limit=5&limit=6', 'limit'],
      ['/v1/articles?colour=red', 'colour'],
      ['/v1/sources?country=zz', 'country'],
      ['/v1/sources?category=cooking', 'category'],
      ['/v1/sources?active_only=maybe', 'active_only'],
      ['/v1/sources?subscribed=yes', 'subscribed'],
      ['/api/v1/feeds/personalized?topics=', 'topics'],
      ['/api/v1/feeds/personalized?topics=a&limit=0', 'limit'],
      ['/api/v1/feeds/personalized?topics=a&format=xml', 'format'],
    ];
    for (const [path, parameter] of cases) {
      const answer = await stack.call('GET', path);
      expect(answer.status, path).toBe(400);
      expect(answer.body.error.code, path).toBe('invalid_parameter');
      expect(answer.body.error.message, path).toMatch(new RegExp(`^${parameter}: `));
    }
    const body = await stack.call('POST', '/api/v1/feeds/personalized', { topics: [], limit: 5 });
    expect(body.body.error.message).toMatch(/^topics: give at least one topic/);
    // A topic is words: punctuation alone had matched every bracket in the news.
    for (const topics of [['('], ['+'], ['economy', '...']]) {
      const answer = await stack.call('POST', '/api/v1/feeds/personalized', { topics });
      expect([answer.status, answer.body.error?.message], JSON.stringify(topics)).toEqual([
        400,
        expect.stringMatching(/^topics\.\d: a topic must contain at least one letter or digit/),
      ]);
    }
    // Topics are counted as ranked, each once: eleven spellings of one topic are one.
    const repeated = await stack.call<{ topics: string[] }>('POST', '/api/v1/feeds/personalized', {
      topics: [...Array.from({ length: 10 }, () => 'economy'), 'Economy'],
    });
    expect([repeated.status, repeated.body.topics]).toEqual([200, ['economy']]);
    const eleven = await stack.call('POST', '/api/v1/feeds/personalized', {
      topics: Array.from({ length: 11 }, (_, i) => `topic${i}`),
    });
    expect(eleven.body.error.message).toMatch(/^topics: at most 10 topics/);
  });

  it('never lets injection strings reach SQL: every parameter answers 400 or an empty result, never 500', async () => {
    const hostile = [
      "'; DROP TABLE articles; --",
      "' OR '1'='1",
      "\\' OR sleep(3) --",
      "x') UNION SELECT name FROM system.tables --",
      '"; SELECT * FROM system.users; --',
      '\u0000\u001b[31m\r\n',
      '%27%20OR%201%3D1',
      "{{7*7}} ${'${'}jndi:ldap://x}",
      'a'.repeat(5000),
    ];
    const parameters: [string, (v: string) => string][] = [
      ['category', (v) => `/v1/articles?category=${v}`],
      ['source', (v) => `/v1/articles?source=${v}`],
      ['language', (v) => `/v1/articles?language=${v}`],
      ['date_range', (v) => `/v1/articles?date_range=${v}`],
      ['q', (v) => `/v1/articles?q=${v}`],
      ['q by relevance', (v) => `/v1/articles?sort_by=relevance&q=${v}`],
      ['sort_by', (v) => `/v1/articles?sort_by=${v}`],
      ['limit', (v) => `/v1/articles?limit=${v}`],
      ['offset', (v) => `/v1/articles?offset=${v}`],
      ['cursor', (v) => `/v1/articles?cursor=${v}`],
      ['id', (v) => `/v1/articles/${v}`],
      ['sources.category', (v) => `/v1/sources?category=${v}`],
      ['sources.country', (v) => `/v1/sources?country=${v}`],
      ['sources.active_only', (v) => `/v1/sources?active_only=${v}`],
      ['sources.subscribed', (v) => `/v1/sources?subscribed=${v}`],
      ['topics', (v) => `/api/v1/feeds/personalized?topics=${v}`],
      ['unsubscribe id', (v) => `/v1/sources/${v}/subscription`],
    ];
    for (const value of hostile) {
      for (const [name, path] of parameters) {
        const method = name === 'unsubscribe id' ? 'DELETE' : 'GET';
        const answer = await stack.call<ArticleList & ErrorShape>(method, path(encodeURIComponent(value)));
        const where = `${name} = ${JSON.stringify(value.slice(0, 40))}`;
        expect([200, 400, 404], `${where}: ${answer.text.slice(0, 300)}`).toContain(answer.status);
        // A 400 may quote the value back; what must never show is the database's own error text.
        expect(answer.text, where).not.toMatch(
          /DB::Exception|Code: \d+, e\.displayText|ClickHouse|at .+\.ts:\d+/,
        );
        if (answer.status === 200 && answer.body.articles) {
          if (name.startsWith('q')) {
            // A search finds what contains its words ("' OR '1'='1" looks for "or" and "1"), nothing more.
            const words = value.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
            for (const a of answer.body.articles) {
              const text = ` ${a.title} ${a.summary} `.toLowerCase();
              for (const w of words) {
                expect(text, where).toMatch(new RegExp(`[^\\p{L}\\p{N}]${w}[^\\p{L}\\p{N}]`, 'u'));
              }
            }
          } else {
            expect(answer.body.articles, where).toEqual([]);
          }
        }
      }
    }
    const body = await stack.call('POST', '/api/v1/feeds/personalized', {
      topics: hostile.slice(0, 8),
      limit: 5,
    });
    expect(body.status).toBe(200);
    // The tables are still there and answering.
    expect((await stack.call('GET', '/v1/articles?limit=1')).status).toBe(200);
  }, 120_000);

  it('answers with the error vocabulary for bodies, methods and paths', async () => {
    const notJson = await stack.call('POST', '/v1/sources', '{"url": ');
    expect([notJson.status, notJson.body.error.code]).toEqual([400, 'invalid_json']);
    const big = await stack.call('POST', '/v1/sources', { url: 'x'.repeat(2_000_000) });
    expect([big.status, big.body.error.code]).toEqual([413, 'payload_too_large']);
    const form = await fetch(`${stack.api.url}/v1/sources`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Bearer ${stack.client.apiKey}`,
      },
      body: 'url=x',
    });
    expect(form.status).toBe(415);
    expect(((await form.json()) as ErrorShape).error.code).toBe('unsupported_media_type');
    const missing = await stack.call('GET', '/v1/nothing-here');
    expect([missing.status, missing.body.error.code]).toEqual([404, 'not_found']);
    const method = await stack.call('PUT', '/v1/articles');
    expect([method.status, method.body.error.code]).toEqual([405, 'method_not_allowed']);
    expect(method.body.error.message).toMatch(/it accepts HEAD, GET$/);
    const allowed = await fetch(`${stack.api.url}/api/v1/webhooks/wh_x`, { method: 'PUT' });
    expect([allowed.status, allowed.headers.get('allow')]).toEqual([405, 'HEAD, GET, DELETE, PATCH']);
    const options = await fetch(`${stack.api.url}/v1/sources`, { method: 'OPTIONS' });
    expect([options.status, options.headers.get('allow')]).toEqual([200, 'HEAD, GET, POST']);
    const ready = await stack.call<{ status: string }>('GET', '/readyz');
    expect([ready.status, ready.body.status]).toEqual([200, 'ready']);
    const metrics = await stack.call('GET', '/metrics');
    expect(metrics.text).toMatch(/api_request_duration_seconds_bucket\{.*route="\/v1\/articles"/);
    // The clients' table is read in a group named anew at each start; its series keep one name.
    expect(metrics.text).toMatch(/news_consumer_messages_processed_total\{group="api-clients",/);
    expect(metrics.text).not.toMatch(/group="api-clients-/);
  });

  it('ranks the personalized feed by whole words and phrases, a topic once, with category words', async () => {
    // A word no other test or article uses, so that only these articles can match it.
    const word = `kx${run.replace(/[^a-z0-9]/gi, '')}`;
    const now = Date.now();
    const made = [
      ['title', `${word.toUpperCase()} rules the day`, 'Nothing here.', 'business'],
      ['possessive', `The ${word}'s plan`, 'Nothing here.', 'world'],
      ['inside', `Bla${word}ir speaks`, `The re${word}ed plan.`, 'world'],
      ['summary', 'A quiet day', `Why ${word} matters.`, 'world'],
      ['phrase', `${word}  Émile falls`, 'Nothing here.', 'world'],
      ['folded', `ÉMILE${word} speaks`, 'Nothing here.', 'world'],
    ].map(([name, title, summary, category], i) =>
      sampleArticle(9_000 + i, {
        article_id: `art_${run}_topic_${name}`,
        source_id: `src_${run}_topics`,
        title,
        summary,
        category,
        // A minute back: the late article below is newer by more than the read model's whole second.
        published_at: now - 60_000 - i * 1000,
        discovered_at: now,
        occurred_at: now,
      }),
    );
    await stack.producer.send(
      topicNames.articlesDiscovered,
      made.map((a) => ({ key: a.article_id, value: a })),
    );
    type Feed = { topics: string[]; articles: { id: string; matched_topics: string[]; score: number }[] };
    const feed = async (topics: string[]) => {
      const answer = await stack.call<Feed>('POST', '/api/v1/feeds/personalized', { topics, limit: 100 });
      expect(answer.status).toBe(200);
      return answer.body;
    };
    const ours = (body: Feed) =>
      Object.fromEntries(
        body.articles
          .filter((a) => a.id.startsWith(`art_${run}_topic_`))
          .map((a) => [a.id.slice(`art_${run}_topic_`.length), a.matched_topics]),
      );
    // Every one of them: they are keyed to several partitions, which the projector may write apart.
    await waitFor(
      async () =>
        (await Promise.all(made.map((a) => stack.call('GET', `/v1/articles/${a.article_id}`)))).every(
          (answer) => answer.status === 200,
        ),
      'the articles in the API',
      30_000,
    );
    // Not inside a longer word; in the title or the summary; any case.
    expect(ours(await feed([word]))).toEqual({
      title: [word],
      possessive: [word],
      summary: [word],
      phrase: [word],
    });
    // A phrase, its words separated by any white space; non-ASCII letters fold their case.
    expect(ours(await feed([`${word.toUpperCase()} émile`]))).toEqual({
      phrase: [`${word.toUpperCase()} émile`],
    });
    expect(ours(await feed([`émile${word}`]))).toEqual({ folded: [`émile${word}`] });
    // The same topic twice in two cases is one topic, named as first given (the scores differ only by
    // the seconds between the two answers).
    const twice = await feed([word, word.toUpperCase()]);
    expect(twice.topics).toEqual([word]);
    const single = (await feed([word])).articles.find((a) => a.id.endsWith('_topic_title'))!;
    expect(twice.articles.find((a) => a.id.endsWith('_topic_title'))!.score).toBeCloseTo(single.score, 3);
    // `economy` names the business category: 3 for the category, 2 for the title.
    const economy = (await feed([word, 'economy'])).articles.find((a) => a.id.endsWith('_topic_title'))!;
    expect(economy.matched_topics).toEqual([word, 'economy']);
    expect(economy.score).toBeGreaterThan(single.score * 2.4);
    // Paged with offset, as every list: the pages, in order, are the ranking read at once.
    const whole = (await feed([word])).articles.map((a) => a.id);
    type Page = Feed & { paging: { returned: number; has_more: boolean; next_offset: number | null } };
    const first = await stack.call<Page>('GET', `/api/v1/feeds/personalized?topics=${word}&limit=3`);
    expect(first.body.paging).toMatchObject({
      limit: 3,
      offset: 0,
      returned: 3,
      has_more: true,
      next_offset: 3,
    });
    const next = await stack.call<Page>('POST', '/api/v1/feeds/personalized', {
      topics: [word],
      limit: 3,
      offset: first.body.paging.next_offset,
    });
    expect(next.body.paging).toEqual({
      limit: 3,
      offset: 3,
      returned: 1,
      has_more: false,
      next_offset: null,
      next_cursor: null,
    });
    expect([...first.body.articles, ...next.body.articles].map((a) => a.id)).toEqual(whole);
    // Walked by cursor, an article arriving between two pages at the top of the ranking neither repeats
    // the previous page's last article (as an offset would) nor hides one.
    type Walk = Feed & {
      paging: { next_offset: number | null; next_cursor: string | null; has_more: boolean };
    };
    const start = await stack.call<Walk>('GET', `/api/v1/feeds/personalized?topics=${word}&limit=2`);
    expect(start.body.articles.map((a) => a.id)).toEqual(whole.slice(0, 2));
    const cursor = start.body.paging.next_cursor!;
    expect(cursor).toEqual(expect.any(String));
    const late = sampleArticle(9_100, {
      article_id: `art_${run}_topic_late`,
      source_id: `src_${run}_topics`,
      title: `${word} arrives late`,
      summary: 'Nothing here.',
      category: 'business',
      published_at: Date.now(),
      discovered_at: Date.now(),
      occurred_at: Date.now(),
    });
    await stack.producer.send(topicNames.articlesDiscovered, [{ key: late.article_id, value: late }]);
    await waitFor(
      async () => (await stack.call('GET', `/v1/articles/${late.article_id}`)).status === 200,
      'the late article in the API',
      30_000,
    );
    const rest = await stack.call<Walk>('POST', '/api/v1/feeds/personalized', {
      topics: [word.toUpperCase()],
      limit: 2,
      cursor,
    });
    expect(rest.status).toBe(200);
    expect(rest.body.articles.map((a) => a.id)).toEqual(whole.slice(2, 4));
    expect(rest.body.paging).toMatchObject({ has_more: false, next_offset: null, next_cursor: null });
    // Scored as of the walk's first page, so a score of the second page is below the first's.
    expect(rest.body.articles[0]!.score).toBeLessThanOrEqual(start.body.articles[1]!.score);
    // A new walk starts with it.
    const again = await stack.call<Walk>('GET', `/api/v1/feeds/personalized?topics=${word}&limit=2`);
    expect(again.body.articles[0]!.id).toBe(late.article_id);
    const others = await stack.call(
      'GET',
      `/api/v1/feeds/personalized?topics=${word},economy&cursor=${cursor}`,
    );
    expect([others.status, others.body.error.code, others.body.error.message]).toEqual([
      400,
      'invalid_parameter',
      expect.stringMatching(/cursor.*other topics/),
    ]);
    const forged = await stack.call('GET', `/api/v1/feeds/personalized?topics=${word}&cursor=abc`);
    expect([forged.status, forged.body.error.code]).toEqual([400, 'invalid_parameter']);
    // An article's story, as the list shows it (it had been null in the feed, always).
    const storyId = `story_${run}_topics`;
    await stack.producer.send(topicNames.stories, [{ key: storyId, value: openedStory(storyId, late) }]);
    type Storied = { articles: { id: string; story_id: string | null }[] };
    await waitFor(
      async () =>
        (await stack.call<{ story_id: string | null }>('GET', `/v1/articles/${late.article_id}`)).body
          .story_id === storyId,
      'the story in the read model',
      30_000,
    );
    const storied = await stack.call<Storied>('GET', `/api/v1/feeds/personalized?topics=${word}&limit=1`);
    expect(storied.body.articles[0]).toMatchObject({ id: late.article_id, story_id: storyId });
  }, 60_000);

  it('is fully usable through a client generated from its OpenAPI document', async () => {
    const client = createClient<paths>({
      baseUrl: stack.api.url,
      headers: { authorization: `Bearer ${stack.client.apiKey}` },
    });
    const list = await client.GET('/v1/articles', { params: { query: { limit: 2 } } });
    expect(list.response.status).toBe(200);
    const first = list.data!.articles[0]!;
    const detail = await client.GET('/v1/articles/{id}', { params: { path: { id: first.id } } });
    expect(detail.data!.id).toBe(first.id);
    const missing = await client.GET('/v1/articles/{id}', { params: { path: { id: 'no-such-article' } } });
    expect(missing.error!.error.code).toBe('not_found');
    const sources = await client.GET('/v1/sources', { params: { query: { active_only: 'true' } } });
    expect(sources.response.status).toBe(200);
    const url = `${server.url}/corpus/business.json?count=3`;
    const added = await client.POST('/v1/sources', { body: { url, category: 'business', country: 'gb' } });
    expect(added.response.status).toBe(201);
    const removed = await client.DELETE('/v1/sources/{id}/subscription', {
      params: { path: { id: added.data!.source.id } },
    });
    expect(removed.response.status).toBe(204);
    const feed = await client.GET('/api/v1/feeds/personalized', {
      params: { query: { topics: `Paging ${run},story`, limit: 3 } },
    });
    expect(feed.data!.articles.length).toBeGreaterThan(0);
    expect(feed.data!.articles[0]!.matched_topics.length).toBeGreaterThan(0);
    const posted = await client.POST('/api/v1/feeds/personalized', {
      body: { topics: ['science'], limit: 2, offset: 0, format: 'json' },
    });
    expect(posted.data!.topics).toEqual(['science']);
  }, 60_000);

  it("shows each source's latest poll, from the last days or, for a source not polled in them, from its history", async () => {
    const day = 86_400_000;
    const now = Date.now();
    const source = (id: string) => ({
      source_id: id,
      name: `Poll history ${run} ${id}`,
      feed_url: `https://polls-${run}.example/${id}.xml`,
      previous_urls: [],
      site_url: null,
      category: 'science',
      language: 'en',
      country: 'gb',
      active: false, // nobody polls it: the polls below are its whole history
      poll_interval_seconds: 300,
      created_by_tenant: 'default',
      created_at: now - 30 * day,
      version: 1,
      occurred_at: now - 30 * day,
    });
    const poll = (sourceId: string, at: number, failures: number) => ({
      poll_id: `poll_${run}_${sourceId}_${at}`,
      source_id: sourceId,
      feed_url: `https://polls-${run}.example/${sourceId}.xml`,
      status: failures > 0 ? ('failed' as const) : ('ok' as const),
      http_status: failures > 0 ? 503 : 200,
      items_seen: 1,
      new_items: 0,
      etag: null,
      last_modified: null,
      duration_ms: 40,
      error_reason: failures > 0 ? 'HTTP 503' : null,
      started_at: at - 40,
      consecutive_failures: failures,
      healthy: failures < 3,
      next_poll_at: null,
      poll_interval_seconds: null,
      interval_reason: null,
      trigger: 'poll',
      skipped_items: 0,
      skipped_reasons: [],
      updated_items: 0,
      warnings: [],
      final_url: null,
      redirect_statuses: [],
      occurred_at: at,
    });
    const recent = `src_polls_recent_${run}`;
    const old = `src_polls_old_${run}`;
    const recovered = `src_polls_recovered_${run}`;
    const unchanged = `src_polls_unchanged_${run}`;
    await stack.producer.send(topicNames.sources, [
      { key: recent, value: source(recent) },
      { key: old, value: source(old) },
      { key: recovered, value: source(recovered) },
      { key: unchanged, value: source(unchanged) },
    ]);
    // Appended out of time order, so neither the offset nor the order of arrival gives the answer.
    await stack.producer.send(topicNames.feedPolls, [
      { key: recent, value: poll(recent, now - 3_600_000, 4) },
      { key: recent, value: poll(recent, now - 20 * day, 0) },
      { key: recent, value: poll(recent, now - 2 * 3_600_000, 0) },
      {
        key: old,
        value: {
          ...poll(old, now - 9 * day, 1),
          skipped_items: 7,
          skipped_reasons: ['item "Untitled" has no usable link'],
          warnings: ['the document ends inside its last item (cut off?); that item was left out'],
        },
      },
      { key: old, value: poll(old, now - 40 * day, 0) },
      { key: old, value: poll(old, now - 12 * day, 0) },
      // Failed, then recovered: the error is the failed poll's, not the latest's.
      { key: recovered, value: poll(recovered, now - 2 * 3_600_000, 2) },
      { key: recovered, value: poll(recovered, now - 3_600_000, 0) },
      // Read once (its one item unusable), then 304s: what the feed holds is the read's.
      {
        key: unchanged,
        value: {
          ...poll(unchanged, now - 3 * 3_600_000, 0),
          skipped_items: 1,
          skipped_reasons: ['item "(untitled)" has no usable link'],
        },
      },
      {
        key: unchanged,
        value: { ...poll(unchanged, now - 3_600_000, 0), status: 'not_modified' as const, http_status: 304 },
      },
    ]);
    const iso = (ms: number) => new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');
    await waitFor(
      async () => {
        const list = await stack.call<SourceList>('GET', '/v1/sources?category=science&limit=1000');
        const health = (id: string) => list.body.sources.find((s) => s.id === id)?.health;
        return (
          health(recent)?.last_polled_at === iso(now - 3_600_000) &&
          health(old)?.last_polled_at === iso(now - 9 * day) &&
          health(recovered)?.last_polled_at === iso(now - 3_600_000) &&
          health(unchanged)?.last_polled_at === iso(now - 3_600_000)
        );
      },
      'the sources to show their latest polls',
      30_000,
    );
    const list = await stack.call<SourceList>('GET', '/v1/sources?category=science&limit=1000');
    const health = (id: string) => list.body.sources.find((s) => s.id === id)?.health;
    expect(health(recent)).toMatchObject({
      status: 'failing',
      consecutive_failures: 4,
      last_error: 'HTTP 503',
    });
    expect(health(old)).toMatchObject({
      status: 'healthy',
      consecutive_failures: 1,
      last_poll_status: 'failed',
      // What the latest poll dropped and noticed, not only whether it failed.
      items_skipped: 7,
      skipped_reasons: ['item "Untitled" has no usable link'],
      warnings: ['the document ends inside its last item (cut off?); that item was left out'],
    });
    expect(health(recent)).toMatchObject({ items_skipped: 0, skipped_reasons: [], warnings: [] });
    expect(health(recovered)).toMatchObject({
      status: 'healthy',
      last_poll_status: 'ok',
      last_error: null,
      consecutive_failures: 0,
    });
    expect(health(unchanged)).toMatchObject({
      last_poll_status: 'not_modified',
      items_skipped: 1,
      skipped_reasons: ['item "(untitled)" has no usable link'],
    });
  });
});

interface ErrorShape {
  error: { code: string; message: string };
}
