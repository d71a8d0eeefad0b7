// The one interface every enrichment provider implements (docs/architecture.md, "Providers"): the embedded
// methods that work offline, and an OpenAI-compatible server when configured. Providers do no
// I/O of their own besides talking to their model: the articles a context is built from are
// looked up by the caller (the enricher or the API) and handed in as data.
import type { Category } from '../runtime/categories.ts';
import type { EntityType } from '../runtime/events/types.generated.ts';

export const summaryLengths = ['short', 'medium', 'long'] as const;
export type SummaryLength = (typeof summaryLengths)[number];

/** The tones `POST /api/v1/summarize` accepts (docs/http-api.md, "Intelligence"). */
export const summaryTones = ['professional', 'neutral', 'casual', 'executive'] as const;
export type SummaryTone = (typeof summaryTones)[number];

/** The text to work on: an article from the read model, or text posted to the API. */
export interface ArticleText {
  title: string;
  /** Plain text, paragraphs separated by blank lines or newlines. */
  text: string;
  /** ISO 639-1 when known (the feed said so, or detection ran); providers may detect it themselves. */
  language?: string | null;
}

/** Another article in the read model, in the same story or naming one of the same entities. */
export interface RelatedArticle {
  id: string;
  title: string;
  /** Display name of its source. */
  source: string;
  publishedAt: Date;
  /** The entities and keywords it shares with the article, most telling first. */
  sharedTerms: string[];
  /** Its own summary when it has been enriched, else null. */
  summary: string | null;
}

export interface Entity {
  name: string;
  type: EntityType;
  /** Importance to the text in [0, 1]. */
  salience: number;
  mentions: number;
}

export interface Sentiment {
  label: 'positive' | 'neutral' | 'negative' | 'mixed';
  /** In [-1, 1]. */
  score: number;
}

/** What news.articles.enriched.v1 carries for a succeeded enrichment. */
export interface Enrichment {
  summary: string;
  /** Background from the related articles handed in, citing them; null when there were none. */
  context: string | null;
  /** Ids of the related articles the context cites: always a subset of those handed in. */
  contextArticleIds: string[];
  insights: string[];
  sentiment: Sentiment;
  entities: Entity[];
  keywords: string[];
  category: Category | null;
  language: string | null;
  readingTimeSeconds: number;
  provider: string;
  model: string;
}

export interface EnrichOptions {
  length: SummaryLength;
  related: readonly RelatedArticle[];
  /**
   * When the article was published, if it is one: whether what the context cites came before or after it
   * (the window reaches a little past it: related-articles.ts). Absent for a text posted to the API.
   */
  publishedAt?: Date;
  signal?: AbortSignal;
}

/** For readers learning from a text (POST /v1/analyze). */
export interface Education {
  keyTerms: { term: string; explanation: string }[];
  /** Null where no formula fits the text: a language written in another script than Latin, without one of its own. */
  readingLevel: {
    /** US school grade (Flesch-Kincaid), rounded to one decimal. */
    grade: number;
    /** Flesch reading ease, 0..100, higher is easier. */
    ease: number;
    label: 'elementary' | 'middle school' | 'high school' | 'college' | 'graduate';
  } | null;
  questions: string[];
}

export interface SummarizeOptions {
  length: SummaryLength;
  tone: SummaryTone;
  signal?: AbortSignal;
}

export interface EnrichmentProvider {
  /** "embedded", "openai": recorded on every enrichment. */
  readonly name: string;
  /** Model or method version, e.g. "embedded-1", "gpt-4o-mini". */
  readonly model: string;
  enrich(article: ArticleText, options: EnrichOptions): Promise<Enrichment>;
  summarize(article: ArticleText, options: SummarizeOptions): Promise<{ summary: string; tone: SummaryTone }>;
  educate(article: ArticleText, options: { signal?: AbortSignal }): Promise<Education>;
}

/**
 * A provider gave up on a text for a reason retrying will not change (the model answered something
 * that is not our schema, the text is empty): the enricher records a failed enrichment at once.
 * Anything else thrown is taken as transient and retried with backoff.
 */
export class EnrichmentRejectedError extends Error {
  constructor(
    message: string,
    readonly details?: string,
  ) {
    super(message);
    this.name = 'EnrichmentRejectedError';
  }
}
