// The `data` of a news.breaking: what a webhook receiver gets in the payload's `data` and a stream client
// in a news.breaking event's `data` (services/api/stream), built in one place so the two never drift
// apart. `articles` are the story's articles when it became breaking, oldest first; `headline` is the
// first one's title.
import { isoSecond } from '../runtime/iso-second.ts';
import type { StoryEvent } from '../runtime/events/types.generated.ts';

/** What the data says of each article: both the dispatcher's read-model facts and the stream's have it. */
export interface BreakingArticle {
  articleId: string;
  title: string;
  url: string;
  sourceId: string;
  sourceName: string;
  /** Milliseconds since the epoch. */
  publishedAt: number;
}

export function breakingData(
  event: Pick<StoryEvent, 'story_id' | 'article_at'>,
  articles: readonly BreakingArticle[],
) {
  const ordered = [...articles].sort(
    (a, b) => a.publishedAt - b.publishedAt || (a.articleId < b.articleId ? -1 : 1),
  );
  const sources = new Map(ordered.map((a) => [a.sourceId, a.sourceName]));
  return {
    story_id: event.story_id,
    headline: ordered[0]?.title ?? '',
    detected_at: isoSecond(event.article_at),
    source_count: sources.size,
    sources: [...sources].map(([id, name]) => ({ id, name })),
    articles: ordered.map((a) => ({
      article_id: a.articleId,
      title: a.title,
      url: a.url,
      source: a.sourceName,
      source_id: a.sourceId,
      published_at: isoSecond(a.publishedAt),
    })),
  };
}
