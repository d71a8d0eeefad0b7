// article.updated: every later revision of an article (news.articles.discovered.v1 with revision > 1)
// becomes one pending delivery job per webhook (of any tenant) that subscribes to article.updated and
// whose filter the revised article passes (passesFilter, as article.published).
//
// The trigger is the discovered revision, not its re-enrichment: a revision that moved only the author
// or the date is not enriched again (enricher/enrich-article.ts, needsEnrichment), and its readers must
// hear of it all the same; a corrected headline should not wait for a model call, nor be lost when that
// call fails. So the payload is the feed's own fields of the revision (what changed, and the new
// values), and the filter takes the classifier's category and language from the article's latest
// successful enrichment when it has one, else only the feed's.
//
// The delivery id is derived from (article.updated, article and revision, webhook): a replay appends the
// same delivery again, which receivers dedupe on `webhook-id`, and each revision is a delivery of its own.
import { isoSecond } from '../runtime/iso-second.ts';
import type { ClickHouse } from '../runtime/clickhouse/client.ts';
import { latestVersions } from '../runtime/clickhouse/latest-versions.ts';
import { inList, sql } from '../runtime/clickhouse/literal.ts';
import type { ArticleDiscovered, Webhook, WebhookDelivery } from '../runtime/events/types.generated.ts';
import type { BatchHandler } from '../runtime/kafka/consumer.ts';
import type { EventProducer } from '../runtime/kafka/producer.ts';
import { topicNames } from '../runtime/kafka/topics.ts';
import { ARTICLE_UPDATED } from '../webhooks/event-types.ts';
import { passesFilter, type Classification } from './article-fan-out.ts';
import { firstDeliveryJob, unavailableOnError } from './fan-out.ts';
import type { WebhookDirectory } from './webhook-directory.ts';
import { articlePublisher } from '../feeds/normalise/article-publisher.ts';

/** The event id of one revision's deliveries (a delivery's event_id): `<article_id>:<revision>`. */
export const revisionEventId = (article: Pick<ArticleDiscovered, 'article_id' | 'revision'>) =>
  `${article.article_id}:${article.revision}`;

/** The article.updated body (services/webhooks/payloads.ts describes it). */
export function articleUpdatedPayload(
  article: ArticleDiscovered,
  classification: Classification | null,
  at: Date,
): string {
  return JSON.stringify({
    event: ARTICLE_UPDATED,
    timestamp: at.toISOString(),
    data: {
      article_id: article.article_id,
      revision: article.revision,
      changed_fields: article.changed_fields,
      title: article.title,
      url: article.url,
      source: article.source_name,
      source_id: article.source_id,
      publisher: articlePublisher(article.publisher_name, article.publisher_url),
      author: article.author,
      published_at: isoSecond(article.published_at),
      updated_at: isoSecond(article.discovered_at),
      category: article.category ?? 'general',
      classifier_category: classification?.category ?? null,
      language: article.language ?? classification?.language ?? null,
      summary: article.summary,
    },
  });
}

/** The category and language of each article's latest successful enrichment (the read model). */
export async function readClassifications(
  clickhouse: ClickHouse,
  articleIds: readonly string[],
): Promise<Map<string, Classification>> {
  if (articleIds.length === 0) return new Map();
  const latest = latestVersions({
    table: 'article_enrichments',
    key: 'article_id',
    columns: ['category', 'language'],
    where: [sql`article_id IN ${inList(articleIds)} AND status = 'succeeded'`],
  });
  const rows = await clickhouse.query<{
    article_id: string;
    category: string | null;
    language: string | null;
  }>(sql`SELECT article_id, category, language FROM ${latest}`);
  return new Map(rows.map((r) => [r.article_id, { category: r.category, language: r.language }]));
}

export interface ArticleUpdateFanOutDeps {
  directory: Pick<WebhookDirectory, 'catchUp' | 'subscribersOf'>;
  /** The category and language of each article's latest successful enrichment, where it has one. */
  classifications: (articleIds: readonly string[]) => Promise<Map<string, Classification>>;
  producer: Pick<EventProducer, 'send'>;
  clock?: () => Date;
}

export function articleUpdateFanOutHandler(deps: ArticleUpdateFanOutDeps): BatchHandler<ArticleDiscovered> {
  const clock = deps.clock ?? (() => new Date());
  return async (events) => {
    const revisions = events.flatMap((e) => (e.value && e.value.revision > 1 ? [e.value] : []));
    if (revisions.length === 0) return;
    await unavailableOnError('reading news.webhooks.v1', () => deps.directory.catchUp());
    const webhooks = deps.directory.subscribersOf(ARTICLE_UPDATED);
    if (webhooks.length === 0) return;
    const classified = await deps.classifications([...new Set(revisions.map((a) => a.article_id))]);
    const now = clock();
    const jobs = revisions.flatMap((article) =>
      updateJobs(article, classified.get(article.article_id) ?? null, webhooks, now),
    );
    if (jobs.length === 0) return;
    await unavailableOnError(`appending to ${topicNames.webhookDeliveries}`, () =>
      deps.producer.send(
        topicNames.webhookDeliveries,
        jobs.map((job) => ({ key: job.webhook_id, value: job })),
      ),
    );
  };
}

/** The first-attempt jobs of one revision, one per webhook whose filter it passes, due now. */
export function updateJobs(
  article: ArticleDiscovered,
  classification: Classification | null,
  webhooks: readonly Webhook[],
  now: Date,
): WebhookDelivery[] {
  const facts = {
    title: article.title,
    summary: article.summary,
    content: article.content,
    sourceId: article.source_id,
    // As the projector files it (projector/rows.ts): no category is "general".
    category: article.category ?? 'general',
    language: article.language,
  };
  const classifier = classification ?? { category: null, language: null };
  const event = {
    type: ARTICLE_UPDATED,
    id: revisionEventId(article),
    payload: articleUpdatedPayload(article, classification, now),
  };
  return webhooks
    .filter((webhook) => passesFilter(webhook, facts, classifier))
    .map((webhook) => firstDeliveryJob(event, webhook, now));
}
