// What a stream sends, built from the records of its topics: the event kind, the JSON body (the list
// item of GET /v1/articles, or the webhook payload's `data` for news.alert), and the facts a
// connection's filter is checked against. Pure: the tail (stream-tail.ts) feeds it decoded records.
import { isoSecond } from '../../runtime/iso-second.ts';
import type {
  Alert,
  ArticleDiscovered,
  ArticleEnriched,
  StoryEvent,
} from '../../runtime/events/types.generated.ts';
import { narrationUrl, type AudioUrls } from '../../audio/audio-urls.ts';
import { articlePublisher, type ArticlePublisher } from '../../feeds/normalise/article-publisher.ts';
import type { ArticleFacts } from '../../monitors/alert-raiser.ts';
import { alertData } from '../../webhooks/alert-data.ts';
import { breakingData } from '../../webhooks/breaking-data.ts';
import { provisionalAiSummary } from '../articles/provisional-summary.ts';
import { searchMatcher, type SearchExpression } from '../articles/search-expression.ts';

export const streamEventKinds = [
  'article.published',
  'article.updated',
  'article.enriched',
  'news.alert',
  'news.breaking',
] as const;
export type StreamEventKind = (typeof streamEventKinds)[number];

/** What filters look at: the article an event is about. */
export interface Subject {
  sourceId: string;
  /** Lowercased, as source names are compared case-insensitively. */
  sourceName: string;
  /** The feed's category, and the classifier's when it differs: either may match. */
  categories: readonly string[];
  language: string | null;
  /** Lowercased title and summary, for `q`. */
  text: string;
}

export interface StreamEvent {
  kind: StreamEventKind;
  /** The JSON body of the SSE `data` line. */
  data: string;
  subject: Subject | null;
  /** For an event about several articles (news.breaking): it passes a filter that one of them passes. */
  subjects?: readonly Subject[];
  /** Only this tenant may see it (news.alert); null: any tenant. */
  tenantId: string | null;
}

/** A stream connection's filters, as validated from its query string. */
export interface StreamFilter {
  kinds: ReadonlySet<StreamEventKind>;
  categories: readonly string[];
  /** Source ids as given and names lowercased: either may match. */
  sources: readonly string[];
  languages: readonly string[];
  /** The parsed `q`, tested on the title and the summary; null for none. */
  search: SearchExpression | null;
  tenantId: string;
}

export type EventMatcher = (event: StreamEvent) => boolean;

/**
 * The filter as a function, built once per connection. Article filters concern the article an event is
 * about; news.alert events are the tenant's own monitors' and only the tenant check applies to them.
 */
export function eventMatcher(filter: StreamFilter): EventMatcher {
  const sources = new Set(filter.sources.flatMap((s) => [s, s.toLowerCase()]));
  const search = filter.search ? searchMatcher(filter.search) : () => true;
  const passes = (subject: Subject) => {
    if (filter.categories.length > 0 && !subject.categories.some((c) => filter.categories.includes(c)))
      return false;
    if (sources.size > 0 && !sources.has(subject.sourceId) && !sources.has(subject.sourceName)) return false;
    if (filter.languages.length > 0 && (!subject.language || !filter.languages.includes(subject.language)))
      return false;
    return search(subject.text);
  };
  return (event) => {
    if (!filter.kinds.has(event.kind)) return false;
    if (event.tenantId !== null) return event.tenantId === filter.tenantId;
    if (event.subjects) return event.subjects.some(passes);
    return event.subject !== null && passes(event.subject);
  };
}

/** The facts of an article the stream keeps to filter and describe its later events. */
export interface StreamArticle {
  id: string;
  title: string;
  summary: string;
  sourceId: string;
  sourceName: string;
  /** Publication time of revision 1: where GET /v1/articles keeps the article. */
  publishedAt: number;
  /** When the latest revision was found; null on revision 1. */
  updatedAt: number | null;
  language: string | null;
  category: string;
  url: string;
  audioKey: string | null;
  /** The article's revision these facts are of. */
  revision: number;
  publisher: ArticlePublisher | null;
}

export function streamArticleOf(a: ArticleDiscovered): StreamArticle {
  return {
    id: a.article_id,
    title: a.title,
    summary: a.summary,
    sourceId: a.source_id,
    sourceName: a.source_name,
    publishedAt: a.revision > 1 ? (a.first_published_at ?? a.published_at) : a.published_at,
    updatedAt: a.revision > 1 ? a.discovered_at : null,
    language: a.language,
    // As the projector files it (projector/rows.ts): no category is "general".
    category: a.category ?? 'general',
    url: a.url,
    audioKey: null,
    revision: a.revision,
    publisher: articlePublisher(a.publisher_name, a.publisher_url),
  };
}

export function streamArticleFromFacts(f: ArticleFacts): StreamArticle {
  return {
    id: f.articleId,
    title: f.title,
    summary: f.summary,
    sourceId: f.sourceId,
    sourceName: f.sourceName,
    publishedAt: f.publishedAt,
    updatedAt: null,
    language: f.language,
    category: f.category,
    url: f.url,
    audioKey: f.audioKey,
    revision: f.revision,
    publisher: f.publisher,
  };
}

/**
 * What the filters look at: the article as GET /v1/articles filters it (its category is the feed's, not the
 * classifier's: matched by either, a filtered stream sent enrichments of articles whose publication it had
 * not sent, and that the list filtered the same way never held).
 */
function subjectOf(article: StreamArticle): Subject {
  return {
    sourceId: article.sourceId,
    sourceName: article.sourceName.toLowerCase(),
    categories: [article.category],
    language: article.language,
    text: `${article.title}\n${article.summary}`.toLowerCase(),
  };
}

/**
 * An article's audio_url as GET /v1/articles gives it: its file's when narrated, else its narration URL,
 * which narrates it when fetched. Null only without signing keys (unit tests that give none).
 */
const audioUrlOf = (article: StreamArticle, audio: AudioUrls | undefined): string | null =>
  narrationUrl({ articleId: article.id, audioKey: article.audioKey, audioAddress: null }, audio);

/** The list item of GET /v1/articles (articles/routes.ts, ArticleListItem). */
function listItemOf(
  article: StreamArticle,
  aiSummary: string | null,
  audioUrl: string | null,
  storyId: string | null,
) {
  return {
    id: article.id,
    title: article.title,
    summary: article.summary,
    ai_summary: aiSummary ?? provisionalAiSummary(article.title, article.summary),
    audio_url: audioUrl,
    source: article.sourceName,
    source_id: article.sourceId,
    published_at: isoSecond(article.publishedAt),
    revision: Math.max(1, article.revision),
    updated_at: article.updatedAt === null ? null : isoSecond(article.updatedAt),
    language: article.language,
    category: article.category,
    url: article.url,
    // A first sighting comes before the clusterer places the article (its story is in GET
    // /v1/articles/{id} seconds later); a later revision or enrichment names the story the stream saw
    // it placed in.
    story_id: storyId,
    publisher: article.publisher,
  };
}

/** article.published for a first sighting, article.updated (with what changed) for a later revision. */
export function discoveredEvent(a: ArticleDiscovered, audio?: AudioUrls, storyId?: string): StreamEvent {
  const article = streamArticleOf(a);
  const revision = a.revision;
  const item = listItemOf(article, null, audioUrlOf(article, audio), storyId ?? null);
  return revision > 1
    ? {
        kind: 'article.updated',
        data: JSON.stringify({ ...item, changed_fields: a.changed_fields }),
        subject: subjectOf(article),
        tenantId: null,
      }
    : {
        kind: 'article.published',
        data: JSON.stringify(item),
        subject: subjectOf(article),
        tenantId: null,
      };
}

/** article.enriched: the list item with the AI summary, and the enrichment as in GET /v1/articles/{id}. */
export function enrichedEvent(
  e: ArticleEnriched,
  article: StreamArticle,
  audio?: AudioUrls,
  storyId?: string,
): StreamEvent {
  return {
    kind: 'article.enriched',
    data: JSON.stringify({
      ...listItemOf(article, e.summary, audioUrlOf(article, audio), storyId ?? null),
      enrichment: {
        summary: e.summary,
        context: e.context,
        context_article_ids: e.context_article_ids,
        insights: e.insights,
        sentiment: e.sentiment ? { label: e.sentiment.label, score: e.sentiment.score } : null,
        entities: e.entities.map((entity) => ({ name: entity.name, type: entity.type })),
        keywords: e.keywords,
        category: e.category,
        language: e.language,
        reading_time_seconds: e.reading_time_seconds,
        provider: e.provider,
        model: e.model,
        enriched_at: isoSecond(e.enriched_at),
      },
    }),
    subject: subjectOf(article),
    tenantId: null,
  };
}

/**
 * news.breaking: the `data` of the webhook payload (webhooks/breaking-data.ts), for every tenant; it
 * passes a connection's filter when one of the story's articles does, as a webhook's filter does.
 */
export function breakingEvent(story: StoryEvent, articles: readonly StreamArticle[]): StreamEvent {
  return {
    kind: 'news.breaking',
    data: JSON.stringify(
      breakingData(
        story,
        articles.map((a) => ({ ...a, articleId: a.id })),
      ),
    ),
    subject: null,
    subjects: articles.map((a) => subjectOf(a)),
    tenantId: null,
  };
}

/** news.alert: the `data` of the webhook payload (webhooks/alert-data.ts), for the monitor's tenant only. */
export function alertEvent(alert: Alert, audio?: AudioUrls): StreamEvent {
  return {
    kind: 'news.alert',
    data: JSON.stringify(alertData(alert, audio)),
    subject: null,
    tenantId: alert.tenant_id,
  };
}
