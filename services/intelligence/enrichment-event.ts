// An enrichment as the event downstream consumers read (news.articles.enriched.v1): succeeded, with
// what the provider found, or failed, with the reason. The enricher appends them; tests build them.
//
// Each names its article (URL and title of the revision enriched): a reader of the topic needs no join to
// say which article it is, and the matcher can raise a whole alert when the read model does not show the
// article yet (services/matcher/matcher.ts).
import type { ArticleEnriched } from '../runtime/events/types.generated.ts';
import type { Enrichment, EnrichmentProvider } from './provider.ts';

/** The article an enrichment is of: its id, and the URL, title and revision of the text enriched. */
export interface EnrichedArticle {
  article_id: string;
  url?: string;
  title?: string;
  /** The ArticleDiscovered.revision whose text was enriched (default 1). */
  revision?: number;
}

function articleFields(article: EnrichedArticle | string) {
  const a = typeof article === 'string' ? { article_id: article } : article;
  return {
    article_id: a.article_id,
    revision: a.revision ?? 1,
    article_url: a.url ?? null,
    article_title: a.title ?? null,
  };
}

/** `article`: the article enriched, or (in tests) only its id. */
export function succeededEnrichment(
  article: EnrichedArticle | string,
  e: Enrichment,
  at: number,
): ArticleEnriched {
  return {
    ...articleFields(article),
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
    occurred_at: at,
  };
}

export function failedEnrichment(
  article: EnrichedArticle | string,
  reason: string,
  provider: Pick<EnrichmentProvider, 'name' | 'model'>,
  at: number,
): ArticleEnriched {
  return {
    ...articleFields(article),
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
    occurred_at: at,
  };
}
