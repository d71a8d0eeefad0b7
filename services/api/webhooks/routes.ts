// POST/GET /api/v1/webhooks, GET/PATCH/DELETE /api/v1/webhooks/{id}, POST .../{id}/secret/rotate,
// POST /api/v1/webhooks/{id}/test, GET /api/v1/webhooks/{id}/deliveries and
// POST .../deliveries/{delivery_id}/resend. Every webhook belongs to the tenant of the credential: another
// tenant's id answers 404.
import { z } from 'zod';
import type { Context } from 'koa';
import { isLanguageCode } from '../../sources/source.ts';
import { ApiError, invalidParameter, notFound } from '../../runtime/api-error.ts';
import { sourceIdsOf, type SourceLookup } from '../sources/source-references.ts';
import {
  languageOfLocale,
  categoryValue,
  cursorListOffsetParam,
  cursorParam,
  limitParam,
  offsetParam,
} from '../http/params.ts';
import { limitsOf, tenantOf } from '../http/principal.ts';
import { defineRoute, type RouteSpec } from '../http/route.ts';
import { offsetPage, offsetPaging } from '../http/paging.ts';
import {
  decodeDeliveryCursor,
  deliveryStatuses,
  resendJob,
  whyNotResend,
  type DeliveryLog,
} from '../../webhooks/delivery-log.ts';
import { newId, type WebhookItem, type WebhookRegistry } from '../../webhooks/webhook-registry.ts';
import { NEWS_ALERT, subscribableEvents, WEBHOOK_TEST } from '../../webhooks/event-types.ts';
import {
  DEFAULT_PREVIOUS_SECRET_SECONDS,
  MAX_PREVIOUS_SECRET_SECONDS,
} from '../../webhooks/secret-rotation.ts';

const time = z.string().meta({ description: 'ISO 8601 UTC timestamp' });

const filterSchema = z
  .object({
    // prefault: zod leaves a default of preprocessed values out of the document (params.ts).
    categories: z.array(categoryValue).max(10).prefault([]),
    source_ids: z.array(z.string().min(1).max(200)).max(100).default([]),
    languages: z
      // Any case, as the language parameter of the lists reads it.
      .array(
        z
          .string()
          .trim()
          .toLowerCase()
          // A locale (en-US) is its language, as the lists' language parameter reads it.
          .transform(languageOfLocale)
          .refine(isLanguageCode, {
            error: 'must be an ISO 639-1 code such as en (a locale, en-US, is read as en)',
          }),
      )
      .max(20)
      .default([]),
    words: z.array(z.string().trim().min(1).max(100)).max(50).default([]),
  })
  // A misspelt or unsupported key ("catgories", monitor_ids: set by monitors, not here) was dropped, and
  // the webhook then got every event of the tenant: a filter that is not understood is refused.
  .strict()
  .meta({
    id: 'WebhookFilter',
    description:
      'For article.published, article.updated and news.breaking (a story, when one of its articles passes), ' +
      'and refused on a webhook receiving none of them: only articles in one of these categories, sources and ' +
      'languages (each list empty = any) whose title, summary or content contains one of these words ' +
      '(whole words; in scripts written without spaces, such as Chinese or Thai, anywhere; empty = any).',
  });

/** A filter as a change gives it: monitor_ids are accepted only as they are, so a GET can be sent back. */
const filterChange = filterSchema
  .extend({
    monitor_ids: z.array(z.string().max(200)).max(1000).optional().meta({
      description:
        "Set by monitors (the webhook at their alert_webhook lists them), never here: leave it out and they are kept; given, it must equal the webhook's own.",
    }),
  })
  .strict()
  .meta({
    id: 'WebhookFilterChange',
    description:
      'Replaces the whole filter: a list left out is empty (any). monitor_ids, set by monitors, are kept.',
  });

/**
 * A new webhook's filter: monitor_ids only empty, as a GET shows them on a webhook no monitor uses, so a
 * webhook read from one environment can be registered in another as it is.
 */
const newFilter = filterSchema
  .extend({
    monitor_ids: z
      .array(z.string().max(200))
      .max(0, {
        error:
          'is set by monitors (the webhook at their alert_webhook lists them), not here: send [] or leave it out',
      })
      .optional()
      .meta({ description: 'Set by monitors, never here: empty or left out.' }),
  })
  .strict()
  .meta({ id: 'NewWebhookFilter' });

const webhookUrl = z.string().min(1).max(2000);
const webhookEvents = z
  .array(z.enum(subscribableEvents, { error: `each must be one of ${subscribableEvents.join(', ')}` }))
  .min(1, { error: `give at least one of ${subscribableEvents.join(', ')}` });
const webhookSecret = z.string().max(200);

export const webhookItem = z
  .object({
    id: z.string(),
    url: z.string(),
    events: z.array(z.string()),
    filter: z
      .object({
        categories: z.array(z.string()),
        source_ids: z.array(z.string()),
        languages: z.array(z.string()),
        words: z.array(z.string()),
        monitor_ids: z
          .array(z.string())
          .meta({ description: "news.alert only for these monitors (a monitor's alert_webhook)." }),
      })
      .nullable(),
    active: z.boolean().meta({
      description:
        'False while paused by the tenant (disabled_reason null) or once the service disabled it, e.g. when ' +
        'the endpoint answered 410 Gone (disabled_reason says why). PATCH {"active": true} resumes it.',
    }),
    disabled_reason: z.string().nullable(),
    previous_secret_expires_at: time.nullable().meta({
      description:
        'Until when the secret replaced by the latest rotation still signs deliveries, beside the new one ' +
        '(each delivery then carries two v1 signatures); null when no previous secret signs.',
    }),
    created_at: time.nullable(),
    updated_at: time,
  })
  .meta({ id: 'Webhook' });

const newWebhook = z
  .object({
    url: webhookUrl.meta({ description: 'http(s) URL the events are POSTed to.' }),
    events: webhookEvents,
    secret: webhookSecret.optional().meta({
      description:
        'Signing secret: whsec_<base64 key> (Standard Webhooks) or any text of 8 to 128 characters (used ' +
        'as the key). Omitted: one is generated. Either way the response shows it once, as whsec_…',
    }),
    // null as a GET shows a webhook without one, so a GET's body can be sent back: no filter.
    filter: newFilter
      .nullable()
      .optional()
      .transform((filter) => filter ?? undefined),
  })
  .meta({ id: 'NewWebhook' });

const created = z
  .object({
    webhook: webhookItem,
    secret: z.string().meta({
      description:
        'The signing secret (whsec_…), shown this once. Deliveries carry webhook-id, webhook-timestamp and ' +
        'webhook-signature (v1, HMAC-SHA256 over id.timestamp.body) as in the Standard Webhooks specification.',
    }),
  })
  .meta({ id: 'WebhookCreated' });

/** PATCH /api/v1/webhooks/{id}: any of the fields, at least one. */
export const webhookChange = z
  .object({
    url: webhookUrl.optional().meta({
      description:
        'A new http(s) URL, checked as at registration. Not for the webhook of a monitor (409): its URL is ' +
        "the monitors' alert_webhook.",
    }),
    events: webhookEvents.optional().meta({ description: 'Replaces the events it receives.' }),
    filter: filterChange.nullable().optional().meta({ description: 'Replaces the filter; null removes it.' }),
    active: z
      .boolean()
      .optional()
      .meta({
        description:
          'false pauses it (nothing is sent, events meanwhile are not kept for later); true resumes it, also ' +
          'after the service disabled it. Resuming one that receives news.alert counts against the plan.',
      }),
  })
  .refine((change) => Object.values(change).some((value) => value !== undefined), {
    error: 'give at least one of url, events, filter, active',
  })
  .meta({ id: 'WebhookChange' });

/** POST /api/v1/webhooks/{id}/secret/rotate: both fields optional (an empty body rotates to a generated secret). */
export const secretRotation = z
  .object({
    secret: webhookSecret.optional().meta({
      description:
        'The new signing secret, as at registration: whsec_<base64 key> or any text of 8 to 128 ' +
        'characters. Omitted: one is generated.',
    }),
    previous_secret_expires_in: z
      .number()
      .int()
      .min(0)
      .max(MAX_PREVIOUS_SECRET_SECONDS)
      .default(DEFAULT_PREVIOUS_SECRET_SECONDS)
      .meta({
        description:
          'Seconds the secret in use now keeps signing deliveries beside the new one, so receivers can ' +
          'switch without rejecting any (0: the new secret alone signs at once). Only the immediately ' +
          'previous secret is kept: rotating again ends the older grace period.',
      }),
  })
  .meta({ id: 'WebhookSecretRotation' });

const rotated = z
  .object({
    webhook: webhookItem,
    secret: z.string().meta({
      description:
        'The new signing secret (whsec_…), shown this once. Until webhook.previous_secret_expires_at ' +
        'every delivery carries a v1 signature with it and one with the previous secret.',
    }),
  })
  .meta({ id: 'WebhookSecretRotated' });

const deliveryItem = z
  .object({
    id: z.string().meta({ description: 'Sent as the webhook-id header: the same on every attempt.' }),
    event_type: z.string(),
    event_id: z.string(),
    status: z.enum(deliveryStatuses),
    attempts: z.number().int().meta({
      description:
        'Requests made to the receiver (0 for one disabled before any: its webhook deleted or paused).',
    }),
    last_http_status: z.number().int().nullable(),
    last_error: z.string().nullable(),
    created_at: time,
    updated_at: time,
  })
  .meta({ id: 'WebhookDelivery' });

const queued = z
  .object({ delivery_id: z.string(), status: z.literal('pending') })
  .meta({ id: 'DeliveryQueued' });

const idParams = z.object({ id: z.string().min(1).max(200) });
const page = { limit: limitParam(100, 20), offset: offsetParam };

/** The tenant's monitors, as far as a webhook's changes need them (the MonitorRegistry's). */
/** The monitors a webhook carries the alerts of; `joined`: it gets every alert, its filter names none. */
interface ServingMonitors {
  ids: string[];
  joined: boolean;
}

export interface MonitorLookup {
  /** A monitor of the tenant, or null. */
  get(tenantId: string, monitorId: string): Promise<{ id: string } | null>;
  /** The tenant's monitors whose alert_webhook is `url`. */
  idsAt(tenantId: string, url: string): Promise<string[]>;
}

export function webhookRoutes(
  registry: WebhookRegistry,
  log: DeliveryLog,
  monitors: MonitorLookup,
  sources: SourceLookup,
): RouteSpec[] {
  const owned = async (ctx: Context, id: string) => {
    const webhook = await registry.get(tenantOf(ctx), id);
    if (!webhook) throw notFound(`no webhook with id "${id}"`);
    return webhook;
  };
  /**
   * The monitors whose alerts the webhook carries: those its filter names that still exist or, for a
   * webhook that gets every alert of the tenant, the monitors whose alert_webhook is its URL (a monitor
   * created at a URL where such a webhook was joined it without changing it).
   */
  const servingMonitors = async (tenant: string, webhook: WebhookItem): Promise<ServingMonitors> => {
    const ids = webhook.filter?.monitor_ids ?? [];
    if (ids.length > 0) {
      const found = await Promise.all(ids.map((id) => monitors.get(tenant, id)));
      return { ids: found.filter((m) => m !== null).map((m) => m.id), joined: false };
    }
    if (!webhook.events.includes(NEWS_ALERT)) return { ids: [], joined: false };
    return { ids: await monitors.idsAt(tenant, webhook.url), joined: true };
  };
  return [
    defineRoute({
      method: 'post',
      path: '/api/v1/webhooks',
      operationId: 'registerWebhook',
      idempotent: true,
      tag: 'Webhooks',
      scope: 'write:webhooks',
      summary: 'Register a webhook endpoint',
      description:
        'Events: news.alert (a monitored company in the news), documentary.ready, documentary.failed, ' +
        'article.published (new enriched articles matching the optional filter), article.updated (a later ' +
        'revision of an article matching the filter: what changed and the new values), news.breaking. The URL must be reachable from the internet ' +
        '(private addresses are refused unless allow-listed). Webhooks receiving news.alert count against ' +
        "the plan's alert endpoints. Deliveries to one webhook are made one at a time, each answered (2xx) " +
        'within 10 s or retried (5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h; then dead-lettered), so a ' +
        'receiver answers first and works afterwards.',
      body: newWebhook,
      responses: {
        201: {
          description: 'Registered; the secret is shown this once',
          schema: created,
          headers: { Location: 'The new webhook: /api/v1/webhooks/{id}.' },
        },
      },
      errors: ['plan_limit_reached', 'conflict'],
      handler: async (ctx, { body }) => {
        const { monitor_ids: _none, ...given } = body.filter ?? {};
        const filter = body.filter && {
          ...given,
          source_ids: await sourceIdsOf(body.filter.source_ids, sources, 'filter.source_ids'),
        };
        const input = body.filter === undefined ? body : { ...body, filter: filter as typeof body.filter };
        const result = await registry.register(tenantOf(ctx), input, limitsOf(ctx));
        ctx.status = 201;
        ctx.set('Location', `/api/v1/webhooks/${result.webhook.id}`);
        // The secret is in this answer, once: no cache on the way may keep it.
        ctx.set('Cache-Control', 'no-store');
        ctx.body = result;
      },
    }),
    defineRoute({
      method: 'get',
      path: '/api/v1/webhooks',
      operationId: 'listWebhooks',
      tag: 'Webhooks',
      scope: 'write:webhooks',
      summary: "List the caller's webhooks",
      description: 'Newest first.',
      query: z.object(page),
      responses: {
        200: {
          description: 'A page of webhooks',
          schema: z
            .object({ webhooks: z.array(webhookItem), paging: offsetPaging })
            .meta({ id: 'WebhookList' }),
        },
      },
      handler: async (ctx, { query }) => {
        const { items, hasMore } = await registry.list(tenantOf(ctx), query);
        ctx.body = { webhooks: items, paging: offsetPage(query, items.length, hasMore) };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/api/v1/webhooks/{id}',
      operationId: 'getWebhook',
      tag: 'Webhooks',
      scope: 'write:webhooks',
      summary: 'One webhook',
      params: idParams,
      responses: { 200: { description: 'The webhook', schema: webhookItem } },
      errors: ['not_found'],
      handler: async (ctx, { params }) => {
        ctx.body = (await owned(ctx, params.id)).item;
      },
    }),
    defineRoute({
      method: 'delete',
      path: '/api/v1/webhooks/{id}',
      operationId: 'deleteWebhook',
      tag: 'Webhooks',
      scope: 'write:webhooks',
      summary: 'Delete a webhook: nothing more is delivered to it',
      params: idParams,
      description:
        "A webhook that monitors send their alerts to (its filter's monitor_ids) is deleted with its last " +
        'monitor; while any remains, deleting it is a 409 naming them: their alerts would have nowhere to go. ' +
        'So is deleting a webhook that gets every news.alert of the tenant while monitors have its URL as ' +
        'their alert_webhook.',
      responses: { 204: { description: 'Deleted' } },
      errors: ['not_found', 'conflict'],
      handler: async (ctx, { params }) => {
        const tenant = tenantOf(ctx);
        const webhook = await owned(ctx, params.id);
        const serving = await servingMonitors(tenant, webhook.item);
        if (serving.ids.length > 0)
          throw new ApiError(
            'conflict',
            `webhook "${params.id}" is the alert_webhook of ${serving.ids.length} monitor(s) (${serving.ids
              .slice(0, 10)
              .join(', ')}): delete them first (${
              serving.joined ? 'then this webhook' : 'the webhook goes with the last'
            }), or their alerts are lost`,
          );
        if (!(await registry.remove(tenant, params.id))) throw notFound(`no webhook with id "${params.id}"`);
        ctx.status = 204;
      },
    }),
    defineRoute({
      method: 'patch',
      path: '/api/v1/webhooks/{id}',
      operationId: 'updateWebhook',
      idempotent: true,
      tag: 'Webhooks',
      scope: 'write:webhooks',
      summary: 'Change a webhook: its URL, events or filter; pause or resume it',
      description:
        'Every field is optional, at least one is needed; what is left out stays. The URL is checked as at ' +
        "registration. A monitor's webhook (filter.monitor_ids, or a webhook getting every news.alert at a " +
        "monitor's alert_webhook) keeps its monitors, its URL and news.alert while they exist (409 otherwise); " +
        'a change that would make it a second webhook at its URL for an event one there takes is a 409 too. active: false pauses it, true resumes it, also one the service ' +
        'disabled. Events that happen while it is paused are not delivered later. Secrets are rotated with ' +
        'POST /api/v1/webhooks/{id}/secret/rotate.',
      params: idParams,
      body: webhookChange,
      responses: { 200: { description: 'The webhook as changed (as GET shows it)', schema: webhookItem } },
      errors: ['not_found', 'conflict', 'plan_limit_reached'],
      handler: async (ctx, { params, body }) => {
        const tenant = tenantOf(ctx);
        const change = body.filter
          ? {
              ...body,
              filter: {
                ...body.filter,
                source_ids: await sourceIdsOf(body.filter.source_ids, sources, 'filter.source_ids'),
              },
            }
          : body;
        const changed = await registry.update(tenant, params.id, change, {
          limits: limitsOf(ctx),
          servingMonitors: async (webhook) => (await servingMonitors(tenant, webhook)).ids,
        });
        if (!changed) throw notFound(`no webhook with id "${params.id}"`);
        ctx.body = changed;
      },
    }),
    defineRoute({
      method: 'post',
      path: '/api/v1/webhooks/{id}/secret/rotate',
      operationId: 'rotateWebhookSecret',
      idempotent: true,
      tag: 'Webhooks',
      scope: 'write:webhooks',
      summary: 'Rotate the signing secret: a new one, shown once; the old one signs too for a while',
      description:
        'For a leaked secret, or routine rotation. From the answer on, deliveries (retries of earlier ones ' +
        'included) are signed with the new secret and, until webhook.previous_secret_expires_at (86400 s ' +
        'by default, 0 for none), also with the previous one: webhook-signature carries a space-separated ' +
        'v1 signature for each, so a receiver verifying with either accepts them while it switches.',
      params: idParams,
      body: secretRotation,
      responses: { 200: { description: 'Rotated; the new secret is shown this once', schema: rotated } },
      errors: ['not_found'],
      handler: async (ctx, { params, body }) => {
        const result = await registry.rotateSecret(tenantOf(ctx), params.id, {
          secret: body.secret,
          graceSeconds: body.previous_secret_expires_in,
        });
        if (!result) throw notFound(`no webhook with id "${params.id}"`);
        // The secret is in this answer only: no cache on the way may keep it.
        ctx.set('Cache-Control', 'no-store');
        ctx.body = result;
      },
    }),
    defineRoute({
      method: 'post',
      path: '/api/v1/webhooks/{id}/test',
      operationId: 'testWebhook',
      idempotent: true,
      tag: 'Webhooks',
      scope: 'write:webhooks',
      summary: 'Send a signed test event (webhook.test) to the endpoint',
      description: 'Delivered like any event, with retries; follow it in the deliveries list.',
      params: idParams,
      responses: { 202: { description: 'Queued', schema: queued } },
      errors: ['not_found', 'conflict'],
      handler: async (ctx, { params }) => {
        const webhook = await owned(ctx, params.id);
        // Queued, it would be recorded as not sent: the caller is told now instead.
        const resume = `PATCH /api/v1/webhooks/${params.id} with {"active": true}`;
        if (!webhook.item.active)
          throw new ApiError(
            'conflict',
            webhook.item.disabled_reason === null
              ? `webhook "${params.id}" is paused: nothing is sent to it; resume it with ${resume}`
              : `webhook "${params.id}" is disabled (${webhook.item.disabled_reason}): nothing is sent to it; once the endpoint works, resume it with ${resume}`,
          );
        const deliveryId = newId('msg');
        const timestamp = new Date().toISOString();
        await registry.enqueue({
          delivery_id: deliveryId,
          webhook_id: webhook.item.id,
          tenant_id: tenantOf(ctx),
          event_type: WEBHOOK_TEST,
          event_id: deliveryId,
          payload_json: JSON.stringify({
            event: WEBHOOK_TEST,
            timestamp,
            data: { webhook_id: webhook.item.id, message: 'This is a test event.' },
          }),
        });
        ctx.status = 202;
        ctx.body = { delivery_id: deliveryId, status: 'pending' };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/api/v1/webhooks/{id}/deliveries',
      operationId: 'listWebhookDeliveries',
      tag: 'Webhooks',
      scope: 'write:webhooks',
      summary: 'The delivery log of a webhook',
      description: 'Newest first; each delivery with its current status and the attempts it took.',
      params: idParams,
      query: z.object({
        status: z
          .enum(deliveryStatuses, { error: `must be one of ${deliveryStatuses.join(', ')}` })
          .optional(),
        limit: page.limit,
        offset: cursorListOffsetParam,
        cursor: cursorParam(
          'Opaque position returned as `paging.next_cursor`: the page after it. A cursor walk lists every ' +
            'delivery made before it exactly once, however many arrive meanwhile (they sort before the ' +
            'walk, so an offset walk shifts and repeats rows; a cursor does not).',
        ),
      }),
      responses: {
        200: {
          description: 'A page of deliveries',
          schema: z
            .object({
              deliveries: z.array(deliveryItem),
              paging: offsetPaging.extend({
                next_cursor: z
                  .string()
                  .nullable()
                  .meta({ description: 'Pass as `cursor` for the next page; null on the last.' }),
              }),
            })
            .meta({ id: 'WebhookDeliveryList' }),
        },
      },
      errors: ['not_found'],
      handler: async (ctx, { params, query }) => {
        const webhook = await owned(ctx, params.id);
        const after = query.cursor === undefined ? undefined : decodeDeliveryCursor(query.cursor);
        if (after === null) throw invalidParameter('cursor', 'is not a delivery cursor returned by this API');
        const p = { limit: query.limit, offset: query.offset };
        const { items, hasMore, nextCursor } = await log.list(
          webhook.item.id,
          { status: query.status },
          { ...p, after },
        );
        ctx.body = {
          deliveries: items,
          paging: {
            ...offsetPage(p, items.length, hasMore),
            next_offset: hasMore && !after ? p.offset + p.limit : null,
            next_cursor: nextCursor,
          },
        };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/api/v1/webhooks/{id}/deliveries/{delivery_id}/resend',
      operationId: 'resendWebhookDelivery',
      idempotent: true,
      tag: 'Webhooks',
      scope: 'write:webhooks',
      summary: 'Send a dead-lettered delivery again',
      description:
        'The same payload with the same webhook-id (receivers deduplicate on it), from attempt 1 of the ' +
        'retry schedule.',
      params: z.object({ id: z.string().min(1).max(200), delivery_id: z.string().min(1).max(200) }),
      responses: { 202: { description: 'Queued', schema: queued } },
      errors: ['not_found', 'conflict'],
      handler: async (ctx, { params }) => {
        const webhook = await owned(ctx, params.id);
        const delivery = await log.get(webhook.item.id, params.delivery_id);
        if (!delivery) throw notFound(`webhook ${params.id} has no delivery "${params.delivery_id}"`);
        const refusal = whyNotResend(delivery);
        // The request is right; the delivery's state is not one that can be sent again.
        if (refusal) throw new ApiError('conflict', refusal);
        await registry.append(resendJob(delivery, Date.now()));
        ctx.status = 202;
        ctx.body = { delivery_id: delivery.item.id, status: 'pending' };
      },
    }),
  ];
}
