// GET /v1/articles and GET /v1/articles/{id}: every parameter of Sets A and B,
// plus q (words) and cursor (stable keyset paging).
import { z } from 'zod';
import type { SearchField } from '../articles/article-query.ts';
import { categories } from '../../runtime/categories.ts';
import { ApiError, invalidParameter, notFound } from '../../runtime/api-error.ts';
import {
  categoryParam,
  enumInAnyCase,
  enumWithAliases,
  dateRangeParam,
  entityParam,
  languageParam,
  limitParam,
  cursorListOffsetParam,
  cursorParam,
  searchInParam,
  searchParam,
  sentimentLabels,
  sentimentParam,
  sourceParam,
} from '../http/params.ts';
import { defineRoute, type RouteSpec } from '../http/route.ts';
import { offsetPaging } from '../http/paging.ts';
import { decodeCursor } from './article-query.ts';
import type { ArticleStore } from './article-store.ts';
import { articlePublisherSchema } from '../../feeds/normalise/article-publisher.ts';

const listQuery = z.object({
  category: categoryParam.optional(),
  source: sourceParam.optional(),
  language: languageParam.optional(),
  date_range: dateRangeParam.optional(),
  q: searchParam.optional(),
  search_in: searchInParam.optional(),
  entity: entityParam.optional(),
  sentiment: sentimentParam.optional(),
  story: z.string().min(1).max(64).optional().meta({
    description:
      "Only the articles of this story (`story_id`, as in GET /v1/stories); a story merged into another gives that one's articles.",
  }),
  collapse: enumInAnyCase(['story'])
    .optional()
    .meta({
      description:
        '`story`: one article per story, its newest that matches the other parameters (and every article ' +
        'not yet in a story). Stories are made by the clusterer: see GET /v1/stories.',
    }),
  sort_by: enumWithAliases(['published_at', 'relevance'], {}, 'published_at').meta({
    description:
      '`published_at` (default): newest first. `relevance`: most relevant to `q` first (BM25 over the ' +
      'fields `search_in` names, the title counting double; equal relevance, newest first); needs `q`, ' +
      'and pages with `offset` (no `next_cursor`). The content is not indexed and adds nothing to it: an ' +
      'article found by its content alone ranks after the others, and `search_in=content` alone is refused.',
  }),
  limit: limitParam(100, 20),
  offset: cursorListOffsetParam,
  cursor: cursorParam(
    'Opaque position returned as `paging.next_cursor`: the next page starts after the last article of ' +
      'the previous one, so a walk returns every article once even while new ones arrive.',
  ),
});

const time = z.string().meta({ description: 'ISO 8601 UTC timestamp', example: '2026-11-20T08:30:00Z' });

export const articleListItem = z
  .object({
    id: z.string(),
    title: z.string(),
    summary: z.string().meta({ description: "The feed's own summary (plain text)." }),
    ai_summary: z.string().meta({
      description:
        "AI summary. Until the article's enrichment is stored (seconds after discovery), the embedded " +
        "summarizer's choice of sentences from the feed's summary; the detail's `enrichment` is null until then.",
    }),
    audio_url: z.string().meta({
      description:
        'Signed, expiring URL of the narration (headline and summary, mp3), needing no API key: the ' +
        "file's once the article is narrated, else the article's narration URL " +
        '(GET /v1/articles/{id}/audio), which narrates it on request and redirects to the file.',
    }),
    source: z.string().meta({ description: 'Display name of the source.' }),
    source_id: z.string(),
    published_at: time.meta({
      description:
        "Publication time (ISO 8601 UTC) of the article's first revision: its place in the list, which a " +
        'later revision never moves (see updated_at).',
      example: '2026-11-20T08:30:00Z',
    }),
    language: z.string().nullable().meta({ description: 'ISO 639-1, null when unknown.' }),
    category: z.enum(categories),
    url: z.string().meta({ description: 'Canonical URL of the article.' }),
    revision: z
      .number()
      .int()
      .min(1)
      .meta({
        description:
          'Which revision the article is shown in: 1 as first seen, +1 for each later change of its title, ' +
          'summary, content, author or date in the feed. Every field shows the latest revision.',
      }),
    updated_at: time.nullable().meta({
      description: 'When the latest revision was found (revision 2 and later); null on revision 1.',
    }),
    story_id: z
      .string()
      .nullable()
      .meta({
        description:
          'The story the article is part of (GET /v1/stories/{id}): the same event as reported by every outlet. ' +
          'Null until the clusterer has placed it, usually seconds after its enrichment.',
      }),
    publisher: articlePublisherSchema,
  })
  .meta({ id: 'ArticleListItem' });

export const paging = offsetPaging
  .extend({
    next_cursor: z
      .string()
      .nullable()
      .meta({
        description:
          'Where the next page starts, for `cursor` (with the same filters): null on the last page and ' +
          'where the order has no cursor (`sort_by=relevance`). A walk by cursor returns each item once.',
      }),
  })
  .meta({ id: 'Paging' });

export const articleList = z
  .object({ articles: z.array(articleListItem), paging })
  .meta({ id: 'ArticleList' });

export const articleDetail = articleListItem
  .extend({
    content: z.string().meta({ description: 'Full article text as the feed gave it (plain text).' }),
    author: z.string().nullable(),
    image_url: z.string().nullable(),
    original_url: z.string(),
    discovered_at: time.meta({
      description: 'When the article was first found in its feed (ISO 8601 UTC).',
      example: '2026-11-20T08:31:00Z',
    }),
    enrichment: z
      .object({
        summary: z.string().nullable(),
        context: z.string().nullable(),
        context_article_ids: z
          .array(z.string())
          .meta({ description: 'Articles in the read model the context cites, in the order cited.' }),
        insights: z.array(z.string()),
        sentiment: z
          .object({
            label: z.enum(sentimentLabels),
            score: z.number().nullable().meta({ description: 'From -1 (negative) to 1 (positive).' }),
          })
          .nullable(),
        entities: z.array(
          z.object({
            name: z.string(),
            type: z.enum(['person', 'organization', 'place', 'other']).meta({
              description: '`other`: a product, an event, a work; the `entity` filter finds every type.',
            }),
          }),
        ),
        keywords: z.array(z.string()),
        category: z
          .string()
          .nullable()
          .meta({ description: "The classifier's category; may differ from the feed's (`category` above)." }),
        language: z.string().nullable().meta({ description: 'Detected language, ISO 639-1.' }),
        reading_time_seconds: z.number().int().nullable(),
        provider: z.string(),
        model: z.string(),
        enriched_at: time,
      })
      .nullable()
      .meta({ description: 'The latest successful AI enrichment, null until there is one.' }),
  })
  .meta({ id: 'ArticleDetail' });

/** How long a client is asked to wait for an article the live stream announced before the read model has it. */
const announcedRetrySeconds = 2;

export function articleRoutes(
  store: ArticleStore,
  /** Whether the live stream announced an article lately (the read model may be a moment behind it). */
  stream: { announced: (articleId: string) => boolean } = { announced: () => false },
  /**
   * The story that holds a story's articles now (StoryStore.currentId): a story merged into another
   * answers with that one's articles, as GET /v1/stories/{id} answers with that story.
   */
  currentStory: (storyId: string) => Promise<string | null> = async (id) => id,
): RouteSpec[] {
  return [
    defineRoute({
      method: 'get',
      path: '/v1/articles',
      operationId: 'listArticles',
      tag: 'Articles',
      scope: 'read:feeds',
      summary: 'List articles, newest first (or most relevant first)',
      description:
        'Sorted by `published_at` descending, then `id` descending (or by relevance to `q` with ' +
        '`sort_by=relevance`). Page with `limit`/`offset`, or follow `paging.next_cursor` for a walk that ' +
        'stays stable while new articles arrive.',
      query: listQuery,
      responses: { 200: { description: 'A page of articles', schema: articleList } },
      handler: async (ctx, { query }) => {
        const after = query.cursor === undefined ? undefined : decodeCursor(query.cursor);
        if (after === null) throw invalidParameter('cursor', 'is not a cursor returned by this API');
        if (query.search_in && !query.q)
          throw invalidParameter('search_in', 'needs q, the words to look for in those fields');
        if (query.sort_by === 'relevance') {
          if (!query.q) throw invalidParameter('sort_by', 'relevance needs q, the words to be relevant to');
          if (after)
            throw invalidParameter('cursor', 'cannot be used with sort_by=relevance; page with offset');
          // Every article would score 0 and the order be newest first, looking ranked when it is not.
          if (query.search_in && !query.search_in.some((f) => f !== 'content'))
            throw invalidParameter(
              'sort_by',
              'relevance is ranked by the words in the title and summary, which search_in=content leaves out; add title or summary to search_in, or sort by published_at',
            );
        }
        const page = await store.list(
          {
            categories: query.category,
            languages: query.language,
            sources: query.source,
            dateRange: query.date_range,
            search: query.q,
            searchIn: query.search_in as SearchField[] | undefined,
            entities: query.entity,
            sentiments: query.sentiment,
            storyId:
              query.story === undefined ? undefined : ((await currentStory(query.story)) ?? query.story),
          },
          { limit: query.limit, offset: query.offset, after, collapse: query.collapse, sort: query.sort_by },
        );
        ctx.body = {
          articles: page.items,
          paging: {
            limit: query.limit,
            offset: query.offset,
            returned: page.items.length,
            has_more: page.hasMore,
            next_offset: page.hasMore && !after ? query.offset + query.limit : null,
            next_cursor: page.nextCursor,
          },
        };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/v1/articles/{id}',
      operationId: 'getArticle',
      tag: 'Articles',
      scope: 'read:feeds',
      summary: 'One article with its full text',
      params: z.object({ id: z.string().min(1).max(200).meta({ description: 'Article id' }) }),
      responses: { 200: { description: 'The article', schema: articleDetail } },
      errors: ['not_found'],
      handler: async (ctx, { params }) => {
        const article = await store.get(params.id);
        const quoted = JSON.stringify(params.id.slice(0, 200));
        // The stream reads Kafka and the read model is written from it a moment later: an article a
        // client just got in article.published is not there yet, and a bare 404 read as "no such article".
        if (!article && stream.announced(params.id))
          throw new ApiError(
            'not_found',
            `article ${quoted} was published moments ago and is not readable yet; retry after ${announcedRetrySeconds} seconds`,
            { 'Retry-After': String(announcedRetrySeconds) },
          );
        if (!article) throw notFound(`no article with id ${quoted}`);
        ctx.body = article;
      },
    }),
  ];
}
