// The bodies of PATCH /api/v1/webhooks/{id} and POST .../secret/rotate as the router validates them
// (route.ts validate): what is accepted, and the 400 naming the field for what is not.
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../runtime/api-error.ts';
import { validate } from '../http/route.ts';
import { secretRotation, webhookChange } from './routes.ts';

const refusal = (schema: Parameters<typeof validate>[0], body: unknown): string => {
  try {
    validate(schema, body, 'body');
  } catch (error) {
    if (error instanceof ApiError && error.status === 400) return error.message;
    throw error;
  }
  throw new Error(`accepted ${JSON.stringify(body)}`);
};

describe('the body of PATCH /api/v1/webhooks/{id}', () => {
  it('takes any of url, events, filter and active, and leaves out what is not given', () => {
    expect(validate(webhookChange, { active: false }, 'body')).toEqual({ active: false });
    expect(validate(webhookChange, { events: ['news.breaking'] }, 'body')).toEqual({
      events: ['news.breaking'],
    });
    expect(validate(webhookChange, { filter: null }, 'body')).toEqual({ filter: null });
  });

  it('reads a filter whole: the lists left out are empty, monitor_ids only when given', () => {
    expect(validate(webhookChange, { filter: { categories: ['business'] } }, 'body')).toEqual({
      filter: { categories: ['business'], source_ids: [], languages: [], words: [] },
    });
    // Language codes in any case, and a locale as its language, as the lists' language parameter reads them.
    expect(
      validate(webhookChange, { filter: { languages: ['EN', ' Pt ', 'en-US', 'pt_BR'] } }, 'body').filter,
    ).toMatchObject({ languages: ['en', 'pt', 'en', 'pt'] });
    expect(validate(webhookChange, { filter: { monitor_ids: ['mon_1'] } }, 'body').filter).toMatchObject({
      monitor_ids: ['mon_1'],
    });
  });

  it('refuses an empty body, naming what it takes', () => {
    expect(refusal(webhookChange, {})).toBe('body: give at least one of url, events, filter, active');
  });

  it('refuses unknown fields, at the top and in the filter, naming them', () => {
    expect(refusal(webhookChange, { active: true, secret: 'x' })).toMatch(
      /^secret: unknown field \(accepted: url, events, filter, active\)/,
    );
    expect(refusal(webhookChange, { filter: { catgories: ['world'] } })).toMatch(
      /^filter\.catgories: unknown field/,
    );
  });

  it('validates each field as registration does', () => {
    expect(refusal(webhookChange, { events: [] })).toMatch(/^events: give at least one of news\.alert/);
    expect(refusal(webhookChange, { events: ['news.everything'] })).toMatch(
      /^events\.0: each must be one of/,
    );
    expect(refusal(webhookChange, { url: '' })).toBe('url: must not be empty');
    expect(refusal(webhookChange, { url: 'x'.repeat(2001) })).toMatch(
      /^url: must be at most 2000 characters/,
    );
    expect(refusal(webhookChange, { filter: { languages: ['english'] } })).toMatch(
      /^filter\.languages\.0: must be an ISO 639-1 code/,
    );
    expect(refusal(webhookChange, { active: 'yes' })).toMatch(/^active: must be true or false/);
  });
});

describe('the body of POST /api/v1/webhooks/{id}/secret/rotate', () => {
  it('may be empty: a generated secret, and the previous one kept for a day', () => {
    expect(validate(secretRotation, {}, 'body')).toEqual({ previous_secret_expires_in: 86_400 });
    expect(validate(secretRotation, { secret: 'whsec_abc', previous_secret_expires_in: 0 }, 'body')).toEqual({
      secret: 'whsec_abc',
      previous_secret_expires_in: 0,
    });
  });

  it('refuses a grace period outside 0 to 7 days, or not whole seconds, and unknown fields', () => {
    expect(refusal(secretRotation, { previous_secret_expires_in: -1 })).toBe(
      'previous_secret_expires_in: must be at least 0',
    );
    expect(refusal(secretRotation, { previous_secret_expires_in: 604_801 })).toBe(
      'previous_secret_expires_in: must be at most 604800',
    );
    expect(refusal(secretRotation, { previous_secret_expires_in: 1.5 })).toMatch(
      /^previous_secret_expires_in: must be an integer/,
    );
    expect(refusal(secretRotation, { previous_secret_expires_in: '60' })).toMatch(
      /^previous_secret_expires_in: must be a number/,
    );
    expect(refusal(secretRotation, { grace: 60 })).toMatch(/^grace: unknown field/);
  });
});
