// One discovered article -> one enrichment event, succeeded or failed. A provider failure is retried
// with backoff a bounded number of times and then recorded as a failed enrichment, so one article
// the provider cannot handle delays its partition by at most the retry budget and never blocks it.
import type { ArticleDiscovered, ArticleEnriched } from '../runtime/events/types.generated.ts';
import { DependencyUnavailableError } from '../runtime/kafka/errors.ts';
import type { Logger } from '../runtime/logger.ts';
import { retrying, type Random, type Sleep } from '../runtime/retry.ts';
import {
  EnrichmentRejectedError,
  type ArticleText,
  type EnrichmentProvider,
  type RelatedArticle,
  type SummaryLength,
} from '../intelligence/provider.ts';
import { relatedWindow, type RelatedQuery } from '../intelligence/related-articles.ts';
import { failedEnrichment, succeededEnrichment } from '../intelligence/enrichment-event.ts';
import type { ReaderField } from '../feeds/normalise/reader-fields.ts';

export interface ProviderRetry {
  /** Calls of the provider before the enrichment is recorded as failed. */
  attempts: number;
  /** Pauses between the calls grow from this to maxBackoffMs, with full jitter (runtime/retry.ts). */
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
  sleep?: Sleep;
  /** The jitter of the pauses between provider calls. */
  random?: Random;
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

/** The fields of an article its enrichment reads (articleText): only a change of these is enriched again. */
export const enrichedFields: readonly ReaderField[] = ['title', 'summary', 'content'];

/**
 * Whether a discovered article is enriched: every first sighting, and a later revision only when the
 * text the enrichment read changed. A revision that moved only the author or the date would cost a
 * provider call (with a remote provider, a paid one) for the same answer; the enrichment of the earlier
 * revision stays the latest.
 */
export function needsEnrichment(article: ArticleDiscovered): boolean {
  return (
    article.revision <= 1 ||
    article.changed_fields.some((field) => (enrichedFields as readonly string[]).includes(field))
  );
}

export async function enrichArticle(
  article: ArticleDiscovered,
  deps: EnrichArticleDependencies,
): Promise<ArticleEnriched> {
  const clock = deps.clock ?? Date.now;
  const retry = deps.retry ?? defaultProviderRetry;
  const text = articleText(article);
  const failed = (reason: string): ArticleEnriched =>
    failedEnrichment(article, reason, deps.provider, clock());

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

  const enriched = await retrying(
    () =>
      deps.provider.enrich(text, {
        length: deps.length ?? 'medium',
        related,
        publishedAt: new Date(article.published_at),
      }),
    {
      policy: {
        maxAttempts: retry.attempts,
        initialBackoffMs: retry.initialBackoffMs,
        maxBackoffMs: retry.maxBackoffMs,
      },
      // A text the provider rejects fails the same way every time; an unavailable dependency is the
      // consumer's to wait for.
      classify: (error) =>
        error instanceof EnrichmentRejectedError || error instanceof DependencyUnavailableError
          ? 'give-up'
          : 'retry',
      sleep: deps.sleep,
      random: deps.random,
      onFailure: ({ error, attempt, next }) => {
        if (next.kind === 'retry')
          deps.logger.info(
            { articleId: article.article_id, provider: deps.provider.name, attempt, reason: reasonOf(error) },
            'enrichment attempt failed; retrying',
          );
      },
    },
  );
  if (enriched.kind === 'done') return succeededEnrichment(article, enriched.value, clock());
  const { error, attempts } = enriched;
  if (error instanceof DependencyUnavailableError) throw error;
  const reason = reasonOf(error);
  const context = { articleId: article.article_id, provider: deps.provider.name, attempt: attempts, reason };
  if (error instanceof EnrichmentRejectedError) {
    deps.logger.warn(context, 'enrichment rejected');
    return failed(reason);
  }
  deps.logger.warn(context, 'enrichment failed; recording the failure');
  return failed(`provider failed after ${attempts} attempts: ${reason}`);
}

const reasonOf = (error: unknown): string => (error as Error)?.message ?? String(error);
