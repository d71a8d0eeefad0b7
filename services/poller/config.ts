import { z } from 'zod';
import { opsEnv } from '../runtime/ops-server.ts';
import {
  boolean,
  commaList,
  ConfigError,
  infrastructureEnv,
  integer,
  loadConfig,
  text,
} from '../runtime/config.ts';
import { defaultIntervalSettings as interval, type IntervalSettings } from './poll-interval.ts';
import { websubEnv } from '../websub/settings.ts';
import { dnsCacheSetting } from '../runtime/outbound/cached-lookup.ts';

export const pollerEnv = {
  ...infrastructureEnv,
  ...opsEnv,
  POLLER_GROUP: text('poller').describe(
    'Consumer group of the pollers: the sources are split between its members.',
  ),
  POLLER_CONCURRENCY: integer(32, 1, 1000).describe('Polls in flight per poller.'),
  // Sources due in the same second (a start, a rebalance, the end of an outage) start at this pace
  // rather than all at once (poll-pacer.ts).
  POLLER_MAX_POLLS_PER_SECOND: integer(50, 0, 100_000).describe(
    'Polls a poller starts per second at most, once POLLER_POLL_BURST have started back to back: sources due at the same moment are spread rather than sent at once. 0: no pace (throughput benchmarks).',
  ),
  POLLER_POLL_BURST: integer(10, 1, 10_000).describe(
    'Polls that may start back to back before POLLER_MAX_POLLS_PER_SECOND paces the rest.',
  ),
  // What the polls append shares produce requests (runtime/kafka/append-batcher.ts); a request costs
  // KafkaJS as much CPU as a hundred records, so waiting a little for more records to share it is cheap.
  POLLER_APPEND_LINGER_MS: integer(50, 0, 1_000).describe(
    'Longest an article or poll record waits for others to share its produce request (sent sooner once 500 records wait). 0: a request leaves as soon as the one before it is answered.',
  ),
  POLLER_UNHEALTHY_AFTER: integer(3, 1, 100).describe(
    'Failures in a row after which a source is reported unhealthy (it is still polled, with backoff).',
  ),
  // Adaptive polling (poll-interval.ts; docs/operations.md, "Adaptive polling").
  POLLER_ADAPTIVE: boolean(interval.adaptive).describe(
    "Choose each source's interval from its publishing pace and the publisher's hints (ttl, sy:updatePeriod, Cache-Control), between POLLER_MIN_INTERVAL_SECONDS and POLLER_MAX_INTERVAL_SECONDS. false: every source at its configured poll_interval_seconds.",
  ),
  POLLER_MIN_INTERVAL_SECONDS: integer(interval.minSeconds, 1, 86_400).describe(
    'Shortest interval adaptive polling gives a source (a source configured shorter keeps its interval until its pace is known). A feed publishing this often is polled this often; one a hundred times quieter, ten times less often.',
  ),
  POLLER_MAX_INTERVAL_SECONDS: integer(interval.maxSeconds, 60, 7 * 86_400).describe(
    "Longest interval adaptive polling gives a source, however quiet, and the cap on a publisher's ttl or Cache-Control floor.",
  ),
  POLLER_WEBSUB_SAFETY_INTERVAL_SECONDS: integer(interval.websubSafetySeconds, 60, 7 * 86_400).describe(
    'Least interval of a source whose WebSub hub pushes it: its polls only catch lost pushes (a source adaptive polling would poll less often keeps its interval).',
  ),
  // Feeds that move (feed-move.ts; docs/operations.md, "Feeds that move").
  POLLER_MOVE_AFTER_POLLS: integer(3, 2, 100).describe(
    'Successful polls in a row whose redirects are all permanent (301, 308) and end at the same new URL, with a feed read there, after which the source is polled at that URL from then on (its `url`, under the same id; the old one is kept in `previous_urls`). At least 2, so one misconfigured answer cannot move a source; a temporary redirect (302, 303, 307) anywhere in the chain never moves it.',
  ),
  POLLER_USER_AGENT: text('news-intelligence-poller/0.1 (+https://github.com/news-intelligence)').describe(
    'User-Agent of feed requests.',
  ),
  FEED_CONNECT_TIMEOUT_MS: integer(5_000, 100, 60_000).describe('Connect timeout of a feed request.'),
  FEED_TOTAL_TIMEOUT_MS: integer(20_000, 500, 300_000).describe(
    'The whole fetch of a feed, redirects and body included.',
  ),
  FEED_MAX_BODY_BYTES: integer(10 * 1024 * 1024, 1024, 200 * 1024 * 1024).describe(
    'Largest feed body, also after decompression.',
  ),
  FEED_MAX_REDIRECTS: integer(5, 0, 20).describe('Redirects followed per fetch, each one checked again.'),
  FEED_PER_HOST_CONCURRENCY: integer(2, 1, 100).describe('Requests in flight to one host.'),
  // Parsing off the event loop (services/feeds/parser/parse-pool.ts): a 1.6 MB feed takes 0.15-0.6 s to
  // parse, which on the event loop would delay every other poll's timers by as much. Below 128 KiB a parse
  // takes under about 15 ms, and a worker's round trip adds 2-5 ms to it (measured on the real snapshots
  // in testdata/real, 2 cores).
  POLLER_PARSE_WORKERS: integer(2, 0, 64).describe(
    'Worker threads that parse large feeds, started when first needed. 2 suits two cores: a second large feed need not queue behind the first, and the event loop only waits for them. 0: every feed is parsed on the event loop.',
  ),
  POLLER_PARSE_OFF_THREAD_BYTES: integer(128 * 1024, 0, 200 * 1024 * 1024).describe(
    'Feed bodies of at least this many bytes are parsed on a worker thread; smaller ones parse faster on the event loop than a round trip to a worker takes.',
  ),
  POLLER_LOOP_DELAY_REPORT_SECONDS: integer(60, 1, 3600).describe(
    'How often the poller logs its event-loop delay (maximum, 99th percentile, mean) over the interval: a long delay is a poll holding up the others.',
  ),
  POLLER_PARSE_TIMEOUT_MS: integer(15_000, 100, 300_000).describe(
    'Longest parse of one feed on a worker: past it the worker is stopped and replaced and the poll fails with the reason.',
  ),
  POLLER_REBUILD_MEMORY: boolean(true).describe(
    "When the poller's memory of emitted articles is missing from Redis (lost, flushed, or a new REDIS_KEY_PREFIX): true rebuilds it from news.articles.discovered.v1 before polling (DEDUPE_TTL_DAYS of it), so nothing still in the feeds is emitted again; false starts with an empty memory (every article still in the feeds is emitted again, and sent again to article.published webhooks).",
  ),
  DEDUPE_TTL_DAYS: integer(90, 1, 3650).describe(
    'How long an emitted article (its latest revision) is remembered after the last poll that found it in its feed, so a re-poll never emits it twice and a change is emitted as its next revision.',
  ),
  // The bound on revisions (revision-bound.ts): with the defaults, a feed that rewrites every item on
  // every poll costs 6 updates per article per day, not one per poll (288 at a 5-minute interval).
  POLLER_UPDATES_PER_DAY: integer(6, 0, 1000).describe(
    'Updates (revisions after the first sighting) one article may get in a rolling 24 hours; a later change waits, and its latest text is emitted when the bound allows. 0: changed items are never emitted again.',
  ),
  POLLER_UPDATE_MIN_INTERVAL_SECONDS: integer(900, 0, 86_400).describe(
    'Least time between two revisions of one article, its first sighting included: changes made within it are emitted together, as one update with the latest text.',
  ),
  REDIS_KEY_PREFIX: z
    .string()
    .default('news:')
    .refine((s) => /^[A-Za-z0-9:_.-]{1,64}$/.test(s), {
      message: 'expected 1-64 characters of A-Z a-z 0-9 : _ . -',
    })
    .meta({
      accepted: '1-64 characters of A-Z a-z 0-9 : _ . -',
      description:
        'Prefix of every Redis key the poller writes (dedupe, poll state, locks): separates environments sharing a Redis.',
    }),
  OUTBOUND_ALLOW_LIST: commaList().describe(
    'Hosts and CIDRs feeds may use although they are private, loopback or link-local (tests, the demo).',
  ),
  OUTBOUND_DNS_CACHE_SECONDS: dnsCacheSetting,
  // WebSub push (services/websub/): off unless WEBSUB_PUBLIC_BASE_URL is set.
  ...websubEnv,
};

export function loadPollerConfig(env?: NodeJS.ProcessEnv) {
  const config = loadConfig(pollerEnv, env);
  if (config.POLLER_MIN_INTERVAL_SECONDS > config.POLLER_MAX_INTERVAL_SECONDS)
    throw new ConfigError([
      `POLLER_MIN_INTERVAL_SECONDS (${config.POLLER_MIN_INTERVAL_SECONDS}) must not exceed POLLER_MAX_INTERVAL_SECONDS (${config.POLLER_MAX_INTERVAL_SECONDS})`,
    ]);
  return config;
}

/** Adaptive polling's settings as poll-source.ts takes them. */
export const intervalSettings = (config: ReturnType<typeof loadPollerConfig>): IntervalSettings => ({
  adaptive: config.POLLER_ADAPTIVE,
  minSeconds: config.POLLER_MIN_INTERVAL_SECONDS,
  maxSeconds: config.POLLER_MAX_INTERVAL_SECONDS,
  websubSafetySeconds: config.POLLER_WEBSUB_SAFETY_INTERVAL_SECONDS,
});
