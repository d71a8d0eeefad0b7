// The matcher's batch handler: the enrichments of one fetched batch are matched against every active
// monitor, and the alerts appended together; the consumer runner commits the batch's offsets after that.
import type { ClickHouse } from '../runtime/clickhouse/client.ts';
import type { Alert, ArticleEnriched } from '../runtime/events/types.generated.ts';
import type { BatchHandler } from '../runtime/kafka/consumer.ts';
import { DependencyUnavailableError } from '../runtime/kafka/errors.ts';
import type { EventProducer } from '../runtime/kafka/producer.ts';
import { topicNames } from '../runtime/kafka/topics.ts';
import type { Logger } from '../runtime/logger.ts';
import { alertsFor, type ArticleFacts, type MonitorSet } from './alert-raiser.ts';
import { readArticleFacts } from './article-facts.ts';

export interface MatcherOptions {
  clickhouse: ClickHouse;
  producer: Pick<EventProducer, 'send'>;
  monitors: MonitorSet;
  logger: Logger;
  /**
   * An enrichment can arrive before the projector has written its article: wait this long (from the
   * enrichment) for the read model, then match what the enrichment itself says.
   */
  articleWaitMs: number;
  clock?: () => number;
}

export function matcherHandler(options: MatcherOptions): BatchHandler<ArticleEnriched> {
  const clock = options.clock ?? Date.now;
  return async (events) => {
    const enrichments = events.flatMap((e) => (e.value ? [e.value] : []));
    if (enrichments.length === 0 || options.monitors.current().byId.size === 0) return;
    const facts = await readArticleFacts(options.clickhouse, [
      ...new Set(enrichments.map((e) => e.article_id)),
    ]);
    const now = clock();
    const alerts: Alert[] = [];
    for (const enrichment of enrichments) {
      let article: ArticleFacts | undefined = facts.get(enrichment.article_id);
      if (!article) {
        if (now - enrichment.occurred_at < options.articleWaitMs)
          throw new DependencyUnavailableError(
            `the read model does not show article ${enrichment.article_id} yet`,
          );
        options.logger.warn(
          { articleId: enrichment.article_id },
          'article not in the read model; matching its enrichment alone',
        );
        article = {
          articleId: enrichment.article_id,
          title: '',
          url: '',
          summary: enrichment.summary ?? '',
          content: '',
          audioUrl: null,
          sourceId: '',
          sourceName: '',
          publishedAt: enrichment.enriched_at,
          category: enrichment.category ?? '',
          language: enrichment.language,
        };
      }
      alerts.push(...alertsFor(enrichment, article, options.monitors, now));
    }
    if (alerts.length === 0) return;
    await options.producer.send(
      topicNames.alerts,
      alerts.map((value) => ({ key: value.alert_id, value })),
    );
    options.logger.info({ alerts: alerts.length, articles: enrichments.length }, 'alerts raised');
  };
}
