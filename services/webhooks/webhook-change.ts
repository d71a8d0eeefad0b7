// What a tenant's change to a webhook (PATCH /api/v1/webhooks/{id}) makes of it, decided before anything
// is written: the next URL, events, filter and active state, or the refusal naming the field. Pure; the
// registry reads the current state, the monitors it serves and the plan, and writes the result.
//
// Monitors own part of a webhook: the webhook at a monitor's alert_webhook lists it in filter.monitor_ids
// and must keep news.alert and that URL while any of them exists (monitor-registry.ts finds it by URL and
// changes the list). So a change may not touch monitor_ids (given unchanged, as a GET shows them, they
// pass), move the URL, or drop news.alert of a webhook that monitors still send their alerts to.
import { isDeepStrictEqual } from 'node:util';
import type { WebhookFilter } from '../runtime/events/types.generated.ts';
import { ApiError, invalidParameter } from '../runtime/api-error.ts';
import { ARTICLE_PUBLISHED, ARTICLE_UPDATED, NEWS_ALERT, NEWS_BREAKING } from './event-types.ts';

/** The article filter as a change gives it: monitor_ids may only repeat the webhook's own. */
export type FilterChange = Omit<WebhookFilter, 'monitor_ids'> & { monitor_ids?: string[] | undefined };

/** A validated change: every field optional; `url` already checked against the outbound rules. */
export interface WebhookPatch {
  url?: string | undefined;
  events?: string[] | undefined;
  /** Replaces the whole article filter (a list left out is empty); null removes it. */
  filter?: FilterChange | null | undefined;
  /** False pauses the webhook; true resumes it, also after the service disabled it. */
  active?: boolean | undefined;
}

/** The fields of a registration that a change decides. */
export interface WebhookSettings {
  url: string;
  events: string[];
  filter: WebhookFilter | null;
  active: boolean;
  /** Why the service disabled it; null when active or paused by the tenant. */
  disabled_reason: string | null;
}

export interface PlannedChange {
  settings: WebhookSettings;
  /** It becomes one more alert endpoint of the tenant (active and receiving news.alert): the plan decides. */
  newAlertEndpoint: boolean;
}

export const emptyFilter = (): WebhookFilter => ({
  categories: [],
  source_ids: [],
  languages: [],
  words: [],
  monitor_ids: [],
});

export const isEmptyFilter = (f: WebhookFilter) =>
  Object.values(f).every((list: string[]) => list.length === 0);

/** The events a webhook's article filter narrows (the fan-outs of services/dispatcher check it). */
const filteredEvents: readonly string[] = [ARTICLE_PUBLISHED, ARTICLE_UPDATED, NEWS_BREAKING];

/**
 * Refuses a filter on articles for a webhook that receives none of the events it narrows: it would be
 * stored and do nothing (news.alert follows its monitors, documentaries their requests), while its owner
 * believes the webhook narrowed.
 */
export function refuseIdleFilter(
  events: readonly string[],
  filter:
    Partial<Pick<WebhookFilter, 'categories' | 'source_ids' | 'languages' | 'words'>> | null | undefined,
): void {
  if (!filter || events.some((e) => filteredEvents.includes(e))) return;
  const named = (['categories', 'source_ids', 'languages', 'words'] as const).filter(
    (list) => (filter[list]?.length ?? 0) > 0,
  );
  if (named.length > 0)
    throw invalidParameter(
      'filter',
      `${named.join(', ')} narrow the ${filteredEvents.join(', ')} events, and this webhook receives none of them (events: ${events.join(', ')}): add one of them to events, or leave the filter out`,
    );
}

const isAlertEndpoint = (s: WebhookSettings) => s.active && s.events.includes(NEWS_ALERT);

/**
 * The settings `patch` gives webhook `id` (now `current`), whose filter names the monitors in `serving`
 * that still exist; null when it changes nothing. Throws a 400 or 409 ApiError naming the field.
 */
export function plannedChange(
  id: string,
  current: WebhookSettings,
  patch: WebhookPatch,
  serving: readonly string[],
): PlannedChange | null {
  const monitorIds = current.filter?.monitor_ids ?? [];
  const given = patch.filter?.monitor_ids;
  if (given !== undefined && !sameSet(given, monitorIds))
    throw invalidParameter(
      'filter.monitor_ids',
      `is set by the monitors whose alert_webhook this webhook is (${listed(monitorIds)}), not here: leave it out and they are kept`,
    );
  const servingNote = `webhook "${id}" is the alert_webhook of ${serving.length} monitor(s) (${listed(serving)})`;
  if (patch.url !== undefined && patch.url !== current.url && serving.length > 0)
    throw new ApiError(
      'conflict',
      `url: ${servingNote}, which send their alerts to its URL: create monitors with the new alert_webhook and delete these, or register a new webhook`,
    );
  const events = patch.events === undefined ? current.events : [...new Set(patch.events)];
  if (serving.length > 0 && !events.includes(NEWS_ALERT))
    throw new ApiError(
      'conflict',
      `events: ${servingNote}: it must keep ${NEWS_ALERT}, or their alerts have nowhere to go`,
    );

  let filter = current.filter;
  if (patch.filter !== undefined) {
    const next: WebhookFilter = { ...emptyFilter(), ...patch.filter, monitor_ids: monitorIds };
    filter = isEmptyFilter(next) ? null : next;
  }
  const settings: WebhookSettings = {
    url: patch.url ?? current.url,
    events,
    filter,
    active: patch.active ?? current.active,
    // Paused by the tenant or resumed: either way the service's reason no longer describes it.
    disabled_reason: patch.active === undefined ? current.disabled_reason : null,
  };
  if (patch.filter !== undefined || patch.events !== undefined)
    refuseIdleFilter(settings.events, settings.filter);
  if (isDeepStrictEqual(settings, current)) return null;
  return { settings, newAlertEndpoint: isAlertEndpoint(settings) && !isAlertEndpoint(current) };
}

/**
 * The events a change makes the webhook send to its URL that it did not before: all of them when it
 * moves or comes back from being disabled by the service, the added ones otherwise. Another webhook of
 * the tenant there taking one of them would deliver it twice (webhook-registry.ts refuseSecondAt). A
 * webhook the service disabled counts for none among the others (registering again is how it is
 * replaced), but a change to one is checked as to any other: given another's event while disabled, it
 * could be neither resumed nor, as an alert endpoint, deleted while monitors sent to its URL.
 */
export function eventsTakenAnew(before: WebhookSettings, after: WebhookSettings): string[] {
  const counts = (s: WebhookSettings) => s.active || s.disabled_reason === null;
  if (after.url !== before.url || (counts(after) && !counts(before))) return after.events;
  return after.events.filter((event) => !before.events.includes(event));
}

function sameSet(a: readonly string[], b: readonly string[]): boolean {
  const left = new Set(a);
  const right = new Set(b);
  return left.size === right.size && [...left].every((x) => right.has(x));
}

function listed(ids: readonly string[]): string {
  if (ids.length === 0) return 'none';
  return ids.length > 10 ? `${ids.slice(0, 10).join(', ')}, …` : ids.join(', ');
}
