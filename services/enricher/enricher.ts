// The enricher's batch handler: the discovered articles of one fetched batch are enriched a few at
// a time (bounded concurrency, so a slow provider is used in parallel without flooding it), and
// their enrichment events are appended together. The consumer runner commits the batch's offsets
// only after that append, so a crash re-enriches at most one batch: idempotent, since an article's
// later enrichment supersedes the earlier one and the embedded provider (or the OpenAI cache)
// answers the same text the same way. A later revision of an article is enriched again only when its
// text changed (needsEnrichment); one that moved only its author or date makes no provider call and
// appends nothing.
import { Counter, Histogram, type Registry } from 'prom-client';
import type { ArticleDiscovered, ArticleEnriched } from '../runtime/events/types.generated.ts';
import type { BatchHandler } from '../runtime/kafka/consumer.ts';
import type { EventProducer } from '../runtime/kafka/producer.ts';
import { topicNames } from '../runtime/kafka/topics.ts';
import { mapBounded } from '../runtime/map-bounded.ts';
import { enrichArticle, needsEnrichment, type EnrichArticleDependencies } from './enrich-article.ts';

export interface EnricherOptions extends EnrichArticleDependencies {
  producer: Pick<EventProducer, 'send'>;
  /** Articles enriched at once within a batch. */
  concurrency: number;
  metrics?: Registry;
}

export function enricherHandler(options: EnricherOptions): BatchHandler<ArticleDiscovered> {
  const counted = options.metrics
    ? {
        results: new Counter({
          name: 'enrichments_total',
          help: 'Enrichments recorded, by provider and status',
          labelNames: ['provider', 'status'],
          registers: [options.metrics],
        }),
        seconds: new Histogram({
          name: 'enrichment_seconds',
          help: 'Time to enrich one article, retries included',
          labelNames: ['provider'],
          buckets: [0.01, 0.05, 0.1, 0.5, 1, 2, 5, 10, 30, 60],
          registers: [options.metrics],
        }),
      }
    : undefined;

  return async (events, { heartbeat }) => {
    const articles = events.flatMap((e) => (e.value && needsEnrichment(e.value) ? [e.value] : []));
    if (articles.length === 0) return;
    const enriched = await mapBounded(articles, options.concurrency, async (article) => {
      const stop = counted?.seconds.startTimer({ provider: options.provider.name });
      const result = await enrichArticle(article, options);
      stop?.();
      counted?.results.inc({ provider: result.provider, status: result.status });
      await heartbeat();
      return result;
    });
    await options.producer.send(
      topicNames.articlesEnriched,
      enriched.map((value: ArticleEnriched) => ({ key: value.article_id, value })),
    );
  };
}
