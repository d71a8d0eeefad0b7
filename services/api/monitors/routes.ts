// POST /api/v1/crm/monitor (the integration set's path), GET /api/v1/crm/monitors and
// GET/PATCH/DELETE /api/v1/crm/monitors/{id}. Monitors belong to the tenant of the credential.
import { z } from 'zod';
import { notFound } from '../../runtime/api-error.ts';
import { booleanParam, limitParam, listParam, offsetParam } from '../http/params.ts';
import { limitsOf, tenantOf } from '../http/principal.ts';
import { defineRoute, type RouteSpec } from '../http/route.ts';
import { offsetPage, offsetPaging } from '../http/paging.ts';
import { namesACompany } from '../../monitors/company-names.ts';
import type { MonitorRegistry } from '../../monitors/monitor-registry.ts';

const time = z.string().meta({ description: 'ISO 8601 UTC timestamp' });
/** Control and invisible format characters (NUL, zero-width space, bidi marks): never part of a name. */
const invisible = /[\p{Cc}\p{Cf}]/u;
const name = z
  .string()
  .trim()
  .min(2, { error: 'must be at least 2 characters' })
  .max(200)
  .refine((s) => !invisible.test(s), { error: 'must not contain control or invisible characters' })
  // "!!!" or "---" would be matched by nothing, and the monitor would look active for ever.
  .refine((s) => /[\p{L}\p{N}]/u.test(s), { error: 'must contain a letter or a digit' })
  .refine(namesACompany, {
    error: (issue) =>
      `${JSON.stringify(issue.input)} is only a legal form or words like "the": name the company itself ` +
      '(alone, a legal form would match every company that has it)',
  });

const monitorItem = z
  .object({
    id: z.string(),
    contact_id: z.string(),
    company: z.string(),
    aliases: z.array(z.string()),
    alert_webhook: z.string(),
    active: z.boolean(),
    created_at: time.nullable(),
    updated_at: time,
    delivery: z
      .object({
        webhook_id: z.string().nullable(),
        status: z.enum(['active', 'paused', 'disabled', 'none']),
        disabled_reason: z.string().nullable().meta({
          description:
            'Why the service disabled the webhook (its endpoint answered 410 Gone); null otherwise.',
        }),
      })
      .meta({
        id: 'MonitorDelivery',
        description:
          'Whether its alerts are being sent: the webhook at alert_webhook that sends them, and its state. ' +
          'While it is paused or disabled the monitor stays active, but its alerts are not sent, nor kept for ' +
          'later: resume the webhook (PATCH /api/v1/webhooks/{id} with {"active": true}), or, for one the ' +
          'service disabled, once its endpoint works again create a monitor with the same alert_webhook: its ' +
          "new webhook takes the disabled one's monitors over. A monitor keeps its alert_webhook: to send its " +
          'alerts to another URL, create it again with that URL and delete it here.',
      }),
  })
  .meta({ id: 'Monitor' });

const newMonitor = z
  .object({
    contact_id: z
      .string()
      .trim()
      .min(1, { error: 'must not be empty' })
      .max(200)
      .refine((s) => !/\p{Cc}/u.test(s), { error: 'must not contain control characters' })
      .meta({
        description: 'Your CRM contact id, echoed in every alert as data.contact_id.',
      }),
    company: name.meta({
      description:
        'Company to watch. Matched case- and accent-insensitively on word boundaries; legal suffixes (Inc, ' +
        'Ltd, PLC, GmbH, …) are optional; a name that is also a common word (Next, Shell) only counts as a ' +
        'capitalised name the article backs up.',
    }),
    aliases: z.array(name).max(20).default([]).meta({ description: 'Other names that count, e.g. a brand.' }),
    alert_webhook: z
      .string()
      .min(1)
      .max(2000)
      .meta({
        description:
          'http(s) URL that receives this monitor’s news.alert events, signed (Standard Webhooks). If the tenant ' +
          'has a webhook at this URL its secret signs them (a webhook registered for other events also gets ' +
          'this monitor’s alerts, until the monitor is deleted); otherwise one is registered and its secret ' +
          'returned. A webhook of the tenant registered for every news.alert gets these alerts too.',
      }),
  })
  .meta({ id: 'NewMonitor' });

const monitorCreated = z
  .object({
    created: z.boolean().meta({
      description: 'False when the same monitor (contact, company, aliases, URL) was already active.',
    }),
    monitor: monitorItem,
    signing: z
      .object({
        webhook_id: z.string(),
        created: z.boolean(),
        secret: z
          .string()
          .nullable()
          .meta({ description: 'Shown only when the webhook was registered now.' }),
        note: z.string(),
      })
      .meta({ description: 'Which webhook, and so which secret, signs this monitor’s alerts.' }),
  })
  .meta({ id: 'MonitorCreated' });

/** Control characters, which no contact id holds (newMonitor refuses them). */
const controlCharacter = /\p{Cc}/u;

/**
 * The filters of the list, with its paging. Each is a field of the monitor as stored, matched on its
 * latest state in the query (MonitorRegistry.list), so the pages are those of the filtered list.
 */
export const monitorListParameters = z.object({
  contact_id: listParam({
    check: (id) => id.length <= 200 && !controlCharacter.test(id),
    expected: 'a CRM contact id of at most 200 characters, without control characters',
    description:
      'Only the monitors of this CRM contact (`contact_id` as it was given, case and all), or of any of ' +
      'several separated by commas. An id that holds a comma may be given as it is: every run of ' +
      'neighbouring comma-separated pieces of a value is also read as one id.',
    example: 'crm-contact-4711',
    verbatim: true,
    alsoWhole: true,
  }).optional(),
  active: booleanParam(
    'true: only active monitors; false: only inactive ones, for which the matcher raises no alerts.',
  ).optional(),
  limit: limitParam(100, 20),
  offset: offsetParam,
});

const idParams = z.object({ id: z.string().min(1).max(200) });

/** PATCH /api/v1/crm/monitors/{id}: what a monitor may change. Its names and URL make it what it is. */
export const monitorChange = z
  .object({
    active: z.boolean().meta({
      description:
        'false pauses the monitor: the matcher raises no alerts for it (nor keeps any for later) until it is ' +
        'resumed with true. Its webhook is left as it is.',
    }),
  })
  .meta({ id: 'MonitorChange' });

export function monitorRoutes(monitors: MonitorRegistry): RouteSpec[] {
  return [
    defineRoute({
      method: 'post',
      path: '/api/v1/crm/monitor',
      operationId: 'createMonitor',
      idempotent: true,
      tag: 'Monitors',
      scope: 'write:monitors',
      summary: 'Start monitoring a company for a CRM contact',
      description:
        'Every enriched article that mentions the company (or an alias) raises one news.alert, delivered to ' +
        'alert_webhook with the payload {event, timestamp, data: {contact_id, company, news_summary, audio_url, ' +
        '…}} (the NewsAlertEvent webhook lists every field). An article published more than ' +
        'MATCHER_ALERT_MAX_AGE_HOURS (168) before it was found raises none.',
      body: newMonitor,
      responses: {
        201: {
          description: 'Monitoring',
          schema: monitorCreated,
          headers: { Location: 'The new monitor: /api/v1/crm/monitors/{id}.' },
        },
        200: {
          description:
            'Already monitoring: an active monitor of the same contact, company, aliases and URL, answered again ' +
            '(created false); nothing changed.',
          schema: monitorCreated,
        },
      },
      errors: ['plan_limit_reached'],
      handler: async (ctx, { body }) => {
        const created = await monitors.create(tenantOf(ctx), body, limitsOf(ctx));
        const [monitor] = await monitors.withDelivery(tenantOf(ctx), [created.monitor]);
        const result = { ...created, monitor: monitor! };
        // The same monitor posted again is answered again, not made twice (MonitorRegistry.create).
        ctx.status = result.created ? 201 : 200;
        ctx.set('Location', `/api/v1/crm/monitors/${result.monitor.id}`);
        // The answer holds the webhook's secret when the monitor registered one: no cache may keep it.
        ctx.set('Cache-Control', 'no-store');
        ctx.body = result;
      },
    }),
    defineRoute({
      method: 'get',
      path: '/api/v1/crm/monitors',
      operationId: 'listMonitors',
      tag: 'Monitors',
      scope: 'write:monitors',
      summary: "List the caller's monitors",
      description:
        'Newest first, then by id descending, so consecutive pages neither repeat nor skip a monitor while ' +
        'none is created or deleted. The filters combine (a monitor must pass each one given); a page, ' +
        '`paging.has_more` and `next_offset` are those of the filtered list.',
      query: monitorListParameters,
      responses: {
        200: {
          description: 'A page of monitors',
          schema: z
            .object({
              monitors: z.array(monitorItem),
              paging: offsetPaging,
            })
            .meta({ id: 'MonitorList' }),
        },
      },
      handler: async (ctx, { query }) => {
        const { items, hasMore } = await monitors.list(
          tenantOf(ctx),
          { limit: query.limit, offset: query.offset },
          { contactIds: query.contact_id, active: query.active },
        );
        ctx.body = {
          monitors: await monitors.withDelivery(tenantOf(ctx), items),
          paging: offsetPage(query, items.length, hasMore),
        };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/api/v1/crm/monitors/{id}',
      operationId: 'getMonitor',
      tag: 'Monitors',
      scope: 'write:monitors',
      summary: 'One monitor',
      params: idParams,
      responses: { 200: { description: 'The monitor', schema: monitorItem } },
      errors: ['not_found'],
      handler: async (ctx, { params }) => {
        const monitor = await monitors.get(tenantOf(ctx), params.id);
        if (!monitor) throw notFound(`no monitor with id "${params.id}"`);
        ctx.body = (await monitors.withDelivery(tenantOf(ctx), [monitor]))[0];
      },
    }),
    defineRoute({
      method: 'patch',
      path: '/api/v1/crm/monitors/{id}',
      operationId: 'updateMonitor',
      idempotent: true,
      tag: 'Monitors',
      scope: 'write:monitors',
      summary: 'Pause or resume a monitor',
      description:
        '{"active": false} pauses it: no news.alert is raised for it while it is paused, and articles found ' +
        'meanwhile raise none later. {"active": true} resumes it: articles enriched from then on are matched ' +
        'again. Asking for the state it already has changes nothing (200). Resuming is a 409 while an ' +
        'active monitor of the same contact, company, aliases and URL exists (both would raise the same ' +
        'alerts). The contact, company, aliases and URL are not changed here: create a monitor with the ' +
        'new ones and delete this one.',
      params: idParams,
      body: monitorChange,
      responses: { 200: { description: 'The monitor as it is now (as GET shows it)', schema: monitorItem } },
      errors: ['not_found', 'conflict'],
      handler: async (ctx, { params, body }) => {
        const result = await monitors.setActive(tenantOf(ctx), params.id, body.active);
        if (!result) throw notFound(`no monitor with id "${params.id}"`);
        ctx.body = (await monitors.withDelivery(tenantOf(ctx), [result.monitor]))[0];
      },
    }),
    defineRoute({
      method: 'delete',
      path: '/api/v1/crm/monitors/{id}',
      operationId: 'deleteMonitor',
      tag: 'Monitors',
      scope: 'write:monitors',
      summary: 'Stop monitoring',
      description: 'A webhook registered for this monitor alone is deleted with it.',
      params: idParams,
      responses: { 204: { description: 'Deleted' } },
      errors: ['not_found'],
      handler: async (ctx, { params }) => {
        if (!(await monitors.remove(tenantOf(ctx), params.id)))
          throw notFound(`no monitor with id "${params.id}"`);
        ctx.status = 204;
      },
    }),
  ];
}
