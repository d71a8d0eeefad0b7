// The clusterer's batch handler: each enriched article is given a story (story-clusterer.ts) and the
// decisions are appended to news.stories.v1; the consumer runner commits the batch's offsets after.
//
// The clusterer's state lives in memory and is rebuilt from news.stories.v1 (restore) whenever this
// member takes over the work: at start, and after a rebalance that gave it the partitions. If a batch
// fails after its decisions changed the state, the state is thrown away and rebuilt from the topic
// before the batch is tried again, so memory never holds a decision the topic does not.
//
// An article decided before (a redelivered batch after a crash between append and commit, or the
// re-enrichment of a revision) is already in the rebuilt state and gets no new decision.
import type { ClickHouse } from '../runtime/clickhouse/client.ts';
import type { ArticleEnriched, StoryEvent } from '../runtime/events/types.generated.ts';
import type { BatchHandler } from '../runtime/kafka/consumer.ts';
import { ReadModelWait } from '../runtime/clickhouse/read-model-wait.ts';
import { DependencyUnavailableError } from '../runtime/kafka/errors.ts';
import type { EventProducer } from '../runtime/kafka/producer.ts';
import { topicNames } from '../runtime/kafka/topics.ts';
import type { Logger } from '../runtime/logger.ts';
import type { StoryClusterer } from '../stories/story-clusterer.ts';
import { storyEvent } from '../stories/story-events.ts';
import type { StoryArticle } from '../stories/story-vector.ts';
import type { ArticleFacts } from '../monitors/alert-raiser.ts';
import { readArticleFacts } from '../monitors/article-facts.ts';

export interface ClustererOptions {
  clickhouse: ClickHouse;
  producer: Pick<EventProducer, 'send'>;
  logger: Logger;
  /** A clusterer holding every decision now on news.stories.v1. */
  restore: () => Promise<StoryClusterer>;
  /** How long an enrichment waits (from when it was made) for its article in the read model. */
  articleWaitMs: number;
  clock?: () => number;
}

export interface ClustererHandler {
  handle: BatchHandler<ArticleEnriched>;
  /** Drops the state: the next batch rebuilds it from the topic (this member lost or regained the work). */
  forget(): void;
}

/** Characters of the lead the clusterer reads (story-vector.ts reads at most 600). */
const leadChars = 600;

export function clustererHandler(options: ClustererOptions): ClustererHandler {
  const clock = options.clock ?? Date.now;
  const articleWait = new ReadModelWait(options.articleWaitMs, clock);
  let state: StoryClusterer | undefined;

  const handle: BatchHandler<ArticleEnriched> = async (events) => {
    state ??= await options.restore();
    const clusterer = state;
    const enrichments = events.flatMap((e) => (e.value ? [e.value] : []));
    const fresh = enrichments.filter((e) => clusterer.storyOf(e.article_id) === undefined);
    if (fresh.length === 0) return;
    // The lead, source and dates: the enrichment event carries none of them (only the headline).
    const facts = await articleWait.read(() =>
      readArticleFacts(options.clickhouse, [...new Set(fresh.map((e) => e.article_id))], {
        narrations: false,
        contentChars: 2000,
      }),
    );
    const now = clock();
    for (const e of fresh)
      if (!facts.has(e.article_id) && articleWait.waiting(e.occurred_at, now))
        throw new DependencyUnavailableError(`the read model does not show article ${e.article_id} yet`);

    const appended: StoryEvent[] = [];
    try {
      for (const enrichment of fresh) {
        const article = storyArticle(enrichment, facts.get(enrichment.article_id));
        if (!facts.has(enrichment.article_id))
          options.logger.warn(
            { articleId: enrichment.article_id },
            'article not in the read model; clustering it on its enrichment alone',
          );
        for (const decision of clusterer.decide(article)) {
          if (!clusterer.apply(decision))
            throw new Error(
              `the clusterer could not apply its own ${decision.type} of story ${decision.storyId}`,
            );
          appended.push(storyEvent(decision, now));
        }
      }
      if (appended.length > 0)
        await options.producer.send(
          topicNames.stories,
          appended.map((value) => ({ key: value.story_id, value })),
        );
    } catch (error) {
      // Memory may now hold decisions the topic does not: rebuild from the topic before the retry.
      state = undefined;
      throw error;
    }
  };

  return {
    handle,
    forget: () => {
      state = undefined;
    },
  };
}

/** The article as the clusterer compares it: the outlet's own headline and lead, the enrichment's names. */
export function storyArticle(enrichment: ArticleEnriched, facts: ArticleFacts | undefined): StoryArticle {
  const succeeded = enrichment.status === 'succeeded';
  const lead = facts?.summary || facts?.content.slice(0, leadChars) || enrichment.summary || '';
  const language = enrichment.language || facts?.language || null;
  return {
    id: enrichment.article_id,
    sourceId: facts?.sourceId ?? 'unknown',
    language,
    at: facts ? Math.min(facts.publishedAt, facts.discoveredAt) : enrichment.occurred_at,
    title: facts?.title ?? enrichment.article_title ?? '',
    lead,
    entities: succeeded ? enrichment.entities.map((e) => e.name) : [],
    keywords: succeeded ? enrichment.keywords : [],
    category: (succeeded ? enrichment.category : null) || facts?.category || null,
  };
}
