// The clusterer's decisions as the news.stories.v1 events that record them, and back. Both ways are
// exact (weights are doubles in Avro too), so a clusterer rebuilt from the topic holds the same numbers
// as the one that decided.
import type { StoryEvent } from '../runtime/events/types.generated.ts';
import type { StoryDecision } from './story-clusterer.ts';

export function storyEvent(decision: StoryDecision, occurredAt: number): StoryEvent {
  const none = {
    article_id: null,
    source_id: null,
    language: null,
    category: null,
    similarity: null,
    terms: [],
    distinct_terms: [],
    merged_into: null,
    article_ids: [],
    occurred_at: occurredAt,
  };
  switch (decision.type) {
    case 'opened':
    case 'joined':
      return {
        ...none,
        type: decision.type,
        story_id: decision.storyId,
        article_id: decision.articleId,
        source_id: decision.sourceId,
        language: decision.language,
        category: decision.category,
        article_at: decision.at,
        similarity: decision.similarity,
        terms: decision.vector.map(([term, weight]) => ({ term, weight })),
        distinct_terms: decision.terms,
      };
    case 'merged':
      return {
        ...none,
        type: 'merged',
        story_id: decision.storyId,
        article_at: decision.at,
        merged_into: decision.into,
        article_ids: decision.articleIds,
      };
    case 'closed':
      return { ...none, type: 'closed', story_id: decision.storyId, article_at: decision.at };
    case 'breaking':
      return {
        ...none,
        type: 'breaking',
        story_id: decision.storyId,
        article_at: decision.at,
        article_ids: decision.articleIds,
      };
  }
}

/** The decision an event records; null for a type this version does not know (`unknown`). */
export function storyDecision(event: StoryEvent): StoryDecision | null {
  switch (event.type) {
    case 'opened':
    case 'joined': {
      if (event.article_id === null || event.source_id === null)
        throw new Error(`story event ${event.type} of ${event.story_id} has no article`);
      const part = {
        storyId: event.story_id,
        articleId: event.article_id,
        sourceId: event.source_id,
        language: event.language,
        category: event.category,
        at: event.article_at,
        vector: event.terms.map((t): [string, number] => [t.term, t.weight]),
        terms: event.distinct_terms,
      };
      return event.type === 'opened'
        ? { type: 'opened', similarity: null, ...part }
        : { type: 'joined', similarity: event.similarity ?? 0, ...part };
    }
    case 'merged':
      if (event.merged_into === null)
        throw new Error(`merged story ${event.story_id} names no story it went into`);
      return {
        type: 'merged',
        storyId: event.story_id,
        into: event.merged_into,
        articleIds: event.article_ids,
        at: event.article_at,
      };
    case 'closed':
      return { type: 'closed', storyId: event.story_id, at: event.article_at };
    case 'breaking':
      return {
        type: 'breaking',
        storyId: event.story_id,
        articleIds: event.article_ids,
        at: event.article_at,
      };
    default:
      return null;
  }
}
