// GET /v1/stories and GET /v1/stories/{id}: the stories the clusterer made (docs/stories.md), filtered
// like the articles.
import { z } from 'zod';
import type { SearchField } from '../articles/article-query.ts';
import { invalidParameter, notFound } from '../../runtime/api-error.ts';
import { decodeCursor } from '../articles/article-query.ts';
import { articleList, articleListItem, paging } from '../articles/routes.ts';
import type { ArticleStore } from '../articles/article-store.ts';
import {
  booleanParam,
  categoryParam,
  dateRangeParam,
  entityParam,
  languageParam,
  limitParam,
  cursorListOffsetParam,
  cursorParam,
  searchInParam,
  searchParam,
  sentimentParam,
  sourceParam,
} from '../http/params.ts';
import { offsetPage } from '../http/paging.ts';
import { defineRoute, type RouteSpec } from '../http/route.ts';
import { decodeStoryCursor } from './story-query.ts';
import type { StoryStore } from './story-store.ts';

const time = z.string().meta({ description: 'ISO 8601 UTC timestamp', example: '2026-11-20T08:30:00Z' });

export const story = z
  .object({
    id: z.string(),
    headline: z.string().meta({ description: 'The headline of the story’s first article.' }),
    summary: z
      .string()
      .meta({ description: 'The AI summary of the first article, or its feed summary before enrichment.' }),
    status: z.enum(['open', 'closed']).meta({
      description: '`open` while articles may still join; `closed` after the clusterer’s inactivity limit.',
    }),
    breaking_at: time.nullable().meta({
      description:
        'When the story became breaking news (docs/stories.md#breaking-news): the publication time of the ' +
        'article that brought it to the rule, or the time it was found if that was earlier (an item dated ' +
        'ahead of its finding), so it may precede first_seen. Null for a story that did not.',
    }),
    article_count: z.number().int().min(1),
    first_seen: time.meta({ description: 'Publication time of its first article.' }),
    last_seen: time.meta({ description: 'Publication time of its latest article.' }),
    lead_article_id: z.string().meta({ description: 'Its first article (GET /v1/articles/{id}).' }),
    sources: z
      .array(z.object({ id: z.string(), name: z.string() }))
      .meta({ description: 'Every source with an article in the story.' }),
    top_entities: z
      .array(z.object({ name: z.string(), type: z.string(), articles: z.number().int() }))
      .meta({ description: 'The (at most 5) people, organisations and places most of its articles name.' }),
  })
  .meta({ id: 'Story' });

const storyList = z.object({ stories: z.array(story), paging }).meta({ id: 'StoryList' });

const storyDetail = story
  .extend({
    articles: z.array(articleListItem).meta({ description: 'Its articles, newest first (a page of them).' }),
    paging: articleList.shape.paging,
  })
  .meta({ id: 'StoryDetail' });

const listQuery = z.object({
  category: categoryParam.optional(),
  source: sourceParam.optional(),
  language: languageParam.optional(),
  date_range: dateRangeParam.optional(),
  q: searchParam.optional(),
  search_in: searchInParam.optional(),
  entity: entityParam.optional(),
  sentiment: sentimentParam.optional(),
  breaking: booleanParam(
    '`true`: only the stories that became breaking news; `false`: only those that did not.',
  ).optional(),
  limit: limitParam(100, 20),
  offset: cursorListOffsetParam,
  cursor: cursorParam(
    'Opaque position returned as `paging.next_cursor`. A walk ranks the stories as its first page did ' +
      '(by the articles discovered by then), so it lists every story once even while articles join ' +
      'them; stories that begin during the walk are for the next one.',
  ),
});

export function storyRoutes(stories: StoryStore, articles: ArticleStore): RouteSpec[] {
  return [
    defineRoute({
      method: 'get',
      path: '/v1/stories',
      operationId: 'listStories',
      tag: 'Articles',
      scope: 'read:feeds',
      summary: 'List stories, most recently active first',
      description:
        'A story is one event as every outlet reported it: the articles the clusterer put together. The ' +
        'parameters filter the articles; a story is listed when one of its articles matches, ordered by ' +
        'its newest matching article. `article_count`, `sources` and the dates count all its articles.',
      query: listQuery,
      responses: { 200: { description: 'A page of stories', schema: storyList } },
      handler: async (ctx, { query }) => {
        const after = query.cursor === undefined ? undefined : decodeStoryCursor(query.cursor);
        if (after === null) throw invalidParameter('cursor', 'is not a story cursor returned by this API');
        if (query.search_in && !query.q)
          throw invalidParameter('search_in', 'needs q, the words to look for in those fields');
        const page = await stories.list(
          {
            categories: query.category,
            languages: query.language,
            sources: query.source,
            dateRange: query.date_range,
            search: query.q,
            searchIn: query.search_in as SearchField[] | undefined,
            entities: query.entity,
            sentiments: query.sentiment,
          },
          { limit: query.limit, offset: query.offset, breaking: query.breaking, after },
        );
        ctx.body = {
          stories: page.items,
          paging: {
            ...offsetPage(query, page.items.length, page.hasMore),
            next_offset: page.hasMore && !after ? query.offset + query.limit : null,
            next_cursor: page.nextCursor,
          },
        };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/v1/stories/{id}',
      operationId: 'getStory',
      tag: 'Articles',
      scope: 'read:feeds',
      summary: 'One story with its articles, newest first',
      description:
        'A story merged into another answers as the story that took its articles (the `id` in the answer ' +
        'is that story’s).',
      params: z.object({ id: z.string().min(1).max(64).meta({ description: 'Story id' }) }),
      query: z.object({
        limit: limitParam(100, 20),
        offset: cursorListOffsetParam,
        cursor: cursorParam('Opaque position returned as `paging.next_cursor`, for its next articles.'),
      }),
      responses: { 200: { description: 'The story', schema: storyDetail } },
      errors: ['not_found'],
      handler: async (ctx, { params, query }) => {
        const after = query.cursor === undefined ? undefined : decodeCursor(query.cursor);
        if (after === null) throw invalidParameter('cursor', 'is not a cursor returned by this API');
        const found = await stories.get(params.id);
        if (!found) throw notFound(`no story with id ${JSON.stringify(params.id)}`);
        const page = await articles.list(
          { storyId: found.id },
          { limit: query.limit, offset: query.offset, after },
        );
        ctx.body = {
          ...found,
          articles: page.items,
          paging: {
            ...offsetPage(query, page.items.length, page.hasMore),
            next_offset: page.hasMore && !after ? query.offset + query.limit : null,
            next_cursor: page.nextCursor,
          },
        };
      },
    }),
  ];
}
