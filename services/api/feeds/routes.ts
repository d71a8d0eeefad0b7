// GET|POST /api/v1/feeds/personalized: topics, limit, offset and format as query
// parameters or as a JSON body (a client may use either), validated by one schema.
import { z } from 'zod';
import { listItem, type ArticleStore } from '../articles/article-store.ts';
import { articleListItem } from '../articles/routes.ts';
import { offsetPage, offsetPaging } from '../http/paging.ts';
import { commaList, enumWithAliases, offsetParam, wholeNumber } from '../http/params.ts';
import { defineRoute, type RouteSpec } from '../http/route.ts';
import {
  distinctTopics,
  personalizedQuery,
  rankNewestFirst,
  rankingDescription,
  type RankedRow,
} from './personalized.ts';
import type { ClickHouse } from '../../runtime/clickhouse/client.ts';

const topic = z
  .string()
  .trim()
  .min(1, { error: 'a topic must not be empty' })
  .max(100, { error: 'a topic is at most 100 characters' });

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
    .pipe(
      z
        .array(z.string())
        .min(1, { error: 'give at least one topic' })
        .max(10, { error: 'at most 10 topics' }),
    )
    .meta({
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
    offset: offsetParam,
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
    paging: offsetPaging,
  })
  .meta({ id: 'PersonalizedFeed' });

export function feedRoutes(clickhouse: ClickHouse, store: ArticleStore): RouteSpec[] {
  const handler = async (
    ctx: Parameters<RouteSpec['handler']>[0],
    { body }: { body: z.output<typeof request> },
  ) => {
    const now = new Date();
    const topics = distinctTopics(body.topics);
    // The ranking up to this page's end and one more (whether there is a next page). Every score decays
    // by the same factor as time passes, so the order of the articles ranked does not change between
    // pages; only new articles shift the positions, as in every offset-paged list.
    const end = body.offset + body.limit;
    const ranked = await rankNewestFirst(
      (from) => clickhouse.query<RankedRow>(personalizedQuery(topics, end + 1, now, from)),
      topics,
      end + 1,
      now,
    );
    const rows = ranked.slice(body.offset, end);
    const { summaries, audioUrl } = await store.extras(rows.map((r) => r.article_id));
    ctx.body = {
      topics,
      ranking: rankingDescription,
      articles: rows.map((r) => ({
        ...listItem(r, summaries.get(r.article_id) ?? null, audioUrl(r.article_id)),
        score: Math.round(r.score * 1e6) / 1e6,
        matched_topics: topics.filter((_, i) => Number(r.topic_matches[i]) > 0),
      })),
      paging: offsetPage(body, rows.length, ranked.length > end),
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
