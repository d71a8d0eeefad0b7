// The narrator's batch handler: the enrichments of one fetched batch are narrated a few at a time
// (bounded concurrency), and their narration events appended together; the consumer runner commits the
// batch's offsets only after that append. Every enrichment gets an outcome (succeeded, failed or
// skipped), which is also what the matcher waits for before it raises an alert with audio.
//
// Revisions: the enricher enriches a later revision of an article again only when its text changed, so
// only then does an enrichment come here again; it is narrated once the read model shows that revision
// (the new headline). Synthesis is content-addressed, so when the narration text itself (headline and AI
// summary) did not change, the narration finds the stored file and makes no provider call.
import { Counter, Histogram, type Registry } from 'prom-client';
import type { ClickHouse } from '../runtime/clickhouse/client.ts';
import type { ArticleEnriched, ArticleNarrated } from '../runtime/events/types.generated.ts';
import type { BatchHandler } from '../runtime/kafka/consumer.ts';
import { DependencyUnavailableError } from '../runtime/kafka/errors.ts';
import type { EventProducer } from '../runtime/kafka/producer.ts';
import { topicNames } from '../runtime/kafka/topics.ts';
import { mapBounded } from '../runtime/map-bounded.ts';
import { readArticleWords, type StoredWords } from '../narration/article-words.ts';
import { narrateArticle, type NarrateArticleDependencies } from '../narration/narrate-article.ts';
import type { ArticleWords } from '../narration/narration-text.ts';

export interface NarratorOptions extends NarrateArticleDependencies {
  clickhouse: ClickHouse;
  producer: Pick<EventProducer, 'send'>;
  /** Articles narrated at once within a batch. */
  concurrency: number;
  /**
   * An enrichment can arrive before the projector has written its article: wait this long (from the
   * enrichment) for the read model, then narrate what the enrichment itself says.
   */
  articleWaitMs: number;
  /**
   * Articles published longer ago than this are recorded as skipped, not narrated (0: narrate everything).
   * News is listened to while it is new; a feed that first appears with years of archive, or a narrator
   * started over a long backlog, would otherwise keep today's articles (and the alerts that wait for their
   * narration) waiting behind hours of old ones.
   */
  maxAgeMs: number;
  metrics?: Registry;
}

export function narratorHandler(options: NarratorOptions): BatchHandler<ArticleEnriched> {
  const clock = options.clock ?? Date.now;
  const counted = options.metrics
    ? {
        results: new Counter({
          name: 'narrations_total',
          help: 'Narrations recorded, by provider and status',
          labelNames: ['provider', 'status'],
          registers: [options.metrics],
        }),
        seconds: new Histogram({
          name: 'narration_seconds',
          help: 'Time to narrate one article (synthesis, encoding and storage; nothing when cached)',
          buckets: [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60, 300],
          registers: [options.metrics],
        }),
      }
    : undefined;

  return async (events, { heartbeat }) => {
    const enrichments = events.flatMap((e) => (e.value ? [e.value] : []));
    if (enrichments.length === 0) return;
    const stored = await readArticleWords(options.clickhouse, [
      ...new Set(enrichments.map((e) => e.article_id)),
    ]);
    const now = clock();
    // The enrichment of a later revision can arrive before the projector has written that revision:
    // wait for it too, or the narration would read out the headline the revision replaced.
    const missing = enrichments.find(
      (e) =>
        (stored.get(e.article_id)?.revision ?? 0) < e.revision && now - e.occurred_at < options.articleWaitMs,
    );
    if (missing)
      throw new DependencyUnavailableError(
        `the read model does not show revision ${missing.revision} of article ${missing.article_id} yet`,
      );

    const narrations = await mapBounded(enrichments, options.concurrency, async (enrichment) => {
      const article = stored.get(enrichment.article_id);
      if (article && options.maxAgeMs > 0 && now - article.publishedAt > options.maxAgeMs) {
        counted?.results.inc({ provider: options.defaultProvider, status: 'skipped' });
        return tooOld(enrichment.article_id, options, clock());
      }
      const words = wordsOf(enrichment, article);
      const stop = counted?.seconds.startTimer();
      const narrated = await narrateArticle(enrichment.article_id, words, options);
      stop?.();
      counted?.results.inc({ provider: narrated.provider, status: narrated.status });
      await heartbeat();
      return narrated;
    });
    await options.producer.send(
      topicNames.articlesNarrated,
      narrations.map((value: ArticleNarrated) => ({ key: value.article_id, value })),
    );
  };
}

function tooOld(articleId: string, options: NarratorOptions, at: number): ArticleNarrated {
  const hours = Math.round(options.maxAgeMs / 3_600_000);
  return {
    article_id: articleId,
    status: 'skipped',
    failure_reason: `published more than ${hours} hours ago (NARRATOR_MAX_AGE_HOURS)`,
    audio_url: null,
    audio_key: null,
    voice: null,
    format: null,
    duration_ms: null,
    characters: null,
    provider: options.defaultProvider,
    occurred_at: at,
  };
}

function wordsOf(enrichment: ArticleEnriched, stored: StoredWords | undefined): ArticleWords {
  const succeeded = enrichment.status === 'succeeded';
  return {
    title: stored?.title ?? '',
    summary: stored?.summary ?? '',
    content: stored?.content ?? '',
    aiSummary: succeeded ? enrichment.summary : null,
    // The enrichment's detection read the whole text; the feed's declaration comes next.
    language: (succeeded ? enrichment.language : null) ?? stored?.language ?? null,
  };
}
