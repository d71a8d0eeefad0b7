// One poll of one source, start to finish: conditional GET, parse, normalise,
// dedupe, append the new articles, and record the outcome on
// news.feed-polls.v1. Everything that can go wrong with the *feed* becomes a
// recorded outcome; only our own infrastructure failing (Kafka, Redis) throws.
import { randomUUID } from 'node:crypto';
import type {
  ArticleDiscovered,
  FeedPoll,
  FeedPollStatus,
  Source,
} from '../runtime/events/types.generated.ts';
import type { EventProducer } from '../runtime/kafka/producer.ts';
import { topicNames } from '../runtime/kafka/topics.ts';
import type { Logger } from '../runtime/logger.ts';
import type { FetchOutcome, FetchRequest } from '../feeds/fetcher/feed-fetcher.ts';
import { normaliseFeed } from '../feeds/normalise/normalise-item.ts';
import { FeedParseError } from '../feeds/parser/errors.ts';
import type { ParsedFeed } from '../feeds/parser/types.ts';
import type { PollStateStore } from './poll-state.ts';
import type { SeenArticles } from './seen-articles.ts';

export interface PollDependencies {
  fetch: (request: FetchRequest) => Promise<FetchOutcome>;
  parse: (body: Uint8Array, contentType: string | null) => ParsedFeed;
  producer: EventProducer;
  seen: SeenArticles;
  state: PollStateStore;
  logger: Logger;
  clock: () => number;
  /** Failures in a row after which the source is reported unhealthy. */
  unhealthyAfter: number;
  /** When to poll next, given the failure streak and the server's Retry-After. */
  nextPollAt: (source: Source, consecutiveFailures: number, retryAfterMs: number | null) => number;
}

export interface PollResult {
  poll: FeedPoll;
  articles: ArticleDiscovered[];
}

/** Reasons kept per poll: enough to diagnose a feed, bounded so one broken feed cannot bloat the record. */
const maxSkippedReasons = 5;

interface Outcome {
  status: FeedPollStatus;
  httpStatus: number | null;
  itemsSeen: number;
  articles: ArticleDiscovered[];
  skipped: string[];
  etag: string | null;
  lastModified: string | null;
  error: string | null;
  retryAfterMs: number | null;
}

export async function pollSource(source: Source, deps: PollDependencies): Promise<PollResult> {
  const startedAt = deps.clock();
  const previous = await deps.state.get(source.source_id);
  const fetched = await deps.fetch({
    url: source.feed_url,
    etag: previous.etag,
    lastModified: previous.lastModified,
  });
  const outcome = await interpret(fetched, source, previous, deps, startedAt);

  const failed = outcome.status === 'failed' || outcome.status === 'refused';
  const consecutiveFailures = failed ? previous.consecutiveFailures + 1 : 0;
  await deps.state.set(source.source_id, {
    etag: outcome.etag,
    lastModified: outcome.lastModified,
    consecutiveFailures,
  });

  const finishedAt = deps.clock();
  const poll: FeedPoll = {
    poll_id: randomUUID(),
    source_id: source.source_id,
    feed_url: source.feed_url,
    status: outcome.status,
    http_status: outcome.httpStatus,
    items_seen: outcome.itemsSeen,
    new_items: outcome.articles.length,
    skipped_items: outcome.skipped.length,
    skipped_reasons: outcome.skipped.slice(0, maxSkippedReasons),
    etag: outcome.etag,
    last_modified: outcome.lastModified,
    duration_ms: Math.max(0, finishedAt - startedAt),
    error_reason: outcome.error,
    started_at: startedAt,
    consecutive_failures: consecutiveFailures,
    healthy: consecutiveFailures < deps.unhealthyAfter,
    next_poll_at: deps.nextPollAt(source, consecutiveFailures, outcome.retryAfterMs),
    occurred_at: finishedAt,
  };
  await deps.producer.send(topicNames.feedPolls, [{ key: source.source_id, value: poll }]);
  if (failed)
    deps.logger.info(
      { sourceId: source.source_id, status: poll.status, reason: poll.error_reason },
      'poll failed',
    );
  return { poll, articles: outcome.articles };
}

async function interpret(
  fetched: FetchOutcome,
  source: Source,
  previous: { etag: string | null; lastModified: string | null },
  deps: PollDependencies,
  discoveredAt: number,
): Promise<Outcome> {
  const kept = { etag: previous.etag, lastModified: previous.lastModified };
  switch (fetched.kind) {
    case 'refused':
      return {
        ...kept,
        status: 'refused',
        httpStatus: null,
        itemsSeen: 0,
        articles: [],
        skipped: [],
        error: fetched.reason,
        retryAfterMs: null,
      };
    case 'failed':
      return {
        ...kept,
        status: 'failed',
        httpStatus: fetched.status,
        itemsSeen: 0,
        articles: [],
        skipped: [],
        error: fetched.reason,
        retryAfterMs: fetched.retryAfterMs,
      };
    case 'not_modified':
      return {
        etag: fetched.etag ?? previous.etag,
        lastModified: fetched.lastModified ?? previous.lastModified,
        status: 'not_modified',
        httpStatus: 304,
        itemsSeen: 0,
        articles: [],
        skipped: [],
        error: null,
        retryAfterMs: null,
      };
    case 'ok': {
      let feed: ParsedFeed;
      try {
        feed = deps.parse(fetched.body, fetched.contentType);
      } catch (error) {
        if (!(error instanceof FeedParseError)) throw error;
        // A feed we cannot read is a failed poll; forget the validators so the next poll refetches it whole.
        return {
          etag: null,
          lastModified: null,
          status: 'failed',
          httpStatus: fetched.status,
          itemsSeen: 0,
          articles: [],
          skipped: [],
          error: `feed could not be parsed: ${error.reason}`,
          retryAfterMs: null,
        };
      }
      const { articles, skipped } = await appendNew(feed, source, deps, discoveredAt);
      return {
        etag: fetched.etag,
        lastModified: fetched.lastModified,
        status: 'ok',
        httpStatus: fetched.status,
        itemsSeen: feed.items.length,
        articles,
        skipped,
        error: null,
        retryAfterMs: null,
      };
    }
  }
}

/** Normalises every item, keeps those never seen before, and appends them. */
async function appendNew(
  feed: ParsedFeed,
  source: Source,
  deps: PollDependencies,
  discoveredAt: number,
): Promise<{ articles: ArticleDiscovered[]; skipped: string[] }> {
  const byId = new Map<string, ArticleDiscovered>();
  const skipped: string[] = [];
  for (const normalised of normaliseFeed(feed, source, discoveredAt)) {
    if ('skipped' in normalised) skipped.push(normalised.skipped);
    else if (!byId.has(normalised.article.article_id))
      byId.set(normalised.article.article_id, normalised.article);
  }
  if (byId.size === 0) return { articles: [], skipped };
  const claimed = await deps.seen.claim([...byId.keys()]);
  const fresh = [...byId.values()].filter((a) => claimed.has(a.article_id));
  if (fresh.length === 0) return { articles: [], skipped };
  try {
    await deps.producer.send(
      topicNames.articlesDiscovered,
      fresh.map((a) => ({ key: a.article_id, value: a })),
    );
  } catch (error) {
    await deps.seen.release(claimed).catch(() => undefined);
    throw error;
  }
  await deps.seen.confirm(claimed);
  return { articles: fresh, skipped };
}
