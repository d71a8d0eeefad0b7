// GET /v1/sources and the subscription endpoints the overview set names
// without listing: POST /v1/sources, DELETE /v1/sources/{id}/subscription.
import { z } from 'zod';
import { canonicalUrl } from '../../runtime/canonical-url.ts';
import { languageCode } from '../../runtime/language.ts';
import { hasVisibleCharacter, isCountryCode, isLanguageCode, isoCountryCode } from '../../sources/source.ts';
import { notFound } from '../../runtime/api-error.ts';
import { textLine } from '../../runtime/plain-text.ts';
import {
  booleanParam,
  categoryParam,
  categoryValue,
  countryParam,
  languageParam,
  limitParam,
  offsetParam,
} from '../http/params.ts';
import { limitsOf, tenantOf } from '../http/principal.ts';
import { defineRoute, type RouteSpec } from '../http/route.ts';
import { offsetPage, offsetPaging } from '../http/paging.ts';
import type { SourceCatalog } from './source-catalog.ts';
import type { SourceSubscriptions } from './subscriptions.ts';

const time = z.string().meta({ description: 'ISO 8601 UTC timestamp' });

export const sourceItem = z
  .object({
    id: z.string(),
    name: z.string(),
    url: z.string().meta({
      description:
        'Feed URL (canonical form): where the source is polled. Follows the feed when it moved permanently (docs/operations.md, "Feeds that move").',
    }),
    previous_urls: z.array(z.string()).meta({
      description:
        'Where the source was polled before its feed moved permanently, oldest first; empty for a source that never moved. POST /v1/sources with any of them finds this source.',
    }),
    site_url: z.string().nullable(),
    category: z.string(),
    language: z.string().meta({ description: 'ISO 639-1' }),
    country: z.string().meta({ description: 'ISO 3166-1 alpha-2, lowercase' }),
    active: z.boolean().meta({
      description:
        'Whether it is polled: false while polling is paused, and for a source a tenant added while no ' +
        'tenant subscribes to it.',
    }),
    subscribed: z.boolean().meta({ description: "Whether the caller's tenant subscribes to it." }),
    added_by_you: z.boolean().meta({
      description:
        "Whether the caller's tenant added it (a feed new to the catalog): while it subscribes, it counts " +
        "against the plan's sources added.",
    }),
    health: z.object({
      status: z.enum(['healthy', 'failing', 'not_polled_yet']).meta({
        description:
          '`failing` once POLLER_UNHEALTHY_AFTER polls in a row (3 unless the operator set it) failed; until then ' +
          '`healthy`, a single failure shown by `last_poll_status`, `last_error` and `consecutive_failures`. ' +
          '`not_polled_yet` before its first poll.',
      }),
      last_polled_at: time.nullable(),
      last_poll_status: z.string().nullable(),
      last_error: z.string().nullable(),
      consecutive_failures: z.number().int(),
      poll_interval_seconds: z.number().int().nullable().meta({
        description:
          "The interval the poller chose at its latest poll, before jitter and backoff: from the feed's publishing pace and the publisher's ttl, sy:updatePeriod and Cache-Control, within the poller's bounds. Null before the first poll, and from pollers older than adaptive polling.",
      }),
      interval_reason: z.string().nullable().meta({
        description: 'Why that interval, in words ("median gap 14 min between the last 20 items").',
      }),
      next_poll_at: time.nullable().meta({
        description:
          'When the next poll is due (with jitter, and backoff after failures). A time already past means the poll is overdue and comes next: a source followed again after nobody followed it, or a poller running behind.',
      }),
      items_skipped: z.number().int().meta({
        description:
          'Items of the latest poll that did not become articles (no usable link, neither title nor text, a change held back by the bound on revisions). 0 before the first poll.',
      }),
      skipped_reasons: z.array(z.string()).meta({
        description: 'Why, one reason per skipped item naming it (at most 5; items_skipped has the count).',
      }),
      warnings: z.array(z.string()).meta({
        description:
          "What the latest poll noticed without failing (at most 5): an ignored charset, a document read leniently, a last item cut off and left out; first, a permanent redirect the source has not followed yet (or cannot: its new URL is another source's), or the move it just made. A source can be healthy and still have warnings.",
      }),
    }),
  })
  .meta({ id: 'Source' });

const sourceList = z
  .object({
    sources: z.array(sourceItem),
    paging: offsetPaging,
  })
  .meta({ id: 'SourceList' });

const newSource = z
  .object({
    url: z
      .string()
      .min(1)
      .max(2000)
      .meta({
        description:
          'Feed URL (RSS, Atom, RDF or JSON Feed), or the URL of a web page that names its feed with ' +
          '`<link rel="alternate">` (the source is then that feed: see `source.url` in the answer). A ' +
          'token in its query is kept (shown only to subscribers); a user and password before the host ' +
          '(HTTP basic authentication) are refused.',
      }),
    name: z
      .string()
      .overwrite(textLine)
      .min(1)
      .max(200)
      .refine(hasVisibleCharacter, {
        error: 'must have a letter, digit or symbol: it is shown with every article',
      })
      .optional()
      .meta({
        description:
          "Defaults to the feed's title (cut to 200 characters). One line: control characters, line breaks " +
          'and bidirectional overrides are removed.',
      }),
    category: categoryValue,
    language: z
      .string()
      .trim()
      .toLowerCase()
      .overwrite((s) => languageCode(s) ?? s)
      .refine(isLanguageCode, {
        error:
          'must be an ISO 639-1 code such as en, de, pt (a region, as in pt-BR, is accepted and dropped)',
      })
      .optional()
      .meta({
        description:
          "ISO 639-1; a region (pt-BR) or a three-letter code (por) is read as its two letters. Defaults to the feed's declared language.",
      }),
    country: z
      .string()
      .trim()
      .toLowerCase()
      .overwrite(isoCountryCode)
      .refine(isCountryCode, { error: 'must be a lowercase ISO 3166-1 alpha-2 code such as gb, us, br' })
      .meta({ description: 'ISO 3166-1 alpha-2 (uk is read as gb).' }),
    site_url: z
      .string()
      .max(2000)
      .refine((s) => canonicalUrl(s) !== null, { error: 'must be an absolute http(s) URL' })
      .optional()
      .meta({ description: "The publisher's home page. Defaults to the one the feed names." }),
  })
  .meta({ id: 'NewSource' });

const subscribed = z
  .object({ source: sourceItem, created: z.boolean().meta({ description: 'True if the source is new.' }) })
  .meta({ id: 'SourceSubscribed' });

export function sourceRoutes(catalog: SourceCatalog, subscriptions: SourceSubscriptions): RouteSpec[] {
  return [
    defineRoute({
      method: 'get',
      path: '/v1/sources',
      operationId: 'listSources',
      tag: 'Sources',
      scope: 'read:feeds',
      summary: 'List news sources with their health',
      description:
        'Sorted by name in any case, then id. Without a limit, up to 1,000 in one answer, more than the bundled ' +
        'catalog holds: a client that pages nothing gets them all.',
      query: z.object({
        category: categoryParam.optional(),
        country: countryParam.optional(),
        language: languageParam.optional(),
        active_only: booleanParam('true: only sources being polled.').optional(),
        subscribed: booleanParam("true: only the caller's subscriptions; false: only the others.").optional(),
        limit: limitParam(1000, 1000),
        offset: offsetParam,
      }),
      responses: { 200: { description: 'A page of sources', schema: sourceList } },
      handler: async (ctx, { query }) => {
        const page = { limit: query.limit, offset: query.offset };
        const { items, hasMore } = await catalog.list(
          {
            categories: query.category,
            countries: query.country,
            languages: query.language,
            activeOnly: query.active_only,
            subscribed: query.subscribed,
          },
          tenantOf(ctx),
          page,
        );
        ctx.body = {
          sources: items,
          paging: offsetPage(page, items.length, hasMore),
        };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/v1/sources/{id}',
      operationId: 'getSource',
      tag: 'Sources',
      scope: 'read:feeds',
      summary: 'One news source with its health',
      description:
        'The source as listed by GET /v1/sources (the id is the one POST /v1/sources answered), so a client ' +
        'that added a feed can follow its polls without paging the list.',
      params: z.object({ id: z.string().min(1).max(200) }),
      responses: { 200: { description: 'The source', schema: sourceItem } },
      errors: ['not_found'],
      handler: async (ctx, { params }) => {
        const source = await catalog.get(params.id, tenantOf(ctx));
        if (!source) throw notFound(`no source with id ${JSON.stringify(params.id)}`);
        ctx.body = source;
      },
    }),
    defineRoute({
      method: 'post',
      path: '/v1/sources',
      operationId: 'subscribeSource',
      idempotent: true,
      tag: 'Sources',
      scope: 'write:sources',
      summary: 'Add a feed and subscribe to it',
      description:
        'A source with the same canonical feed URL, now or before its feed moved (`url`, `previous_urls`), is ' +
        'reused (200); otherwise the feed is fetched once to ' +
        'check that it is a readable feed, the source is created (201) and polled within seconds. A web page ' +
        'that names its feeds with `<link rel="alternate">` (feed autodiscovery) stands for the first of them ' +
        'that reads as a feed, the page becoming its `site_url` unless the feed or the body names one. ' +
        "Either way the caller's tenant subscribes to it. The sources a tenant added and subscribes to count " +
        'against its plan (Essentials 10, Professional 50): one more, or following one of its own again, is 403 ' +
        '`plan_limit_reached`; subscribing to a source already in the catalog is not limited.',
      body: newSource,
      responses: {
        200: { description: 'Subscribed to an existing source', schema: subscribed },
        201: {
          description: 'Created the source and subscribed to it',
          schema: subscribed,
          headers: { Location: 'The new source: /v1/sources/{id}.' },
        },
      },
      errors: [
        'invalid_json',
        'payload_too_large',
        'unsupported_media_type',
        'service_unavailable',
        'conflict',
        'plan_limit_reached',
      ],
      handler: async (ctx, { body }) => {
        const result = await subscriptions.subscribe(tenantOf(ctx), body, limitsOf(ctx));
        ctx.status = result.created ? 201 : 200;
        if (result.created) ctx.set('Location', `/v1/sources/${result.source.id}`);
        ctx.body = result;
      },
    }),
    defineRoute({
      method: 'delete',
      path: '/v1/sources/{id}/subscription',
      operationId: 'unsubscribeSource',
      tag: 'Sources',
      scope: 'write:sources',
      summary: "End the caller's subscription to a source",
      description:
        'The source and its articles stay in the catalog. A source a tenant added is no longer polled once no tenant subscribes to it, and is polled again at the next subscription; one the operator added is polled whoever subscribes (an operator pauses sources: npm run sources -- deactivate).',
      params: z.object({ id: z.string().min(1).max(200) }),
      responses: { 204: { description: 'Unsubscribed' } },
      errors: ['not_found'],
      handler: async (ctx, { params }) => {
        const done = await subscriptions.unsubscribe(tenantOf(ctx), params.id);
        if (!done)
          throw notFound(`your tenant does not subscribe to a source with id ${JSON.stringify(params.id)}`);
        ctx.status = 204;
      },
    }),
  ];
}
