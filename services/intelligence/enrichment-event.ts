// An enrichment as the event downstream consumers read (news.articles.enriched.v1): succeeded, with
// what the provider found, or failed, with the reason. The enricher appends them; tests build them.
import type { ArticleEnriched } from '../runtime/events/types.generated.ts';
import type { Enrichment, EnrichmentProvider } from './provider.ts';

/** `revision`: the ArticleDiscovered.revision whose text was enriched. */
export function succeededEnrichment(
  articleId: string,
  e: Enrichment,
  at: number,
  revision = 1,
): ArticleEnriched {
  return {
    article_id: articleId,
    status: 'succeeded',
    failure_reason: null,
    summary: e.summary,
    context: e.context,
    context_article_ids: e.contextArticleIds,
    insights: e.insights,
    sentiment: { label: e.sentiment.label, score: e.sentiment.score },
    entities: e.entities.map((x) => ({ ...x })),
    keywords: e.keywords,
    category: e.category,
    language: e.language,
    reading_time_seconds: e.readingTimeSeconds,
    provider: e.provider,
    model: e.model,
    enriched_at: at,
    revision,
    occurred_at: at,
  };
}

export function failedEnrichment(
  articleId: string,
  reason: string,
  provider: Pick<EnrichmentProvider, 'name' | 'model'>,
  at: number,
  revision = 1,
): ArticleEnriched {
  return {
    article_id: articleId,
    status: 'failed',
    // The reason is for people reading the topic; a provider's error can be long.
    failure_reason: reason.slice(0, 500),
    summary: null,
    context: null,
    context_article_ids: [],
    insights: [],
    sentiment: null,
    entities: [],
    keywords: [],
    category: null,
    language: null,
    reading_time_seconds: null,
    provider: provider.name,
    model: provider.model,
    enriched_at: at,
    revision,
    occurred_at: at,
  };
}
