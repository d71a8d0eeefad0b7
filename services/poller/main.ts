// The poller: a consumer-group member over news.sources.v1 (table mode: it
// keeps the current state of the sources in the partitions it owns), polling
// each active source on its interval and appending new articles (and new
// revisions of changed ones) to news.articles.discovered.v1 and every outcome
// to news.feed-polls.v1.
// Run two and the sources split between them; stop one and the other takes over.
import { Redis } from 'ioredis';
import { ConfigError } from '../runtime/config.ts';
import type { Source } from '../runtime/events/types.generated.ts';
import { createKafka } from '../runtime/kafka/client.ts';
import { AppendBatcher } from '../runtime/kafka/append-batcher.ts';
import { ConsumerRunner } from '../runtime/kafka/consumer.ts';
import { EventProducer } from '../runtime/kafka/producer.ts';
import { installRecordEncoding } from '../runtime/kafka/record-encoding.ts';
import { createSchemaRegistry, EventCodec } from '../runtime/kafka/registry.ts';
import { topicNames } from '../runtime/kafka/topics.ts';
import { runProcess } from '../runtime/lifecycle.ts';
import { workerOps } from '../runtime/ops-server.ts';
import { createLogger, type Logger } from '../runtime/logger.ts';
import { createOutboundUrlPolicy } from '../runtime/outbound/outbound-url.ts';
import { RedisMutex } from '../runtime/keyed-mutex.ts';
import { feedUrlLockKey, feedUrlLockPrefix } from '../sources/feed-url-lock.ts';
import { SourceRegistry } from '../sources/source-registry.ts';
import { intervalSettings, loadPollerConfig } from './config.ts';
import { FeedFetcher } from '../feeds/fetcher/feed-fetcher.ts';
import { FeedParsePool, parserFor } from '../feeds/parser/parse-pool.ts';
import { watchLoopDelay } from './loop-delay.ts';
import { PollAppends } from './poll-appends.ts';
import { ingestPushedFeed, pollSource, type PushDependencies } from './poll-source.ts';
import { PollScheduler } from './poll-scheduler.ts';
import { PollStateStore } from './poll-state.ts';
import { nextPollDelay } from './schedule.ts';
import { SeenArticles } from './seen-articles.ts';
import { SeenMemory } from './seen-memory.ts';
import { rebuildSeenMemory } from './seen-memory-rebuild.ts';
import { SourceLock } from './source-lock.ts';
import { startCallbackServer } from '../websub/callback-server.ts';
import { createHubClient } from '../websub/hub-client.ts';
import { websubSettings } from '../websub/settings.ts';
import { SubscriptionKeeper, timingOf } from '../websub/subscription-keeper.ts';
import { FollowedSources, SourceFollowers } from './source-followers.ts';
import { SubscriptionStore } from '../websub/subscription-store.ts';
import { WebsubCallback } from '../websub/websub-callback.ts';
import { websubMetrics } from '../websub/websub-metrics.ts';

let logger: Logger | undefined;

runProcess(
  async ({ onStop }) => {
    const config = loadPollerConfig();
    // Null when WEBSUB_PUBLIC_BASE_URL is unset; a ConfigError when it is set without a usable secret.
    const websub = websubSettings(config);
    // Every poll appends its articles and its poll record: KafkaJS's record encoding, made cheaper
    // (KafkaJS's own was a tenth of the poller's main thread).
    installRecordEncoding();
    logger = createLogger('poller', config.LOG_LEVEL);
    let policy;
    try {
      policy = createOutboundUrlPolicy({
        allow: config.OUTBOUND_ALLOW_LIST,
        dnsCacheMs: config.OUTBOUND_DNS_CACHE_SECONDS * 1000,
      });
    } catch (error) {
      // The policy's message already names the setting.
      throw new ConfigError([(error as Error).message]);
    }

    // Auto-pipelining: the commands the polls in flight issue in one turn of the event loop go out in
    // one write, instead of a write (and a wake-up of Redis) per command.
    const redis = new Redis(config.REDIS_URL, { maxRetriesPerRequest: 2, enableAutoPipelining: true });
    const kafka = createKafka({
      brokers: config.KAFKA_BROKERS,
      clientId: `${config.KAFKA_CLIENT_ID}-poller`,
      logger,
    });
    const codec = new EventCodec(createSchemaRegistry(config.SCHEMA_REGISTRY_URL));
    const producer = await EventProducer.connect(kafka, codec);
    const appends = new PollAppends(
      codec,
      new AppendBatcher((records) => producer.sendRawBatch(records), 1_000, {
        ms: config.POLLER_APPEND_LINGER_MS,
        records: 500,
      }),
    );
    const metrics = await workerOps('poller', config, logger, onStop);
    const fetcher = new FeedFetcher({
      userAgent: config.POLLER_USER_AGENT,
      policy,
      connectTimeoutMs: config.FEED_CONNECT_TIMEOUT_MS,
      totalTimeoutMs: config.FEED_TOTAL_TIMEOUT_MS,
      maxBodyBytes: config.FEED_MAX_BODY_BYTES,
      maxRedirects: config.FEED_MAX_REDIRECTS,
      perHostConcurrency: config.FEED_PER_HOST_CONCURRENCY,
    });
    const prefix = config.REDIS_KEY_PREFIX;
    // The memory of emitted articles, and its mark (seen-memory.ts): if Redis loses it, polls claim nothing
    // until it has been rebuilt from the log, instead of emitting every article in the feeds again.
    const memoryStopped = new AbortController();
    const seen = new SeenArticles(redis, {
      ttlSeconds: config.DEDUPE_TTL_DAYS * 24 * 60 * 60,
      prefix: `${prefix}seen:`,
      mark: `${prefix}seen-memory`,
      onLost: () =>
        void memory.ensure().catch((error: unknown) => {
          if (!memoryStopped.signal.aborted)
            log.error({ err: error }, "rebuilding the poller's memory failed");
        }),
    });
    const state = new PollStateStore(redis, `${prefix}poll:`);
    const log = logger;
    const memory = new SeenMemory({
      redis,
      mark: `${prefix}seen-memory`,
      lock: `${prefix}seen-memory:rebuild`,
      rebuild: () =>
        config.POLLER_REBUILD_MEMORY
          ? rebuildSeenMemory({
              kafka,
              codec,
              seen,
              topic: topicNames.articlesDiscovered,
              ttlSeconds: config.DEDUPE_TTL_DAYS * 24 * 60 * 60,
              logger: log,
              clock: Date.now,
            })
          : // Asked to start afresh: marked whole as it is, and what the feeds hold is emitted again.
            Promise.resolve({ events: 0, written: 0, skipped: 0, ranges: [] }),
      logger: log,
      signal: memoryStopped.signal,
    });
    onStop(async () => memoryStopped.abort(new Error('the poller is stopping')));
    const loopDelay = watchLoopDelay(log, config.POLLER_LOOP_DELAY_REPORT_SECONDS * 1000);
    const parsePool =
      config.POLLER_PARSE_WORKERS > 0
        ? new FeedParsePool({
            size: config.POLLER_PARSE_WORKERS,
            timeoutMs: config.POLLER_PARSE_TIMEOUT_MS,
            onWorkerLost: (reason) => log.warn({ reason }, 'feed parse worker replaced'),
          })
        : null;
    const parse = parserFor({ pool: parsePool, offThreadBytes: config.POLLER_PARSE_OFF_THREAD_BYTES });

    // What a poll and a WebSub push share: the same parse, dedupe, bound on revisions and topics.
    const ingestion: PushDependencies = {
      parse,
      producer: appends,
      seen,
      revisions: {
        perDay: config.POLLER_UPDATES_PER_DAY,
        minIntervalMs: config.POLLER_UPDATE_MIN_INTERVAL_SECONDS * 1000,
      },
      state,
      logger: log,
      clock: Date.now,
      unhealthyAfter: config.POLLER_UNHEALTHY_AFTER,
    };

    // WebSub (services/websub/): the callback server takes pushed content into the same dedupe and topics
    // as a poll; the keeper subscribes sources whose polls name a hub. Any poller can answer any hub:
    // subscriptions live in Redis and each hub.secret is derived from the shared master key.
    let keeper: SubscriptionKeeper | null = null;
    if (websub !== null) {
      const counted = websubMetrics(metrics);
      const store = new SubscriptionStore(redis, `${prefix}websub:`);
      const hub = createHubClient({
        policy,
        userAgent: config.POLLER_USER_AGENT,
        timeoutMs: websub.hubTimeoutMs,
      });
      keeper = new SubscriptionKeeper({
        store,
        hub,
        settings: websub,
        metrics: counted,
        logger: log,
        clock: Date.now,
      });
      const callback = new WebsubCallback({
        store,
        settings: websub,
        timing: timingOf(websub),
        ingest: async (source, body, contentType) => {
          const pushed = await ingestPushedFeed(source, body, contentType, ingestion);
          return pushed.ok
            ? { ok: true, newItems: pushed.poll.new_items }
            : { ok: false, reason: pushed.reason };
        },
        metrics: counted,
        logger: log,
        clock: Date.now,
        onVerified: (sourceId) => followLease(sourceId, false),
      });
      // The poller serves no other HTTP: its metrics go on the callback server.
      const server = await startCallbackServer({
        host: websub.listenHost,
        port: websub.listenPort,
        callback,
        maxBodyBytes: websub.maxBodyBytes,
        metrics: counted,
        registry: metrics,
        logger: log,
      });
      onStop(async () => {
        await server.close();
        await hub.close();
      });
      log.info({ listening: server.url, publicBaseUrl: websub.publicBaseUrl }, 'websub callback listening');
    }
    const subscriptions = keeper;
    // For the adaptive interval (poll-interval.ts): a source with a lease in force is polled only as a
    // safety net, and when its subscription is due for renewal. Spread, so that it is simply unused by
    // a poller without that hook.
    const websubHooks =
      subscriptions === null
        ? {}
        : {
            websubLease: (sourceId: string) => subscriptions.lease(sourceId),
            // Not awaited: a slow hub must not hold a poll slot; the keeper records what the hub answered.
            onHubs: (source: Source, found: { hubs: string[]; selfUrl: string | null }) => {
              subscriptions
                .ensure(source, found)
                .then(() => followLease(source.source_id, true))
                .catch((error: unknown) =>
                  log.warn({ sourceId: source.source_id, err: error }, 'websub subscription upkeep failed'),
                );
            },
          };

    /**
     * A poll that asks a hub for a lease chooses its next poll before the hub has answered, as for a source
     * without one (hours away, for a quiet feed), and the hub may grant a shorter lease: once it is known
     * (the hub's verification, here or at another poller), this source's next poll is brought forward to
     * its renewal (never sooner than the minimum interval). `recheck`: not verified yet, so look again when
     * the hub should have (the verification may reach another poller); once only, so a hub that never
     * answers costs one Redis read, not a poll.
     */
    let schedulerMade: PollScheduler | undefined = undefined;
    function followLease(sourceId: string, recheck: boolean): void {
      if (subscriptions === null) return;
      void subscriptions
        .upkeep(sourceId)
        .then((next) => {
          if (next === null) return;
          // (A verification that comes while the poller starts finds no scheduler yet: its first poll of
          // the source, soon, sees the lease.)
          if (!next.pending)
            schedulerMade?.bringForward(
              sourceId,
              Math.max(next.at, Date.now() + intervals.minSeconds * 1000),
            );
          else if (recheck)
            setTimeout(() => followLease(sourceId, false), Math.max(0, next.at - Date.now())).unref();
        })
        .catch((error: unknown) => log.warn({ sourceId, err: error }, 'websub lease follow-up failed'));
    }
    const intervals = intervalSettings(config);
    const lock = new SourceLock(redis, config.FEED_TOTAL_TIMEOUT_MS + 30_000, `${prefix}lock:poll:`);
    // Following a feed that moved for good (feed-move.ts): the sources' own command, which reads the topic
    // for the source's latest version and for a source already at the new URL, under the lock POST
    // /v1/sources takes for that URL (services/sources/feed-url-lock.ts). Once in a feed's life, so
    // reading the whole (compacted) sources topic for it is cheap.
    const registry = new SourceRegistry({ kafka, codec, producer });
    const urlLock = new RedisMutex({
      redis,
      prefix: feedUrlLockPrefix(prefix),
      holdMs: 60_000,
      waitMs: 15_000,
      onRedisError: (error) =>
        log.warn(
          { err: (error as Error).message },
          'Redis unreachable: a source is moved without the URL lock',
        ),
    });
    const moves = {
      afterPolls: config.POLLER_MOVE_AFTER_POLLS,
      move: (source: Source, to: string) =>
        urlLock.run(feedUrlLockKey(to), () => registry.move(source.source_id, source.feed_url, to)),
    };
    const scheduler = new PollScheduler({
      concurrency: config.POLLER_CONCURRENCY,
      startsPerSecond: config.POLLER_MAX_POLLS_PER_SECOND,
      startBurst: config.POLLER_POLL_BURST,
      // While the memory is rebuilt (seen-memory.ts), polls wait for it instead of each failing.
      ready: () => memory.ready(),
      logger: log,
      // Taking a source's lock reads its poll state in the same command.
      lock: { acquire: (id) => lock.acquireReading(id, state), release: (id) => lock.release(id) },
      poll: async (source, previous) => {
        const { poll } = await pollSource(
          source,
          {
            fetch: (request) => fetcher.fetch(request),
            ...ingestion,
            intervals,
            moves,
            nextPollAt: (_source, failures, retryAfterMs, intervalSeconds) =>
              Date.now() +
              nextPollDelay({
                intervalMs: intervalSeconds * 1000,
                consecutiveFailures: failures,
                retryAfterMs,
                random: Math.random(),
              }),
            ...websubHooks,
          },
          previous,
        );
        return poll.next_poll_at ?? Date.now() + source.poll_interval_seconds * 1000;
      },
    });
    schedulerMade = scheduler;

    // A source a tenant added is polled while a tenant subscribes to it (source-followers.ts).
    const followers = await SourceFollowers.start({ kafka, codec, producer, logger: log, metrics });
    onStop(() => followers.stop());
    const followed = new FollowedSources(
      scheduler,
      (source) => followers.wanted(source),
      (source) => {
        log.info(
          { sourceId: source.source_id },
          'no tenant subscribes to this source a tenant added: not polled until one does',
        );
        subscriptions
          ?.unsubscribe(source.source_id, source.version)
          .catch((error: unknown) =>
            log.warn({ sourceId: source.source_id, err: error }, 'websub unsubscription failed'),
          );
      },
    );
    followers.onFollowChange((sourceId) => followed.followChanged(sourceId));
    await followers.ready();

    const runner = new ConsumerRunner<Source>({
      kafka,
      codec,
      producer,
      logger: log,
      groupId: config.POLLER_GROUP,
      topics: [topicNames.sources],
      fromBeginning: true,
      commitOffsets: false,
      metrics,
      onAssignment: (assigned) =>
        followed.retainPartitions(assigned.find((a) => a.topic === topicNames.sources)?.partitions ?? []),
      handler: async ({ key, value, partition }) => {
        if (value === null) {
          if (key) followed.remove(key);
        } else followed.upsert(partition, value);
        // A source removed or paused no longer wants pushes: unsubscribe, best effort, in the background.
        const gone = value === null ? key : value.active ? null : value.source_id;
        if (subscriptions !== null && gone)
          subscriptions
            .unsubscribe(gone, value?.version ?? null)
            .catch((error: unknown) =>
              log.warn({ sourceId: gone, err: error }, 'websub unsubscription failed'),
            );
      },
    });

    onStop(async () => {
      await producer.disconnect();
      await fetcher.close();
      await parsePool?.close();
      redis.disconnect();
      loopDelay.stop();
    });
    onStop(async () => {
      await runner.stop();
      await scheduler.stop();
    });
    // Before the first poll: a poller started on an empty Redis rebuilds (or waits for) the memory first.
    await memory.ensure();
    await runner.start();
    scheduler.start();
    log.info(
      {
        group: config.POLLER_GROUP,
        concurrency: config.POLLER_CONCURRENCY,
        parseWorkers: config.POLLER_PARSE_WORKERS,
        intervals,
      },
      'poller started',
    );
  },
  { logger: () => logger! },
);
