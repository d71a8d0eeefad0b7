// GET /api/v1/crm/monitors with its filters, on the real stack: contact_id (exact, one or several, an
// id holding a comma), active, both together, offset paging of the filtered list, a deleted monitor
// left out (a deletion's row holds no contact), tenancy, and the 400s naming the parameter. And
// PATCH /api/v1/crm/monitors/{id}, which pauses and resumes one: the states it appends to
// news.monitors.v1 (what the matcher reads), versions in steps of one, a repeat that appends nothing,
// the 409 for a resume that would make a second monitor of the same names, its 400s and 404s.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Monitor as MonitorEvent } from '../../services/runtime/events/types.generated.ts';
import type { components } from '../api-client/schema.d.ts';
import { topicNames } from '../../services/runtime/kafka/topics.ts';
import { startApiStack, type ApiStack } from './support/api-stack.ts';
import { recordTopics, type TopicRecorder } from './support/topic-recorder.ts';
import { waitFor } from './support/wait.ts';

type MonitorCreated = components['schemas']['MonitorCreated'];
type Monitor = components['schemas']['Monitor'];
type MonitorList = components['schemas']['MonitorList'];

describe('the filters of GET /api/v1/crm/monitors, and PATCH', () => {
  let stack: ApiStack;
  let recorder: TopicRecorder;
  /** The monitors made for this file, by a name of the test's own. */
  const made = new Map<string, Monitor>();
  let url: string;

  beforeAll(async () => {
    stack = await startApiStack('monitorfilters');
    recorder = await recordTopics(stack.kafka, stack.codec, [topicNames.monitors]);
    // One alert URL for all of them: they share its webhook, one alert endpoint of the plan.
    url = `http://127.0.0.1:9/${stack.run}/crm`;
    const monitors: [string, string, string][] = [
      ['alpha', 'c-A', 'Alpha Filters'],
      ['beta', 'c-A', 'Beta Filters'],
      ['gamma', 'Acct-7', 'Gamma Filters'],
      ['delta', 'acct-7,contact-2', 'Delta Filters'],
      ['epsilon', 'c-E', 'Epsilon Filters'],
    ];
    for (const [name, contact_id, company] of monitors) {
      const created = await stack.call<MonitorCreated>('POST', '/api/v1/crm/monitor', {
        contact_id,
        company,
        alert_webhook: url,
      });
      expect(created.status, created.text).toBe(201);
      made.set(name, created.body.monitor);
    }
    // epsilon paused. The answer is the monitor as it is now: GET shows the same at once.
    const epsilon = made.get('epsilon')!;
    const paused = await stack.call<Monitor>('PATCH', `/api/v1/crm/monitors/${epsilon.id}`, {
      active: false,
    });
    expect(paused.status, paused.text).toBe(200);
    expect(paused.body).toMatchObject({ id: epsilon.id, active: false, company: 'Epsilon Filters' });
    expect((await stack.call<Monitor>('GET', `/api/v1/crm/monitors/${epsilon.id}`)).body.active).toBe(false);
  }, 120_000);

  afterAll(async () => {
    await recorder?.stop();
    await stack?.close();
  }, 60_000);

  /** The states of a monitor appended to news.monitors.v1 since the recording began, in order. */
  const statesOf = (id: string) =>
    recorder
      .of<MonitorEvent>(topicNames.monitors)
      .filter((e) => e.key === id)
      .map((e) => e.value);

  const list = async (query: string, apiKey?: string) => {
    const answer = await stack.call<MonitorList>('GET', `/api/v1/crm/monitors?${query}`, undefined, {
      ...(apiKey ? { apiKey } : {}),
    });
    expect(answer.status, answer.text).toBe(200);
    return answer.body;
  };
  const idsOf = (...names: string[]) => names.map((name) => made.get(name)!.id);
  /** The list's order: newest first, then id descending. */
  const ordered = (ids: string[]) => {
    const byId = new Map([...made.values()].map((m) => [m.id, m]));
    return [...ids].sort((a, b) => {
      const [x, y] = [byId.get(a)!, byId.get(b)!];
      return y.created_at!.localeCompare(x.created_at!) || (a < b ? 1 : a > b ? -1 : 0);
    });
  };

  it('keeps the monitors of one CRM contact, or of several, compared exactly', async () => {
    const one = await list('contact_id=c-A');
    expect(one.monitors.map((m) => m.id)).toEqual(ordered(idsOf('alpha', 'beta')));
    expect(one.monitors.every((m) => m.contact_id === 'c-A')).toBe(true);

    const several = await list('contact_id=c-A,Acct-7');
    expect(several.monitors.map((m) => m.id)).toEqual(ordered(idsOf('alpha', 'beta', 'gamma')));
    // Repeated, OpenAPI's form for a list: the same.
    const repeated = await list('contact_id=c-A&contact_id=Acct-7');
    expect(repeated.monitors.map((m) => m.id)).toEqual(several.monitors.map((m) => m.id));

    // Case counts: acct-7 is another contact than Acct-7.
    expect((await list('contact_id=ACCT-7')).monitors).toEqual([]);
    expect((await list('contact_id=nobody')).monitors).toEqual([]);
  });

  it('reads an id that holds a comma whole', async () => {
    const comma = await list(`contact_id=${encodeURIComponent('acct-7,contact-2')}`);
    expect(comma.monitors.map((m) => m.id)).toEqual(idsOf('delta'));
  });

  it('keeps the active monitors or the inactive ones, and combines with contact_id', async () => {
    const inactive = await list('active=false&limit=100');
    expect(inactive.monitors.map((m) => m.id)).toEqual(idsOf('epsilon'));
    const active = await list('active=TRUE&limit=100');
    expect(active.monitors.map((m) => m.id)).toEqual(ordered(idsOf('alpha', 'beta', 'gamma', 'delta')));
    expect((await list('active=0&contact_id=c-A')).monitors).toEqual([]);
    expect((await list('active=1&contact_id=c-E,c-A')).monitors.map((m) => m.id)).toEqual(
      ordered(idsOf('alpha', 'beta')),
    );
  });

  it('pages the filtered list: every monitor once, in order, has_more until the last page', async () => {
    const whole = await list('active=true&limit=100');
    const seen: string[] = [];
    let offset: number | null = 0;
    let pages = 0;
    while (offset !== null) {
      const page = await list(`active=true&limit=3&offset=${offset}`);
      seen.push(...page.monitors.map((m) => m.id));
      expect(page.paging).toMatchObject({ limit: 3, offset, returned: page.monitors.length });
      expect(page.paging.has_more).toBe(page.paging.next_offset !== null);
      offset = page.paging.next_offset;
      pages += 1;
    }
    expect(pages).toBe(2);
    expect(seen).toEqual(whole.monitors.map((m) => m.id));
    expect(new Set(seen).size).toBe(4);
  });

  it("shows none of another tenant's monitors, whatever the filter names", async () => {
    const other = stack.otherClient.apiKey;
    expect((await list('contact_id=c-A', other)).monitors).toEqual([]);
    expect((await list('active=false', other)).monitors).toEqual([]);
  });

  it('answers 400 invalid_parameter naming the parameter for a malformed or unknown filter', async () => {
    const cases: [string, RegExp][] = [
      ['active=yes', /^active: must be true, false, 1 or 0 \(got "yes"\)$/],
      ['contact_id=', /^contact_id: must not be empty/],
      [
        `contact_id=${'x'.repeat(201)}`,
        /^contact_id: "x+…" is not a CRM contact id of at most 200 characters/,
      ],
      ['contact_id=c%01d', /^contact_id: .* is not a CRM contact id .*without control characters/],
      ['active=true&active=false', /^active: given more than once/],
      ['type=company', /^type: unknown parameter \(accepted: contact_id, active, limit, offset\)$/],
      ['status=active', /^status: unknown parameter/],
      ['limit=0', /^limit: must be an integer from 1 to 100/],
    ];
    for (const [query, message] of cases) {
      const answer = await stack.call('GET', `/api/v1/crm/monitors?${query}`);
      expect([query, answer.status, answer.body.error.code]).toEqual([query, 400, 'invalid_parameter']);
      expect(answer.body.error.message).toMatch(message);
    }
  });

  it('pauses with its next state on news.monitors.v1, which the matcher reads: every field kept, version 2', async () => {
    const epsilon = made.get('epsilon')!;
    await waitFor(async () => statesOf(epsilon.id).length === 2, 'the states of epsilon on the topic');
    const [created, paused] = statesOf(epsilon.id);
    expect(created).toMatchObject({ active: true, version: 1 });
    expect(paused).toEqual({ ...created, active: false, version: 2, occurred_at: paused!.occurred_at });
    expect(paused!.occurred_at).toBeGreaterThanOrEqual(created!.occurred_at);
  });

  it('resumes and pauses again in steps of one; the state it has already appends nothing', async () => {
    const { id } = (
      await stack.call<MonitorCreated>('POST', '/api/v1/crm/monitor', {
        contact_id: 'c-Z',
        company: 'Zeta Filters',
        aliases: ['Zeta'],
        alert_webhook: url,
      })
    ).body.monitor;
    const patch = (active: unknown) => stack.call<Monitor>('PATCH', `/api/v1/crm/monitors/${id}`, { active });
    const again = await patch(true);
    expect([again.status, again.body.active]).toEqual([200, true]);
    for (const active of [false, false, true, false]) {
      const answer = await patch(active);
      expect([answer.status, answer.body.active], answer.text).toEqual([200, active]);
      expect(answer.body.delivery.status).toBe('active'); // the webhook is not paused with it
    }
    await waitFor(async () => statesOf(id).length === 4, 'the four states of the monitor');
    // Give a repeat's append, were there one, time to arrive.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(statesOf(id).map((m) => [m.active, m.version])).toEqual([
      [true, 1],
      [false, 2],
      [true, 3],
      [false, 4],
    ]);
    expect((await stack.call('DELETE', `/api/v1/crm/monitors/${id}`)).status).toBe(204);
    expect((await patch(true)).status).toBe(404);
  });

  it('refuses to resume a monitor while an active one of the same names and URL exists (409)', async () => {
    const body = { contact_id: 'c-H', company: 'Eta Filters', aliases: ['Eta'], alert_webhook: url };
    const first = (await stack.call<MonitorCreated>('POST', '/api/v1/crm/monitor', body)).body.monitor;
    expect((await stack.call('PATCH', `/api/v1/crm/monitors/${first.id}`, { active: false })).status).toBe(
      200,
    );
    // With the first paused, the same monitor posted again is a new one: the paused one raises nothing.
    const second = await stack.call<MonitorCreated>('POST', '/api/v1/crm/monitor', {
      ...body,
      company: 'eta filters',
    });
    expect([second.status, second.body.created]).toEqual([201, true]);
    const resume = await stack.call('PATCH', `/api/v1/crm/monitors/${first.id}`, { active: true });
    expect([resume.status, resume.body.error.code]).toEqual([409, 'conflict']);
    expect(resume.body.error.message).toContain(second.body.monitor.id);
    expect((await stack.call<Monitor>('GET', `/api/v1/crm/monitors/${first.id}`)).body.active).toBe(false);
    // With the second deleted, it resumes.
    expect((await stack.call('DELETE', `/api/v1/crm/monitors/${second.body.monitor.id}`)).status).toBe(204);
    const resumed = await stack.call<Monitor>('PATCH', `/api/v1/crm/monitors/${first.id}`, { active: true });
    expect([resumed.status, resumed.body.active]).toEqual([200, true]);
    expect((await stack.call('DELETE', `/api/v1/crm/monitors/${first.id}`)).status).toBe(204);
  });

  it("answers 400 naming the field for a body it cannot apply, 404 for another tenant's monitor", async () => {
    const { id } = made.get('alpha')!;
    const cases: [unknown, RegExp][] = [
      [{}, /^active: /],
      [{ active: 'false' }, /^active: /],
      [{ active: null }, /^active: /],
      [{ active: true, company: 'Other' }, /^company: unknown field/],
    ];
    for (const [body, message] of cases) {
      const answer = await stack.call('PATCH', `/api/v1/crm/monitors/${id}`, body);
      expect([JSON.stringify(body), answer.status, answer.body.error.code]).toEqual([
        JSON.stringify(body),
        400,
        'invalid_parameter',
      ]);
      expect(answer.body.error.message).toMatch(message);
    }
    const other = { apiKey: stack.otherClient.apiKey };
    const crossed = await stack.call('PATCH', `/api/v1/crm/monitors/${id}`, { active: false }, other);
    expect([crossed.status, crossed.body.error.code]).toEqual([404, 'not_found']);
    expect((await stack.call<Monitor>('GET', `/api/v1/crm/monitors/${id}`)).body.active).toBe(true);
    expect((await stack.call('PATCH', '/api/v1/crm/monitors/mon_nope', { active: false })).status).toBe(404);
  });

  // Last: it deletes one of the monitors the others count.
  it('leaves a deleted monitor out of a filtered list: its deletion, not its last live state, is latest', async () => {
    const [beta] = idsOf('beta');
    expect((await stack.call('DELETE', `/api/v1/crm/monitors/${beta}`)).status).toBe(204);
    expect((await list('contact_id=c-A')).monitors.map((m) => m.id)).toEqual(idsOf('alpha'));
    expect((await list('active=true&limit=100')).monitors.map((m) => m.id)).not.toContain(beta);
    expect((await list('active=false&limit=100')).monitors.map((m) => m.id)).not.toContain(beta);
  });
});
