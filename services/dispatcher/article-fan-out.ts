// article.published: every newly enriched article becomes one pending delivery job per webhook (of any
// tenant) that subscribes to article.published and whose filter the article passes: breaking news. The
// article's facts come from the read model, since the enrichment event carries neither its text nor its
// source; the job's id is derived from article and webhook, so a re-enrichment or a replay appends the
// same delivery again, which receivers dedupe on `webhook-id`. Only the enrichment of an article's
// first revision publishes it; later revisions are article.updated (article-update-fan-out.ts).
import { isoSecond } from '../runtime/iso-second.ts';
import type { ClickHouse } from '../runtime/clickhouse/client.ts';
import type { ArticleEnriched, Webhook, WebhookDelivery } from '../runtime/events/types.generated.ts';
import type { BatchHandler } from '../runtime/kafka/consumer.ts';
import { ReadModelWait } from '../runtime/clickhouse/read-model-wait.ts';
import { DependencyUnavailableError } from '../runtime/kafka/errors.ts';
import type { EventProducer } from '../runtime/kafka/producer.ts';
import { topicNames } from '../runtime/kafka/topics.ts';
import type { Logger } from '../runtime/logger.ts';
import type { ArticleFacts } from '../monitors/alert-raiser.ts';
import { readArticleFacts } from '../monitors/article-facts.ts';
import { firstDeliveryJob } from './fan-out.ts';
import { narrationUrl, type AudioUrls } from '../audio/audio-urls.ts';
import { phrasePattern } from '../search/search-words.ts';
import { ARTICLE_PUBLISHED } from '../webhooks/event-types.ts';
import type { WebhookDirectory } from './webhook-directory.ts';

const fold = (text: string) => text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();

/** What a webhook's filter looks at: the feed's facts of the article, and its classifier's. */
export type FilteredArticle = Pick<
  ArticleFacts,
  'title' | 'summary' | 'content' | 'sourceId' | 'category' | 'language'
>;
export type Classification = Pick<ArticleEnriched, 'category' | 'language'>;

/**
 * Whether the article passes a webhook's filter: every non-empty list must hold; words as whole words (or
 * anywhere, in scripts written without spaces: phrasePattern).
 * The same for article.published and article.updated (article-update-fan-out.ts).
 */
export function passesFilter(
  webhook: Webhook,
  article: FilteredArticle,
  enrichment: Classification,
): boolean {
  const filter = webhook.filter;
  if (!filter) return true;
  const category = enrichment.category ?? article.category;
  if (
    filter.categories.length > 0 &&
    !filter.categories.includes(category) &&
    !filter.categories.includes(article.category)
  )
    return false;
  if (filter.source_ids.length > 0 && !filter.source_ids.includes(article.sourceId)) return false;
  const language = article.language ?? enrichment.language;
  if (filter.languages.length > 0 && (!language || !filter.languages.includes(language))) return false;
  if (filter.words.length > 0) {
    const text = fold(`${article.title}\n${article.summary}\n${article.content}`);
    const found = filter.words.some((word) => phrasePattern(fold(word)).test(text));
    if (!found) return false;
  }
  return true;
}

/**
 * The article.published body (services/webhooks/payloads.ts describes it). It is built when the article
 * is enriched, which is before the narrator (which follows the enrichments too) has usually finished:
 * `audio_url` is then the signed URL of the article's narration, which leads to the file once it exists.
 */
export function articlePayload(
  article: ArticleFacts,
  enrichment: ArticleEnriched,
  at: Date,
  audio?: AudioUrls,
): string {
  return JSON.stringify({
    event: ARTICLE_PUBLISHED,
    timestamp: at.toISOString(),
    data: {
      article_id: article.articleId,
      title: article.title,
      url: article.url,
      source: article.sourceName,
      source_id: article.sourceId,
      publisher: article.publisher,
      published_at: isoSecond(article.publishedAt),
      // As GET /v1/articles and the stream show it (the feed's; general without one); the classifier's
      // beside it, since the filter takes either.
      category: article.category || 'general',
      classifier_category: enrichment.category,
      language: article.language ?? enrichment.language,
      summary: enrichment.summary ?? article.summary,
      audio_url: narrationUrl(
        { articleId: article.articleId, audioKey: article.audioKey, audioAddress: article.audioUrl },
        audio,
      ),
    },
  });
}

export interface ArticleFanOutDeps {
  directory: Pick<WebhookDirectory, 'catchUp' | 'subscribersOf'>;
  clickhouse: ClickHouse;
  producer: Pick<EventProducer, 'send'>;
  logger: Logger;
  /** How long an enrichment waits for its article to reach the read model before it is skipped. */
  articleWaitMs: number;
  /** Writes data.audio_url (the narration's file, or the article's narration): unsigned addresses in production, signed at each attempt. */
  audio?: AudioUrls;
  clock?: () => Date;
}

export function articleFanOutHandler(deps: ArticleFanOutDeps): BatchHandler<ArticleEnriched> {
  const clock = deps.clock ?? (() => new Date());
  const articleWait = new ReadModelWait(deps.articleWaitMs, () => clock().getTime());
  return async (events) => {
    await deps.directory.catchUp();
    const webhooks = deps.directory.subscribersOf(ARTICLE_PUBLISHED);
    // Only successful enrichments are news worth pushing; without subscribers nothing is read at all.
    // A later revision's re-enrichment is not published again: its readers got article.updated when the
    // revision was found (article-update-fan-out.ts).
    const enriched = events.flatMap((e) =>
      e.value?.status === 'succeeded' && e.value.revision <= 1 ? [e.value] : [],
    );
    if (webhooks.length === 0 || enriched.length === 0) return;
    const facts = await articleWait.read(() =>
      readArticleFacts(deps.clickhouse, [...new Set(enriched.map((e) => e.article_id))]),
    );
    const now = clock();
    const jobs: WebhookDelivery[] = [];
    for (const enrichment of enriched) {
      const article = facts.get(enrichment.article_id);
      if (!article) {
        if (articleWait.waiting(enrichment.occurred_at, now.getTime()))
          throw new DependencyUnavailableError(
            `the read model does not show article ${enrichment.article_id} yet`,
          );
        deps.logger.warn(
          { articleId: enrichment.article_id },
          'article not in the read model; not published',
        );
        continue;
      }
      const payload = articlePayload(article, enrichment, now, deps.audio);
      for (const webhook of webhooks) {
        if (!passesFilter(webhook, article, enrichment)) continue;
        jobs.push(
          firstDeliveryJob({ type: ARTICLE_PUBLISHED, id: article.articleId, payload }, webhook, now),
        );
      }
    }
    if (jobs.length === 0) return;
    await deps.producer.send(
      topicNames.webhookDeliveries,
      jobs.map((job) => ({ key: job.webhook_id, value: job })),
    );
  };
}
