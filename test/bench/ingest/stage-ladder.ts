// bench:ingest's stage ladder (BENCH_STAGE_ROUNDS > 0; run.ts starts this file in a process of its own, in
// the bench's namespace, against the bench's feed servers): what each stage after the parse costs the
// poller where it runs, garbage and lifetimes included, which a profile's split by frames cannot show.
//
// Each rung polls feeds of its own through the poller's pollSource, 32 at a time, with the stages up to
// it real and the later ones replaced by in-memory stand-ins (a memory that calls every article new and
// remembers nothing, a producer that drops what it is given); this process's CPU (every thread) over the
// articles found is the rung's cost. The first rung is the parse alone over the same bodies, as the
// bench's baseline loop runs it. Every rung runs once as a warm-up, then BENCH_STAGE_ROUNDS rounds, the
// order reversed every other round (the machine's speed drifts within minutes). Prints one JSON line.
import { Redis } from 'ioredis';
import { z } from 'zod';
import { infrastructureEnv, integer, loadConfig } from '../../../services/runtime/config.ts';
import { createKafka } from '../../../services/runtime/kafka/client.ts';
import { AppendBatcher } from '../../../services/runtime/kafka/append-batcher.ts';
import { EventProducer } from '../../../services/runtime/kafka/producer.ts';
import { installRecordEncoding } from '../../../services/runtime/kafka/record-encoding.ts';
import { createSchemaRegistry, EventCodec } from '../../../services/runtime/kafka/registry.ts';
import { createLogger } from '../../../services/runtime/logger.ts';
import { createOutboundUrlPolicy } from '../../../services/runtime/outbound/outbound-url.ts';
import { FeedFetcher } from '../../../services/feeds/fetcher/feed-fetcher.ts';
import { parseFeed } from '../../../services/feeds/parser/parse-feed.ts';
import { PollAppends } from '../../../services/poller/poll-appends.ts';
import { pollSource, type PollDependencies } from '../../../services/poller/poll-source.ts';
import { PollStateStore, pollStateOf } from '../../../services/poller/poll-state.ts';
import { SeenArticles } from '../../../services/poller/seen-articles.ts';
import { SourceLock } from '../../../services/poller/source-lock.ts';
import { sourceState } from '../../../services/sources/source.ts';
import { benchFeedContentType, benchFeeds } from './bench-feeds.ts';

export interface StageResult {
  rung: string;
  /** Articles per CPU second, one per round. */
  rates: number[];
}

/** The rungs, in order, each one stage more than the one before. */
export const rungs = [
  { rung: 'parse', label: 'the parse alone (the baseline loop)' },
  { rung: 'fetch', label: 'and the fetch (FeedFetcher)' },
  { rung: 'poll', label: 'the whole poll on stand-ins (normalising, fingerprints, its record)' },
  { rung: 'avro', label: 'and Avro (every event encoded)' },
  { rung: 'kafka', label: 'and Kafka (every event appended)' },
  { rung: 'redis', label: 'and Redis (the memory of articles, the poll state, the lock): the poller' },
] as const;
type Rung = (typeof rungs)[number]['rung'];

const concurrency = 32;

async function main(): Promise<void> {
  const config = loadConfig({
    ...infrastructureEnv,
    REDIS_KEY_PREFIX: z.string().default(''),
    STAGES_PORT: integer(0, 1, 65_535),
    STAGES_HOSTS: integer(50, 1, 250),
    STAGES_ITEMS: integer(20, 1, 200),
    /** Feeds a rung polls in each round. */
    STAGES_FEEDS: integer(1_500, 1, 100_000),
    STAGES_ROUNDS: integer(4, 1, 20),
    /**
     * The first feed number the ladder polls: past the bench's own, so every article is new (not far
     * past: a feed's items are dated further back the higher its number, and the poller skips items
     * dated before the web).
     */
    STAGES_FIRST_FEED: integer(0, 0, 1_000_000),
  });
  installRecordEncoding(); // as the poller does
  const logger = createLogger('bench-stages', 'error');
  const hostOf = (n: number) => `127.0.0.${(n % config.STAGES_HOSTS) + 1}:${config.STAGES_PORT}`;
  const feeds = benchFeeds(config.STAGES_ITEMS);
  const fetcher = new FeedFetcher({
    userAgent: 'bench-stages',
    policy: createOutboundUrlPolicy({ allow: ['127.0.0.0/8'], dnsCacheMs: 60_000 }),
    connectTimeoutMs: 5_000,
    totalTimeoutMs: 30_000,
    maxBodyBytes: 10 * 1024 * 1024,
    maxRedirects: 5,
    perHostConcurrency: 2,
  });
  const redis = new Redis(config.REDIS_URL, { maxRetriesPerRequest: 2, enableAutoPipelining: true });
  const kafka = createKafka({ brokers: config.KAFKA_BROKERS, clientId: 'bench-stages', logger });
  const codec = new EventCodec(createSchemaRegistry(config.SCHEMA_REGISTRY_URL));
  const producer = await EventProducer.connect(kafka, codec);
  const prefix = config.REDIS_KEY_PREFIX;
  const seen = new SeenArticles(redis, {
    ttlSeconds: 24 * 60 * 60,
    prefix: `${prefix}seen:`,
    mark: `${prefix}seen-memory`,
  });
  await redis.set(`${prefix}seen-memory`, 'bench'); // a memory that was never lost
  const state = new PollStateStore(redis, `${prefix}poll:`);
  const lock = new SourceLock(redis, 60_000, `${prefix}lock:poll:`);
  const appended = new PollAppends(
    codec,
    new AppendBatcher((records) => producer.sendRawBatch(records), 1_000, { ms: 0, records: 500 }),
  );
  const encodedOnly = new PollAppends(codec, { append: async () => undefined });
  const everyArticleNew = {
    lookAndClaim: async (ids: readonly string[]) => ({
      sightings: new Map(),
      claimed: new Set(ids),
      aliased: new Map(),
    }),
    adopt: async () => undefined,
    claimRevisions: async () => new Set<string>(),
    confirm: async () => undefined,
    release: async () => undefined,
  } as unknown as SeenArticles;
  const noState = {
    get: async () => pollStateOf({}),
    set: async () => undefined,
  } as unknown as PollStateStore;
  const standIns = (): PollDependencies => ({
    fetch: (request) => fetcher.fetch(request),
    parse: parseFeed,
    producer: { send: async () => undefined },
    seen: everyArticleNew,
    revisions: { perDay: 10, minIntervalMs: 60_000 },
    state: noState,
    logger,
    clock: Date.now,
    unhealthyAfter: 5,
    nextPollAt: () => Date.now() + 3_600_000,
  });
  const depsOf: Record<Exclude<Rung, 'parse' | 'fetch'>, () => PollDependencies> = {
    poll: standIns,
    avro: () => ({ ...standIns(), producer: encodedOnly }),
    kafka: () => ({ ...standIns(), producer: appended }),
    redis: () => ({ ...standIns(), producer: appended, seen, state }),
  };
  const cpuSeconds = () => {
    const { user, system } = process.cpuUsage();
    return (user + system) / 1e6;
  };

  let next = config.STAGES_FIRST_FEED;
  async function run(rung: Rung): Promise<number> {
    const first = next;
    next += config.STAGES_FEEDS;
    const sources = Array.from({ length: config.STAGES_FEEDS }, (_, i) =>
      sourceState(
        {
          name: `bench stages ${first + i}`,
          feed_url: `http://${hostOf(first + i)}/feed/${first + i}.xml`,
          category: 'business',
          language: 'en',
          country: 'gb',
          poll_interval_seconds: 3600,
        },
        null,
        Date.now(),
      ),
    );
    let articles = 0;
    if (rung === 'parse') {
      const bodies = sources.map((s, i) => Buffer.from(feeds.feed(first + i, hostOf(first + i))));
      const start = cpuSeconds();
      for (const [i, body] of bodies.entries())
        articles += parseFeed(body, benchFeedContentType, { baseUrl: sources[i]!.feed_url }).items.length;
      return articles / (cpuSeconds() - start);
    }
    const start = cpuSeconds();
    let taken = 0;
    const slot = async () => {
      while (taken < sources.length) {
        const source = sources[taken++]!;
        if (rung === 'fetch') {
          const fetched = await fetcher.fetch({ url: source.feed_url });
          if (fetched.kind !== 'ok') throw new Error(`${source.feed_url}: ${JSON.stringify(fetched)}`);
          articles += parseFeed(fetched.body, fetched.contentType, { baseUrl: fetched.finalUrl }).items
            .length;
        } else if (rung === 'redis') {
          // As the scheduler polls: the lock taken (reading the poll state), the poll, the lock released.
          const previous = await lock.acquireReading(source.source_id, state);
          if (previous === null) throw new Error(`the lock of ${source.source_id} is held`);
          const { poll } = await pollSource(source, depsOf.redis(), previous);
          articles += poll.new_items;
          await lock.release(source.source_id);
        } else {
          const { poll } = await pollSource(source, depsOf[rung]());
          articles += poll.new_items;
        }
      }
    };
    const wall = performance.now();
    await Promise.all(Array.from({ length: concurrency }, slot));
    // Progress, and a check that every rung found every article new (the rates count them).
    process.stderr.write(
      `  stage ladder: ${rung}, ${sources.length} feeds, ${articles} articles, ${(cpuSeconds() - start).toFixed(2)} s of CPU, ${((performance.now() - wall) / 1000).toFixed(2)} s\n`,
    );
    return articles / (cpuSeconds() - start);
  }

  for (const { rung } of rungs) await run(rung); // the warm-up
  const rates = new Map<Rung, number[]>(rungs.map(({ rung }) => [rung, []]));
  for (let round = 0; round < config.STAGES_ROUNDS; round++) {
    const order = round % 2 === 0 ? rungs : [...rungs].reverse();
    for (const { rung } of order) rates.get(rung)!.push(await run(rung));
  }
  const results: StageResult[] = rungs.map(({ rung }) => ({ rung, rates: rates.get(rung)! }));
  process.stdout.write(`${JSON.stringify(results)}\n`);
  await producer.disconnect();
  await fetcher.close();
  redis.disconnect();
}

if (process.env.STAGES_PORT) await main();
