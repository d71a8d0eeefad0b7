// Ingestion end to end with real components: a local feed server, poller
// processes, Kafka, the registry and Redis.
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import type { Consumer, Kafka } from 'kafkajs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ArticleDiscovered, FeedPoll, Source } from '../../services/runtime/events/types.generated.ts';
import { EventProducer } from '../../services/runtime/kafka/producer.ts';
import { createSchemaRegistry, EventCodec } from '../../services/runtime/kafka/registry.ts';
import { topicNames } from '../../services/runtime/kafka/topics.ts';
import { createOutboundUrlPolicy } from '../../services/runtime/outbound/outbound-url.ts';
import { FeedFetcher } from '../../services/feeds/fetcher/feed-fetcher.ts';
import { parseFeed } from '../../services/feeds/parser/parse-feed.ts';
import { pollSource } from '../../services/poller/poll-source.ts';
import { PollStateStore } from '../../services/poller/poll-state.ts';
import { SeenArticles } from '../../services/poller/seen-articles.ts';
import { SourceRegistry } from '../../services/sources/source-registry.ts';
import { sourceState } from '../../services/sources/source.ts';
import { readCorpus } from '../../services/demo/corpus.ts';
import { realFeedNames } from '../../services/feeds/parser/testdata/read.ts';
import { startFeedServer, type FeedServer } from '../support/feed-server.ts';
import { testKafka } from './support/kafka.ts';
import { startPoller, type PollerProcess } from './support/poller-process.ts';
import { stack, testLogger } from './support/stack.ts';
import { waitFor } from './support/wait.ts';

const realFeeds = realFeedNames();

const hostile: Record<string, RegExp> = {
  'billion-laughs.xml': /entity/i,
  'external-entity.xml': /entity/i,
  'huge.xml': /larger than/i,
  'redirect-loop': /redirect loop/i,
  'slow.xml': /timed out/i,
  'garbage.xml': /not a feed|binary|garbage|not XML|control/i,
  'html-page': /HTML/i,
};

const mutableItem = (n: number) =>
  `<item><guid>mutable-${n}</guid><title>Mutable item ${n}</title><link>http://news.example/mutable/${n}</link><pubDate>Tue, 01 Mar 2005 1${n}:00:00 GMT</pubDate></item>`;
const mutableFeed = (count: number) =>
  `<?xml version="1.0"?><rss version="2.0"><channel><title>Mutable</title><link>http://news.example/</link>${Array.from(
    { length: count },
    (_, i) => mutableItem(i),
  ).join('')}</channel></rss>`;

/** Items whose link, guid or image address are megabytes long, beside a plain one. */
const oversizedFeed = (base: string) => {
  const huge = 'x'.repeat(1_500_000);
  return `<?xml version="1.0"?><rss version="2.0"><channel><title>Oversized</title><link>${base}/</link>
<item><title>Huge link</title><link>${base}/oversized/${huge}</link><guid isPermaLink="false">o-1</guid></item>
<item><title>Huge guid</title><link>${base}/oversized/2</link><guid isPermaLink="false">${huge}</guid></item>
<item><title>Huge image</title><link>${base}/oversized/3</link><guid isPermaLink="false">o-3</guid>
<enclosure url="${base}/${huge}.jpg" type="image/jpeg" length="1"/></item>
<item><title>Plain</title><link>${base}/oversized/4</link><guid isPermaLink="false">o-4</guid></item>
</channel></rss>`;
};

describe('poller', () => {
  const run = randomUUID().slice(0, 8);
  const corpus = readCorpus();
  let server: FeedServer;
  let kafka: Kafka;
  let codec: EventCodec;
  let producer: EventProducer;
  let redis: Redis;
  let watcher: Consumer;
  const sourceIdByName = new Map<string, string>();
  const ours = new Set<string>();
  const polls: FeedPoll[] = [];
  const discovered: ArticleDiscovered[] = [];
  const pollers: PollerProcess[] = [];
  const group = `poller-test-${run}`;
  // Every poller of this suite: one group, one Redis namespace (dedupe is shared), loopback allowed.
  const pollerEnv = {
    POLLER_GROUP: group,
    REDIS_KEY_PREFIX: `test:${run}:`,
    OUTBOUND_ALLOW_LIST: '127.0.0.1',
    FEED_TOTAL_TIMEOUT_MS: '3000',
    FEED_MAX_BODY_BYTES: String(5 * 1024 * 1024),
  };

  const pollsOf = (name: string) => polls.filter((p) => p.source_id === sourceIdByName.get(name));
  const articlesOf = (name: string) => discovered.filter((a) => a.source_id === sourceIdByName.get(name));

  beforeAll(async () => {
    server = await startFeedServer({ corpus });
    server.setMutable(mutableFeed(3));
    server.setFeed(`oversized-${run}`, oversizedFeed(server.url));
    kafka = testKafka();
    codec = new EventCodec(createSchemaRegistry(stack.SCHEMA_REGISTRY_URL));
    producer = await EventProducer.connect(kafka, codec);
    redis = new Redis(stack.REDIS_URL);

    // Watch what the pollers write, before they start.
    watcher = kafka.consumer({ groupId: `poller-watch-${run}` });
    await watcher.connect();
    // From the end: only what this run produces matters, and a long-lived stack may hold millions of events.
    await watcher.subscribe({
      topics: [topicNames.feedPolls, topicNames.articlesDiscovered],
      fromBeginning: false,
    });
    const joined = new Promise<void>((resolve) => watcher.on(watcher.events.GROUP_JOIN, () => resolve()));
    await watcher.run({
      eachMessage: async ({ topic, message }) => {
        const value = await codec.decode(topic, message.value);
        if (topic === topicNames.feedPolls) {
          const poll = value as FeedPoll;
          if (ours.has(poll.source_id)) polls.push(poll);
        } else {
          const article = value as ArticleDiscovered;
          if (ours.has(article.source_id)) discovered.push(article);
        }
      },
    });

    await joined; // positions are fixed at the end before anything of ours is produced

    const add = (name: string, path: string, category = 'general') => ({
      name: `${name} (${run})`,
      feed_url: `${server.url}${path}`,
      category: category as 'general',
      language: 'en',
      country: 'gb',
      poll_interval_seconds: 10,
    });
    const inputs = [
      ...realFeeds.map((f) => ({ key: f, input: add(f, `/real/${f}`) })),
      { key: 'corpus.json', input: add('BBC business (JSON Feed)', '/corpus/business.json', 'business') },
      { key: 'corpus.atom', input: add('BBC tech (Atom)', '/corpus/tech.atom', 'technology') },
      { key: 'mutable', input: add('Mutable', '/mutable.xml') },
      { key: 'oversized', input: add('Oversized addresses', `/feeds/oversized-${run}.xml`) },
      ...Object.keys(hostile).map((h) => ({ key: h, input: add(`hostile ${h}`, `/hostile/${h}`) })),
    ];
    const registry = new SourceRegistry({ kafka, codec, producer });
    const results = await registry.addMany(inputs.map((i) => i.input));
    results.forEach((r, i) => {
      sourceIdByName.set(inputs[i]!.key, r.source.source_id);
      ours.add(r.source.source_id);
    });

    pollers.push(startPoller(pollerEnv));
  }, 120_000);

  afterAll(async () => {
    for (const p of pollers) p.child.kill('SIGKILL');
    // Remove our sources so later runs do not poll a server that is gone.
    await producer?.send(
      topicNames.sources,
      [...ours].map((id) => ({ key: id, value: null })),
    );
    await watcher?.disconnect();
    await producer?.disconnect();
    const keys = (await redis?.keys(`test:${run}:*`)) ?? [];
    if (keys.length) await redis.del(...keys);
    await redis?.quit();
    await server?.close();
  });

  it('ingests every real feed snapshot, or records why not', async () => {
    await waitFor(() => realFeeds.every((f) => pollsOf(f).length > 0), 'a poll of every real feed', 60_000);
    const outcomes = realFeeds.map((f) => {
      const first = pollsOf(f)[0]!;
      return {
        feed: f,
        status: first.status,
        items: first.items_seen,
        new: first.new_items,
        skipped: first.skipped_items,
        reason: first.error_reason ?? first.skipped_reasons[0] ?? null,
      };
    });
    console.table(outcomes);
    for (const o of outcomes) {
      if (o.status === 'ok') {
        // Every item became an article or was skipped with a recorded reason.
        expect(o.new + o.skipped, o.feed).toBe(o.items);
        if (o.skipped > 0)
          expect(o.reason, o.feed).toMatch(/has no usable link|neither title nor text|is listed twice/);
      } else expect(o.reason, o.feed).toMatch(/\S/);
    }
    expect(outcomes.filter((o) => o.status === 'ok').length).toBeGreaterThanOrEqual(15);
  }, 90_000);

  it('decodes the ISO-8859-1 feed and reads the RDF feed with links and dates', async () => {
    // A feed's articles are spread over the topic's partitions and arrive in any order: wait for all
    // that the first poll of each feed checked here reported new, not for the first of them.
    const checked = ['encoding.rss', 'uolNoticias.rss', 'rdf-rss-1.rss', 'heise.atom'];
    await waitFor(
      () =>
        checked.every((f) => {
          const first = pollsOf(f)[0];
          return first !== undefined && articlesOf(f).length >= first.new_items;
        }),
      `every new article of ${checked.join(', ')}`,
    );
    const jn = articlesOf('encoding.rss').find(
      (a) => a.title === 'Mãe de utente é a nova presidente da Raríssimas',
    );
    expect(jn, 'Jornal de Notícias article with decoded title').toBeDefined();
    expect(jn!.summary).toMatch(/^Sónia Laygue, profissional na área da Recursos Humanos/);
    // feedburner:origLink names the article itself, not FeedBurner's click-tracking <link>.
    expect(jn!.url).toBe(
      'https://www.jn.pt/nacional/interior/sonia-laig-e-a-nova-presidente-da-rarissimas-9021600.html',
    );
    expect(new Date(jn!.published_at).toISOString()).toBe('2018-01-03T13:47:00.000Z');
    expect(jn!.language).toBe('pt');

    const uol = articlesOf('uolNoticias.rss').find((a) =>
      a.title.startsWith('Ibope: Bolsonaro perde de Haddad'),
    );
    expect(uol?.title).toBe('Ibope: Bolsonaro perde de Haddad, Ciro e Alckmin em simulações de 2º turno');

    const science = articlesOf('rdf-rss-1.rss');
    expect(science.every((a) => a.url.startsWith('http://science.sciencemag.org/'))).toBe(true);
    expect(science.some((a) => new Date(a.published_at).toISOString() === '2017-06-15T17:29:47.000Z')).toBe(
      true,
    );

    const heise = articlesOf('heise.atom').find(
      (a) => a.title === 'Scrum Day 2016: Bewerbungen für Vorträge und Workshops',
    );
    expect(heise, 'heise article with umlauts').toBeDefined();
    expect(heise!.language).toBe('de');
  });

  it('ingests the JSON Feed and the Atom feed built from the BBC corpus with the full text intact', async () => {
    const business = corpus.filter((a) => a.category === 'business').slice(0, 20);
    const tech = corpus.filter((a) => a.category === 'tech').slice(0, 20);
    await waitFor(
      () =>
        articlesOf('corpus.json').length === business.length &&
        articlesOf('corpus.atom').length === tech.length,
      'all corpus articles',
    );
    for (const [name, articles] of [
      ['corpus.json', business],
      ['corpus.atom', tech],
    ] as const) {
      const byTitle = new Map(articlesOf(name).map((a) => [a.title, a]));
      for (const original of articles) {
        const got = byTitle.get(original.title);
        expect(got, `${name}: ${original.title}`).toBeDefined();
        expect(got!.content).toBe(original.paragraphs.join('\n\n'));
        expect(got!.summary).toBe(original.paragraphs[0]);
      }
    }
    expect(articlesOf('corpus.json')[0]!.category).toBe('business');
  });

  it('drops addresses of megabytes from items, and ingests the rest of the feed', async () => {
    // Each would have made an event larger than a Kafka record may be, and the broker refused the poll.
    await waitFor(
      () => pollsOf('oversized').length > 0,
      'a poll of the feed with oversized addresses',
      60_000,
    );
    const [poll] = pollsOf('oversized');
    expect(poll).toMatchObject({ status: 'ok', items_seen: 4, new_items: 3, skipped_items: 1 });
    expect(poll!.skipped_reasons).toEqual([expect.stringMatching(/"Huge link" has no usable link/)]);
    expect(poll!.warnings).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/1 item\(s\): link longer than 8192 characters, dropped/),
        expect.stringMatching(/1 item\(s\): guid longer than 2048 characters, dropped/),
        expect.stringMatching(/1 item\(s\): image address longer than 8192 characters, dropped/),
      ]),
    );
    await waitFor(() => articlesOf('oversized').length === 3, 'its three articles', 30_000);
    const byTitle = new Map(articlesOf('oversized').map((a) => [a.title, a]));
    expect(byTitle.get('Huge guid')).toMatchObject({ guid: null, url: `${server.url}/oversized/2` });
    expect(byTitle.get('Huge image')).toMatchObject({ image_url: null, url: `${server.url}/oversized/3` });
    expect(byTitle.get('Plain')).toMatchObject({ url: `${server.url}/oversized/4` });
  }, 90_000);

  it('records hostile feeds as failed polls with a reason, and keeps going', async () => {
    await waitFor(
      () => Object.keys(hostile).every((h) => pollsOf(h).length > 0),
      'a poll of every hostile feed',
      60_000,
    );
    for (const [name, reason] of Object.entries(hostile)) {
      const poll = pollsOf(name)[0]!;
      expect(poll.status, name).toBe('failed');
      expect(poll.error_reason, name).toMatch(reason);
      expect(articlesOf(name), name).toEqual([]);
    }
  }, 90_000);

  it('answers 304 with no article events, and a changed feed with only the new items', async () => {
    await waitFor(
      () => pollsOf('mutable').some((p) => p.status === 'not_modified'),
      'a 304 poll of the mutable feed',
      40_000,
    );
    const [first, second] = pollsOf('mutable');
    expect(first).toMatchObject({ status: 'ok', items_seen: 3, new_items: 3 });
    expect(second).toMatchObject({ status: 'not_modified', http_status: 304, new_items: 0 });
    // Articles and poll outcomes are different topics: the articles may still be on their way.
    await waitFor(() => articlesOf('mutable').length >= 3, 'the first three articles of the mutable feed');
    expect(articlesOf('mutable')).toHaveLength(3);

    server.setMutable(mutableFeed(5));
    await waitFor(
      () => pollsOf('mutable').some((p) => p.status === 'ok' && p.items_seen === 5),
      'the changed feed',
      40_000,
    );
    expect(pollsOf('mutable').find((p) => p.items_seen === 5)!.new_items).toBe(2);
    await waitFor(() => articlesOf('mutable').length >= 5, 'the two new articles of the mutable feed');
    expect(
      articlesOf('mutable')
        .map((a) => a.title)
        .sort(),
    ).toEqual([0, 1, 2, 3, 4].map((n) => `Mutable item ${n}`));
  }, 90_000);

  it('refuses feeds on loopback and link-local addresses unless allow-listed', async () => {
    const fetcher = new FeedFetcher({ userAgent: 'test', policy: createOutboundUrlPolicy({ allow: [] }) });
    const deps = {
      fetch: (r: Parameters<FeedFetcher['fetch']>[0]) => fetcher.fetch(r),
      parse: parseFeed,
      producer,
      seen: new SeenArticles(redis, { ttlSeconds: 60, prefix: `test:${run}:ssrf:seen:` }),
      revisions: { perDay: 6, minIntervalMs: 0 },
      state: new PollStateStore(redis, `test:poll:${run}:`),
      logger: testLogger,
      clock: Date.now,
      unhealthyAfter: 3,
      nextPollAt: () => Date.now() + 60_000,
    };
    const source = (url: string): Source =>
      sourceState(
        { name: 'private', feed_url: url, category: 'general', language: 'en', country: 'gb' },
        null,
        Date.now(),
      );
    const loopback = await pollSource(source(`${server.url}/real/guardian.rss`), deps);
    expect(loopback.poll.status).toBe('refused');
    expect(loopback.poll.error_reason).toMatch(/127\.0\.0\.1.*loopback/);
    const metadata = await pollSource(source('http://169.254.169.254/latest/meta-data/'), deps);
    expect(metadata.poll.status).toBe('refused');
    expect(metadata.poll.error_reason).toMatch(/169\.254\.169\.254.*link-local/);
    expect(loopback.articles).toEqual([]);
    await fetcher.close();
  });

  it('splits sources between two pollers, hands them over when one is killed, and never emits an article twice', async () => {
    const a = pollers[0]!;
    const b = startPoller(pollerEnv);
    pollers.push(b);
    await waitFor(
      () =>
        a.partitions.length > 0 && b.partitions.length > 0 && a.partitions.length + b.partitions.length === 6,
      'the two pollers to split the partitions',
      60_000,
    );
    expect([...a.partitions, ...b.partitions].sort()).toEqual([0, 1, 2, 3, 4, 5]);

    a.child.kill('SIGKILL');
    await a.exited;
    const killedAt = Date.now();
    await waitFor(() => b.partitions.length === 6, 'the survivor to take every partition', 90_000);

    server.setMutable(mutableFeed(6));
    await waitFor(() => articlesOf('mutable').length === 6, 'the item added after the takeover', 60_000);
    const active = ['corpus.json', 'corpus.atom', 'mutable', 'guardian.rss'];
    await waitFor(
      () => active.every((n) => pollsOf(n).some((p) => p.occurred_at > killedAt)),
      'every source polled again after the takeover',
      60_000,
    );

    const counts = new Map<string, number>();
    for (const article of discovered)
      counts.set(article.article_id, (counts.get(article.article_id) ?? 0) + 1);
    const repeated = [...counts].filter(([, n]) => n > 1);
    expect(repeated).toEqual([]);
  }, 240_000);
});
