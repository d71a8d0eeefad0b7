// One discovered article -> one enrichment event, succeeded or failed. A provider failure is retried
// with backoff a bounded number of times and then recorded as a failed enrichment, so one article
// the provider cannot handle delays its partition by at most the retry budget and never blocks it.
import type { ArticleDiscovered, ArticleEnriched } from '../runtime/events/types.generated.ts';
import { DependencyUnavailableError } from '../runtime/kafka/errors.ts';
import type { Logger } from '../runtime/logger.ts';
import {
  EnrichmentRejectedError,
  type ArticleText,
  type Enrichment,
  type EnrichmentProvider,
  type RelatedArticle,
  type SummaryLength,
} from '../intelligence/provider.ts';
import { relatedWindow, type RelatedQuery } from '../intelligence/related-articles.ts';

export interface ProviderRetry {
  /** Calls of the provider before the enrichment is recorded as failed. */
  attempts: number;
  initialBackoffMs: number;
  maxBackoffMs: number;
}

export const defaultProviderRetry: ProviderRetry = {
  attempts: 3,
  initialBackoffMs: 1_000,
  maxBackoffMs: 8_000,
};

export interface EnrichArticleDependencies {
  provider: EnrichmentProvider;
  /** The read-model lookup for context (RelatedArticles.find). */
  findRelated: (query: RelatedQuery) => Promise<RelatedArticle[]>;
  /** Entities and keywords to look related articles up by (the embedded extractor). */
  termsOf: (article: ArticleText) => { entities: string[]; keywords: string[] };
  logger: Logger;
  retry?: ProviderRetry;
  /** Summary length of the stored `ai_summary`. */
  length?: SummaryLength;
  /** Related articles cited in a context at most. */
  relatedLimit?: number;
  clock?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

/**
 * The text an article is enriched from: its full content when the feed gave one, else its summary,
 * else (a headline-only item) its title.
 */
export function articleText(article: ArticleDiscovered): ArticleText {
  const content = article.content.trim();
  const summary = article.summary.trim();
  const body = content.length >= summary.length ? content : summary;
  return { title: article.title, text: body || article.title.trim(), language: article.language };
}

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export async function enrichArticle(
  article: ArticleDiscovered,
  deps: EnrichArticleDependencies,
): Promise<ArticleEnriched> {
  const clock = deps.clock ?? Date.now;
  const retry = deps.retry ?? defaultProviderRetry;
  const sleep = deps.sleep ?? delay;
  const text = articleText(article);
  const failed = (reason: string): ArticleEnriched =>
    failedEnrichment(article.article_id, reason, deps.provider, clock());

  if (text.text === '') return failed('empty article text');

  // A read model that cannot be reached is not the article's fault: let the consumer wait for it
  // (DependencyUnavailableError) rather than record a failure or an enrichment without context.
  const terms = deps.termsOf(text);
  const related = await deps.findRelated({
    ...terms,
    excludeArticleId: article.article_id,
    excludeSourceId: article.source_id,
    // Coverage from the weeks before the article, up to when it was discovered.
    ...relatedWindow(
      new Date(article.published_at),
      new Date(Math.max(article.published_at, article.discovered_at)),
    ),
    limit: deps.relatedLimit ?? 3,
  });

  for (let attempt = 1; ; attempt++) {
    try {
      const enrichment = await deps.provider.enrich(text, { length: deps.length ?? 'medium', related });
      return succeededEnrichment(article.article_id, enrichment, clock());
    } catch (error) {
      if (error instanceof DependencyUnavailableError) throw error;
      const reason = (error as Error)?.message ?? String(error);
      const context = { articleId: article.article_id, provider: deps.provider.name, attempt };
      if (error instanceof EnrichmentRejectedError) {
        deps.logger.warn({ ...context, reason }, 'enrichment rejected');
        return failed(reason);
      }
      if (attempt >= retry.attempts) {
        deps.logger.warn({ ...context, reason }, 'enrichment failed; recording the failure');
        return failed(`provider failed after ${attempt} attempts: ${reason}`);
      }
      deps.logger.info({ ...context, reason }, 'enrichment attempt failed; retrying');
      const capped = Math.min(retry.maxBackoffMs, retry.initialBackoffMs * 2 ** (attempt - 1));
      await sleep(capped / 2 + Math.random() * (capped / 2));
    }
  }
}

export function succeededEnrichment(articleId: string, e: Enrichment, at: number): ArticleEnriched {
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
    occurred_at: at,
  };
}

export function failedEnrichment(
  articleId: string,
  reason: string,
  provider: Pick<EnrichmentProvider, 'name' | 'model'>,
  at: number,
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
    occurred_at: at,
  };
}
