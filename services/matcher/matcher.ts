// The matcher's batch handler: the enrichments of one fetched batch are matched against every active
// monitor, and the alerts appended together; the consumer runner commits the batch's offsets after that.
//
// Narration before matching: the narrator and the matcher both follow news.articles.enriched.v1, and a
// news.alert carries the article's narration (data.audio_url). So when an article matches a monitor
// and the read model has no narration outcome for it yet, the batch waits for one (a dependency wait: it
// uses up no attempts), but only up to `narrationWaitMs` after the enrichment; past that, or when the
// narration failed or was skipped, the alert goes without the narration's key, and its payload carries
// the article's narration URL instead, which the API resolves when it is fetched (webhooks/alert-data.ts).
// Articles that match nothing never wait.
//
// The article before matching: an enrichment can come before the projector has written its article, so
// the batch waits for the read model too, up to `articleWaitMs` (counted as runtime/clickhouse/
// read-model-wait.ts says), and then matches what the enrichment itself says: its summary and entities,
// and the URL and title of the article it names. Such an alert is poorer (no source, no article text to
// match on), so it is the exception.
//
// One alert per monitor and story: when two articles share a canonical URL (two feeds carrying one story),
// the first to raise an alert for a monitor claims the pair and the other raises none for it
// (monitors/alert-claims.ts). An article edited after it alerted a monitor does not alert it again.
//
// News, not archives: an article published more than `maxAgeMs` before it was found raises no alert.
import type { Alert, ArticleEnriched } from '../runtime/events/types.generated.ts';
import type { BatchHandler } from '../runtime/kafka/consumer.ts';
import { ReadModelWait } from '../runtime/clickhouse/read-model-wait.ts';
import { DependencyUnavailableError } from '../runtime/kafka/errors.ts';
import type { EventProducer } from '../runtime/kafka/producer.ts';
import { topicNames } from '../runtime/kafka/topics.ts';
import type { Logger } from '../runtime/logger.ts';
import { withoutRepeatedStories, type AlertClaims } from '../monitors/alert-claims.ts';
import { alertsFor, oldWhenFound, type ArticleFacts, type MonitorSet } from '../monitors/alert-raiser.ts';

export interface MatcherOptions {
  /** The read model's articles by id (monitors/article-facts.ts readArticleFacts). */
  readArticles: (ids: string[]) => Promise<Map<string, ArticleFacts>>;
  producer: Pick<EventProducer, 'send'>;
  monitors: MonitorSet;
  logger: Logger;
  /**
   * An enrichment can arrive before the projector has written its article: wait this long (from the
   * enrichment) for the read model, then match what the enrichment itself says.
   */
  articleWaitMs: number;
  /** How long an alert waits (from the enrichment) for the article's narration; 0 = never. */
  narrationWaitMs: number;
  /**
   * An article published longer than this before it was found raises no alert (oldWhenFound); 0 = no
   * limit.
   */
  maxAgeMs: number;
  /** Who holds each (monitor, article URL) pair; without it every matching article raises its alert. */
  claims?: AlertClaims;
  clock?: () => number;
}

export function matcherHandler(options: MatcherOptions): BatchHandler<ArticleEnriched> {
  const clock = options.clock ?? Date.now;
  const articleWait = new ReadModelWait(options.articleWaitMs, clock);
  return async (events) => {
    const enrichments = events.flatMap((e) => (e.value ? [e.value] : []));
    if (enrichments.length === 0 || options.monitors.current().byId.size === 0) return;
    const facts = await articleWait.read(() =>
      options.readArticles([...new Set(enrichments.map((e) => e.article_id))]),
    );
    const now = clock();
    const alerts: Alert[] = [];
    /** The revision whose enrichment raised each alert (its claim says which revision alerted). */
    const revisions = new Map<Alert, number>();
    /** Articles published long before they were found: matched against no monitor. */
    const old: string[] = [];
    for (const enrichment of enrichments) {
      let article: ArticleFacts | undefined = facts.get(enrichment.article_id);
      // The enrichment of a later revision waits for that revision too, so the alert names its title.
      if ((article?.revision ?? 0) < enrichment.revision && articleWait.waiting(enrichment.occurred_at, now))
        throw new DependencyUnavailableError(
          `the read model does not show revision ${enrichment.revision} of article ${enrichment.article_id} yet`,
        );
      if (!article) {
        options.logger.warn(
          { articleId: enrichment.article_id },
          'article not in the read model; matching its enrichment alone',
        );
        article = {
          articleId: enrichment.article_id,
          // Null only in enrichments written before they named their article.
          title: enrichment.article_title ?? '',
          url: enrichment.article_url ?? '',
          summary: enrichment.summary ?? '',
          content: '',
          narrated: false,
          audioUrl: null,
          audioKey: null,
          sourceId: '',
          sourceName: '',
          publisher: null,
          publishedAt: enrichment.enriched_at,
          discoveredAt: enrichment.enriched_at,
          category: enrichment.category ?? '',
          language: enrichment.language,
          revision: enrichment.revision,
        };
      }
      if (oldWhenFound(article, options.maxAgeMs)) {
        old.push(article.articleId);
        continue;
      }
      const raised = alertsFor(enrichment, article, options.monitors, now);
      if (raised.length > 0 && !article.narrated && now - enrichment.occurred_at < options.narrationWaitMs)
        throw new DependencyUnavailableError(
          `article ${enrichment.article_id} matches a monitor; waiting for its narration`,
        );
      for (const alert of raised) {
        alerts.push(alert);
        revisions.set(alert, enrichment.revision);
      }
    }
    if (old.length > 0)
      options.logger.info(
        { articles: old, maxAgeHours: options.maxAgeMs / 3_600_000 },
        'no alerts for articles published long before they were found (MATCHER_ALERT_MAX_AGE_HOURS)',
      );
    if (alerts.length === 0) return;
    const { raised, repeated, edited } = options.claims
      ? await withoutRepeatedStories(alerts, options.claims, (alert) => revisions.get(alert)!)
      : { raised: alerts, repeated: [], edited: [] };
    if (repeated.length > 0)
      options.logger.info(
        {
          repeated: repeated.map((a) => ({
            monitorId: a.monitor_id,
            articleId: a.article_id,
            url: a.article_url,
          })),
        },
        'no alert for articles whose URL another article already alerted these monitors of',
      );
    if (edited.length > 0)
      options.logger.info(
        { edited: edited.map((a) => ({ monitorId: a.monitor_id, articleId: a.article_id })) },
        'no second alert for edited articles that alerted these monitors already',
      );
    if (raised.length === 0) return;
    await options.producer.send(
      topicNames.alerts,
      raised.map((value) => ({ key: value.alert_id, value })),
    );
    options.logger.info({ alerts: raised.length, articles: enrichments.length }, 'alerts raised');
  };
}
