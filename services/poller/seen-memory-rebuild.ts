// The poller's memory of emitted articles (seen-articles.ts), rebuilt from what it emitted: the log of
// news.articles.discovered.v1. Redis only ever held a copy of what is in the log (each article's latest
// revision and what a reader saw in it), so the log can give it back: every event still within the
// memory's expiry, folded per article into the record the poller would have confirmed for it.
import type { Admin, Kafka } from 'kafkajs';
import type { ArticleDiscovered } from '../runtime/events/types.generated.ts';
import type { ConsumedEvent } from '../runtime/kafka/consumer.ts';
import type { EventCodec } from '../runtime/kafka/registry.ts';
import { eventsIn, partitionOffsets, replay, type PartitionRange } from '../runtime/kafka/replay.ts';
import type { Logger } from '../runtime/logger.ts';
import { fingerprintOf } from './article-fingerprint.ts';
import type { ArticleRecord } from './article-revision.ts';
import { updatesWithinDay } from './revision-bound.ts';
import { articleAlias, type SeenArticles } from './seen-articles.ts';

/**
 * Whether the feed gave the article its date. An undated item is published when it was found: revision
 * 1 carries its discovery time, and every later revision the first one's (article-revision.ts), which
 * no feed's own date is to the millisecond.
 */
export const datedEvent = (event: ArticleDiscovered): boolean =>
  event.published_at !== event.discovered_at && event.published_at !== event.first_discovered_at;

/**
 * What the poller remembered once `event` reached Kafka, given the record of the revision before it if
 * this rebuild has seen it (for the bound on updates a day; without it the bound starts afresh).
 */
export function recordOfEvent(event: ArticleDiscovered, previous?: ArticleRecord): ArticleRecord {
  const fingerprint = fingerprintOf(event, datedEvent(event));
  if (event.revision <= 1)
    return {
      revision: 1,
      fingerprint,
      firstPublishedAt: event.published_at,
      firstDiscoveredAt: event.discovered_at,
      lastRevisionAt: event.discovered_at,
      recentUpdates: [],
    };
  const at = event.discovered_at;
  return {
    revision: event.revision,
    fingerprint,
    firstPublishedAt: event.first_published_at ?? event.published_at,
    firstDiscoveredAt: event.first_discovered_at ?? at,
    lastRevisionAt: at,
    recentUpdates: [...(previous ? updatesWithinDay(previous, at) : []), at],
  };
}

/**
 * One batch of the log folded per article: the latest revision wins (the log's order within a
 * partition, where an article's events all are), with its expiry counted from when it was emitted, and
 * the alias of its latest revision (seen-articles.ts). Events past the expiry are left out: the memory would have forgotten them by now.
 */
export function foldEvents(
  events: readonly ArticleDiscovered[],
  now: number,
  ttlSeconds: number,
): Map<string, { record: ArticleRecord; expiresInSeconds: number; alias: string }> {
  const folded = new Map<string, { record: ArticleRecord; expiresInSeconds: number; alias: string }>();
  for (const event of events) {
    const expiresInSeconds = ttlSeconds - (now - event.discovered_at) / 1000;
    if (expiresInSeconds < 1) continue;
    const held = folded.get(event.article_id);
    if (held && held.record.revision > event.revision) continue;
    folded.set(event.article_id, {
      record: recordOfEvent(event, held?.record),
      expiresInSeconds,
      alias: articleAlias(event),
    });
  }
  return folded;
}

export interface RebuildDependencies {
  kafka: Kafka;
  codec: EventCodec;
  seen: Pick<SeenArticles, 'remember'>;
  /** news.articles.discovered.v1, under the process's topic prefix. */
  topic: string;
  /** How long the memory keeps an article (DEDUPE_TTL_DAYS): how far back the log is read. */
  ttlSeconds: number;
  logger: Logger;
  clock: () => number;
  /** How often progress is logged. */
  progressEveryMs?: number;
}

export interface RebuildSummary {
  /** Events read from the log. */
  events: number;
  /** Article records written (others were in the memory already, as new or newer). */
  written: number;
  /** Undecodable messages passed over (they are in the dead-letter topic). */
  skipped: number;
  /** The offsets read, per partition. */
  ranges: PartitionRange[];
}

/** Reads the log from the memory's horizon (now − TTL) to its end as it is now, and writes the records. */
export async function rebuildSeenMemory(deps: RebuildDependencies): Promise<RebuildSummary> {
  const admin = deps.kafka.admin();
  await admin.connect();
  let ranges: PartitionRange[];
  try {
    ranges = await rangesSince(admin, deps.topic, deps.clock() - deps.ttlSeconds * 1000);
  } finally {
    await admin.disconnect();
  }
  const total = eventsIn(ranges);
  let events = 0;
  let written = 0;
  let passed = 0;
  let reported = deps.clock();
  deps.logger.warn(
    { topic: deps.topic, events: total },
    "rebuilding the poller's memory of emitted articles from the log",
  );
  const result = await replay({
    kafka: deps.kafka,
    codec: deps.codec,
    logger: deps.logger,
    ranges,
    groupName: 'poller-memory-rebuild',
    project: async (batch: ConsumedEvent<unknown>[]) => {
      const articles = batch.map((e) => e.value as ArticleDiscovered);
      events += articles.length;
      // Partitions are replayed concurrently: add once the write has answered, not across the await.
      const remembered = await deps.seen.remember(foldEvents(articles, deps.clock(), deps.ttlSeconds));
      written += remembered;
    },
    onAdvance: (offsets) => {
      passed += offsets;
      if (deps.clock() - reported < (deps.progressEveryMs ?? 5_000)) return;
      reported = deps.clock();
      deps.logger.info({ read: passed, of: total }, "rebuilding the poller's memory: progress");
    },
  });
  return { events, written, skipped: result.skipped, ranges };
}

/** Each partition from its first event at or after `since` (or its end, if none) to its end now. */
async function rangesSince(admin: Admin, topic: string, since: number): Promise<PartitionRange[]> {
  const [offsets, starts] = await Promise.all([
    partitionOffsets(admin, [topic]),
    admin.fetchTopicOffsetsByTimestamp(topic, since),
  ]);
  const startOf = new Map(starts.map((s) => [s.partition, Number(s.offset)]));
  return offsets.map(({ partition, low, high }) => ({
    topic,
    partition,
    from: Math.min(high, Math.max(low, startOf.get(partition) ?? low)),
    to: high,
  }));
}
