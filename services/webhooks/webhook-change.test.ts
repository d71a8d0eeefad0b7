import { describe, expect, it } from 'vitest';
import { ApiError } from '../runtime/api-error.ts';
import {
  emptyFilter,
  eventsTakenAnew,
  plannedChange,
  refuseIdleFilter,
  type WebhookSettings,
} from './webhook-change.ts';

const registered: WebhookSettings = {
  url: 'https://hooks.example/a',
  events: ['article.published'],
  filter: { ...emptyFilter(), categories: ['business'] },
  active: true,
  disabled_reason: null,
};

/** The webhook at two monitors' alert_webhook, also registered for article.published. */
const monitors: WebhookSettings = {
  url: 'https://hooks.example/crm',
  events: ['article.published', 'news.alert'],
  filter: { ...emptyFilter(), words: ['merger'], monitor_ids: ['mon_1', 'mon_2'] },
  active: true,
  disabled_reason: null,
};

const refusal = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    if (error instanceof ApiError) return { status: error.status, message: error.message };
    throw error;
  }
  throw new Error('not refused');
};

describe('plannedChange', () => {
  it('changes only what the patch names', () => {
    expect(plannedChange('wh_1', registered, { events: ['news.breaking', 'news.breaking'] }, [])).toEqual({
      settings: { ...registered, events: ['news.breaking'] },
      newAlertEndpoint: false,
    });
    expect(plannedChange('wh_1', registered, { url: 'https://hooks.example/b' }, [])?.settings).toEqual({
      ...registered,
      url: 'https://hooks.example/b',
    });
  });

  it('replaces the whole article filter (lists left out are empty) and removes it with null', () => {
    expect(
      plannedChange('wh_1', registered, { filter: { ...emptyFilter(), languages: ['en'] } }, [])?.settings
        .filter,
    ).toEqual({ ...emptyFilter(), languages: ['en'] });
    expect(plannedChange('wh_1', registered, { filter: null }, [])?.settings.filter).toBeNull();
    expect(plannedChange('wh_1', registered, { filter: emptyFilter() }, [])?.settings.filter).toBeNull();
  });

  it("keeps a monitor webhook's monitor_ids whatever the new filter, and accepts them given back unchanged", () => {
    const cleared = plannedChange('wh_2', monitors, { filter: null }, ['mon_1', 'mon_2']);
    expect(cleared?.settings.filter).toEqual({ ...emptyFilter(), monitor_ids: ['mon_1', 'mon_2'] });
    const roundTrip = plannedChange(
      'wh_2',
      monitors,
      { filter: { ...emptyFilter(), words: ['takeover'], monitor_ids: ['mon_2', 'mon_1'] } },
      ['mon_1', 'mon_2'],
    );
    expect(roundTrip?.settings.filter).toEqual({
      ...emptyFilter(),
      words: ['takeover'],
      monitor_ids: ['mon_1', 'mon_2'],
    });
  });

  it('refuses a change to monitor_ids with a 400 naming the field and the monitors', () => {
    const changed = refusal(() =>
      plannedChange('wh_2', monitors, { filter: { ...emptyFilter(), monitor_ids: ['mon_1'] } }, ['mon_1']),
    );
    expect(changed.status).toBe(400);
    expect(changed.message).toMatch(/^filter\.monitor_ids: is set by the monitors .*\(mon_1, mon_2\)/);
    const added = refusal(() =>
      plannedChange('wh_1', registered, { filter: { ...emptyFilter(), monitor_ids: ['mon_x'] } }, []),
    );
    expect(added.message).toMatch(/^filter\.monitor_ids: .*\(none\)/);
  });

  it('refuses to move the URL of, or drop news.alert from, a webhook that monitors send their alerts to', () => {
    const moved = refusal(() =>
      plannedChange('wh_2', monitors, { url: 'https://hooks.example/elsewhere' }, ['mon_1', 'mon_2']),
    );
    expect(moved.status).toBe(409);
    expect(moved.message).toMatch(
      /^url: webhook "wh_2" is the alert_webhook of 2 monitor\(s\) \(mon_1, mon_2\)/,
    );
    const dropped = refusal(() =>
      plannedChange('wh_2', monitors, { events: ['article.published'] }, ['mon_1']),
    );
    expect(dropped.status).toBe(409);
    expect(dropped.message).toMatch(/^events: .*must keep news\.alert/);
  });

  it('lets a webhook whose monitors are all gone change freely (its stale ids stay for the monitor registry)', () => {
    const planned = plannedChange(
      'wh_2',
      monitors,
      { url: 'https://hooks.example/new', events: ['article.published'] },
      [],
    );
    expect(planned?.settings).toMatchObject({
      url: 'https://hooks.example/new',
      events: ['article.published'],
    });
  });

  it('pauses with no reason, and resumes a webhook the service disabled, clearing its reason', () => {
    expect(plannedChange('wh_1', registered, { active: false }, [])?.settings).toEqual({
      ...registered,
      active: false,
      disabled_reason: null,
    });
    const disabled = { ...registered, active: false, disabled_reason: 'the endpoint answered 410 Gone' };
    expect(plannedChange('wh_1', disabled, { active: true }, [])?.settings).toEqual(registered);
    // Paused after the service disabled it: the tenant's pause, not the service's reason, from now on.
    expect(plannedChange('wh_1', disabled, { active: false }, [])?.settings).toEqual({
      ...registered,
      active: false,
      disabled_reason: null,
    });
  });

  it('says when the webhook becomes one more alert endpoint, for the plan to allow', () => {
    expect(
      plannedChange('wh_1', registered, { events: ['news.alert', 'article.published'] }, [])
        ?.newAlertEndpoint,
    ).toBe(true);
    const paused = { ...monitors, active: false };
    expect(plannedChange('wh_2', paused, { active: true }, ['mon_1'])?.newAlertEndpoint).toBe(true);
    expect(plannedChange('wh_2', monitors, { active: false }, ['mon_1'])?.newAlertEndpoint).toBe(false);
    expect(plannedChange('wh_2', monitors, { filter: null }, ['mon_1'])?.newAlertEndpoint).toBe(false);
    expect(
      plannedChange('wh_1', { ...registered, active: false }, { events: ['news.alert'], filter: null }, [])
        ?.newAlertEndpoint,
    ).toBe(false);
  });

  it('refuses an article filter on a webhook that receives no event it narrows', () => {
    const idle = refusal(() => plannedChange('wh_1', registered, { events: ['news.alert'] }, []));
    expect(idle.status).toBe(400);
    expect(idle.message).toMatch(
      /^filter: categories narrow the article.published, article.updated, news.breaking events, and this webhook receives none of them \(events: news.alert\)/,
    );
    const alerts = { ...registered, events: ['news.alert'], filter: null };
    expect(
      refusal(() => plannedChange('wh_1', alerts, { filter: { ...emptyFilter(), words: ['x'] } }, [])),
    ).toMatchObject({ status: 400 });
    // Together with an event it narrows, or the filter removed: accepted.
    expect(
      plannedChange('wh_1', registered, { events: ['news.alert'], filter: null }, [])?.settings.filter,
    ).toBeNull();
    expect(plannedChange('wh_1', registered, { events: ['news.breaking'] }, [])?.settings.events).toEqual([
      'news.breaking',
    ]);
    expect(() => refuseIdleFilter(['documentary.ready'], { categories: [], words: [] })).not.toThrow();
  });

  it('is null when nothing would change', () => {
    expect(plannedChange('wh_1', registered, { active: true, url: registered.url }, [])).toBeNull();
    expect(
      plannedChange('wh_1', registered, { filter: { ...emptyFilter(), categories: ['business'] } }, []),
    ).toBeNull();
  });
});

describe('eventsTakenAnew', () => {
  const changed = (patch: Partial<WebhookSettings>) => ({ ...registered, ...patch });

  it('names the events a webhook starts sending to its URL: added ones, or all on a move', () => {
    expect(eventsTakenAnew(registered, changed({ events: ['article.published', 'news.alert'] }))).toEqual([
      'news.alert',
    ]);
    expect(eventsTakenAnew(registered, changed({ url: 'https://hooks.example/b' }))).toEqual([
      'article.published',
    ]);
    expect(eventsTakenAnew(registered, changed({ filter: null }))).toEqual([]);
    expect(eventsTakenAnew(registered, changed({ events: [] }))).toEqual([]);
  });

  it('counts a paused webhook as sending, and one the service disabled as sending nothing', () => {
    const paused = changed({ active: false });
    const disabled = changed({ active: false, disabled_reason: 'the endpoint answered 410 Gone' });
    expect(eventsTakenAnew(registered, paused)).toEqual([]);
    expect(eventsTakenAnew(paused, registered)).toEqual([]);
    expect(eventsTakenAnew(disabled, registered)).toEqual(['article.published']);
  });

  it('checks a change to a webhook the service disabled as any other', () => {
    const disabled = changed({ active: false, disabled_reason: 'the endpoint answered 410 Gone' });
    expect(eventsTakenAnew(disabled, { ...disabled, url: 'https://hooks.example/b' })).toEqual([
      'article.published',
    ]);
    expect(eventsTakenAnew(disabled, { ...disabled, events: ['article.published', 'news.alert'] })).toEqual([
      'news.alert',
    ]);
    expect(eventsTakenAnew(disabled, { ...disabled, filter: null })).toEqual([]);
  });
});
