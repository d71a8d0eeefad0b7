// GET|POST /api/v1/feeds/personalized: topics, limit, offset and format as query
// parameters or as a JSON body (a client may use either), validated by one schema.
import { z } from 'zod';
import { listItem, type ArticleStore } from '../articles/article-store.ts';
import { articleListItem, paging } from '../articles/routes.ts';
import {
  commaList,
  cursorListOffsetParam,
  cursorParam,
  enumWithAliases,
  wholeNumber,
} from '../http/params.ts';
import { defineRoute, type RouteSpec } from '../http/route.ts';
import { invalidParameter } from '../../runtime/api-error.ts';
import {
  decodeRankPosition,
  distinctTopics,
  encodeRankPosition,
  personalizedQuery,
  rankNewestFirst,
  rankingDescription,
  topicsKey,
  type RankedRow,
} from './personalized.ts';
import type { ClickHouse } from '../../runtime/clickhouse/client.ts';

const topic = z
  .string()
  .trim()
  .min(1, { error: 'a topic must not be empty' })
  .max(100, { error: 'a topic is at most 100 characters' })
  // A topic is found as whole words: "(" or "+" alone has none, and had matched every bracket.
  .regex(/[\p{L}\p{N}]/u, { error: 'a topic must contain at least one letter or digit' });

// commaList: `topics=a&topics=b` and `topics[]=a` are read as `topics=a,b` too (route.ts).
const topics = commaList(
  z
    .union([
      z.array(topic),
      // As a query parameter: comma-separated.
      z
        .string()
        .transform((s) =>
          s
            .split(',')
            .map((t) => t.trim())
            .filter(Boolean),
        )
        .pipe(z.array(topic)),
    ])
    // Counted as ranked: topics that differ only in case or spacing are one (distinctTopics).
    .transform(distinctTopics)
    .pipe(
      z
        .array(z.string())
        .min(1, { error: 'give at least one topic' })
        .max(10, { error: 'at most 10 topics' }),
    )
    .meta({
      minItems: 1,
      maxItems: 10,
      description:
        'Topics of interest, 1 to 10 of at most 100 characters each: an array in a JSON body, ' +
        'comma-separated (or the parameter repeated) as a query parameter, where an empty one is skipped.',
      example: ['economy', 'climate'],
    }),
);

const request = z
  .object({
    topics,
    limit: wholeNumber(
      z
        .number({ error: 'must be an integer from 1 to 100' })
        .int({ error: 'must be an integer from 1 to 100' })
        .min(1, { error: 'must be an integer from 1 to 100' })
        .max(100, { error: 'must be an integer from 1 to 100' }),
    )
      .prefault(20)
      .meta({ minimum: 1, maximum: 100 }),
    offset: cursorListOffsetParam,
    cursor: cursorParam(
      'Opaque position returned as `paging.next_cursor`, for the same topics: the next page starts after ' +
        'the last article of the previous one in the ranking as it stood at the first page (every page of ' +
        'the walk is scored at that moment), so a walk returns each article once even while new ones arrive. ' +
        'An article that arrives during the walk shows where its score places it: in a later page if it ' +
        'ranks below the walk, else only in a new walk.',
    ),
    format: enumWithAliases(['json'], {}, 'json').meta({
      description: 'json (the only format), in any case.',
    }),
  })
  .meta({ id: 'PersonalizedFeedRequest' });

const response = z
  .object({
    topics: z.array(z.string()),
    ranking: z.string().meta({ description: 'How the articles were ranked.' }),
    articles: z.array(
      articleListItem.extend({
        score: z.number().meta({ description: 'Topic match times recency weight.' }),
        matched_topics: z.array(z.string()),
      }),
    ),
    paging,
  })
  .meta({ id: 'PersonalizedFeed' });

export function feedRoutes(clickhouse: ClickHouse, store: ArticleStore): RouteSpec[] {
  const handler = async (
    ctx: Parameters<RouteSpec['handler']>[0],
    { body }: { body: z.output<typeof request> },
  ) => {
    const topics = distinctTopics(body.topics);
    const key = topicsKey(topics);
    const after = body.cursor === undefined ? undefined : decodeRankPosition(body.cursor);
    if (after === null) throw invalidParameter('cursor', 'is not a cursor returned by this feed');
    if (after && after.topics !== key)
      throw invalidParameter('cursor', 'was returned for other topics; send the topics of its first page');
    const now = after ? new Date(after.asOf * 1000) : new Date();
    // The ranking up to this page's end and one more (whether there is a next page). Every score decays
    // by the same factor as time passes, so the order of the articles ranked does not change between
    // pages; only new articles shift the positions, as in every offset-paged list (a cursor does not).
    const end = body.offset + body.limit;
    const ranked = await rankNewestFirst(
      (from) => clickhouse.query<RankedRow>(personalizedQuery(topics, end + 1, now, from, after)),
      topics,
      end + 1,
      now,
    );
    const rows = ranked.slice(body.offset, end);
    const hasMore = ranked.length > end;
    const last = rows.at(-1);
    const { summaries, audioUrl, stories } = await store.extras(rows.map((r) => r.article_id));
    ctx.body = {
      topics,
      ranking: rankingDescription,
      articles: rows.map((r) => ({
        ...listItem(
          r,
          summaries.get(r.article_id) ?? null,
          audioUrl(r.article_id),
          stories.get(r.article_id) ?? null,
        ),
        score: Math.round(r.score * 1e6) / 1e6,
        matched_topics: topics.filter((_, i) => Number(r.topic_matches[i]) > 0),
      })),
      paging: {
        limit: body.limit,
        offset: body.offset,
        returned: rows.length,
        has_more: hasMore,
        next_offset: hasMore && !after ? end : null,
        next_cursor:
          hasMore && last
            ? encodeRankPosition({
                asOf: Math.floor(now.getTime() / 1000),
                match: Number(last.match),
                publishedAt: Number(last.published_at),
                id: last.article_id,
                topics: key,
              })
            : null,
      },
    };
  };
  const common = {
    path: '/api/v1/feeds/personalized',
    tag: 'Feeds',
    scope: 'read:feeds',
    summary: 'Articles ranked by topic match and recency',
    description: rankingDescription,
    body: request,
    bodyFromQuery: true,
    responses: { 200: { description: 'The ranked articles', schema: response } },
    handler,
  } as const;
  return [
    defineRoute({ ...common, method: 'get', operationId: 'personalizedFeed' }),
    defineRoute({
      ...common,
      method: 'post',
      operationId: 'personalizedFeedPost',
      errors: ['invalid_json', 'payload_too_large', 'unsupported_media_type'],
    }),
  ];
}
