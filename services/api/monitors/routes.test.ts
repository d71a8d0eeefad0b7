// GET /api/v1/crm/monitors: its filters as the router reads them (route.ts validate), the 400 naming the
// parameter for what it refuses, and what the list handler asks the registry for.
import type { Context } from 'koa';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../runtime/api-error.ts';
import type { MonitorFilter, MonitorItem, MonitorRegistry } from '../../monitors/monitor-registry.ts';
import { givenSeparator } from '../http/params.ts';
import { validate } from '../http/route.ts';
import { monitorListParameters, monitorRoutes } from './routes.ts';

const read = (query: Record<string, string>) => validate(monitorListParameters, query, 'query');

const refusal = (query: Record<string, string>): { status: number; code: string; message: string } => {
  try {
    read(query);
  } catch (error) {
    if (error instanceof ApiError) return { status: error.status, code: error.code, message: error.message };
    throw error;
  }
  throw new Error(`accepted ${JSON.stringify(query)}`);
};

describe('the filters of GET /api/v1/crm/monitors', () => {
  it('takes none: every monitor, the first page of 20', () => {
    expect(read({})).toEqual({ limit: 20, offset: 0 });
  });

  it('reads contact_id as CRM ids, exactly as given: case, accents and inner spaces kept', () => {
    expect(read({ contact_id: '003Ab000001' }).contact_id).toEqual(['003Ab000001']);
    expect(read({ contact_id: ' a, B ' }).contact_id).toEqual(['a', 'B', 'a, B']);
    // Not composed, nor its spaces folded: the id stored is the one the CRM sent.
    expect(read({ contact_id: 'Rene\u0301  Dupont' }).contact_id).toEqual(['Rene\u0301  Dupont']);
    // Repeated (contact_id=a&contact_id=b), as route.ts joins the values of a list given twice.
    expect(read({ contact_id: `a${givenSeparator}b` }).contact_id).toEqual(['a', 'b']);
  });

  it('reads an id that holds a comma whole, besides its pieces', () => {
    expect(read({ contact_id: 'acct-7,contact-2' }).contact_id).toEqual([
      'acct-7',
      'contact-2',
      'acct-7,contact-2',
    ]);
  });

  it('reads active as the other true/false parameters do', () => {
    expect(read({ active: 'true' }).active).toBe(true);
    expect(read({ active: 'FALSE' }).active).toBe(false);
    expect(read({ active: '0', contact_id: 'c-1', limit: '5', offset: '10' })).toEqual({
      active: false,
      contact_id: ['c-1'],
      limit: 5,
      offset: 10,
    });
  });

  it('answers 400 invalid_parameter naming the parameter for a malformed value', () => {
    const cases: [Record<string, string>, RegExp][] = [
      [{ active: 'yes' }, /^active: must be true, false, 1 or 0 \(got "yes"\)$/],
      [{ active: '' }, /^active: must be true, false, 1 or 0/],
      [{ contact_id: '' }, /^contact_id: must not be empty; expected a CRM contact id/],
      [{ contact_id: ' , ' }, /^contact_id: must not be empty/],
      [{ contact_id: 'x'.repeat(201) }, /^contact_id: "x{60}…" is not a CRM contact id of at most 200/],
      [{ contact_id: 'c-1,c\u00002' }, /^contact_id: "c\\u00002" is not a CRM contact id/],
      [
        { contact_id: Array.from({ length: 21 }, (_, i) => `c-${i}`).join(',') },
        /^contact_id: at most 20 comma-separated values/,
      ],
      [{ limit: '0' }, /^limit: must be an integer from 1 to 100/],
      [{ offset: '-1' }, /^offset: must be an integer of at least 0/],
    ];
    for (const [query, message] of cases) {
      const answer = refusal(query);
      expect([query, answer.status, answer.code]).toEqual([query, 400, 'invalid_parameter']);
      expect(answer.message).toMatch(message);
    }
  });

  it('answers 400 naming a filter it does not have, and what it does accept', () => {
    // Monitors have no type: each watches a company for a CRM contact.
    for (const name of ['type', 'status', 'company', 'contact']) {
      const answer = refusal({ [name]: 'x' });
      expect([answer.status, answer.code]).toEqual([400, 'invalid_parameter']);
      expect(answer.message).toBe(`${name}: unknown parameter (accepted: contact_id, active, limit, offset)`);
    }
  });
});

describe('the list handler', () => {
  const monitor = (id: string): MonitorItem => ({
    id,
    contact_id: 'c-1',
    company: 'Acme',
    aliases: [],
    alert_webhook: 'https://crm.example/hook',
    active: true,
    created_at: '2026-01-01T00:00:00Z',
    updated_at: '2026-01-01T00:00:00Z',
  });

  /** The list route over a registry that records what it was asked and answers `stored` for the page. */
  const listWith = (stored: MonitorItem[]) => {
    const asked: { tenant: string; page: { limit: number; offset: number }; filter: MonitorFilter }[] = [];
    const registry: Pick<MonitorRegistry, 'list' | 'withDelivery'> = {
      list: async (tenant, page, filter = {}) => {
        asked.push({ tenant, page, filter });
        const items = stored.slice(page.offset, page.offset + page.limit);
        return { items, hasMore: stored.length > page.offset + page.limit };
      },
      withDelivery: async (_tenant, items) =>
        items.map((m) => ({ ...m, delivery: { webhook_id: null, status: 'none', disabled_reason: null } })),
    };
    const route = monitorRoutes(registry as MonitorRegistry).find(
      (r) => r.method === 'get' && r.path === '/api/v1/crm/monitors',
    )!;
    const call = async (query: Record<string, string>) => {
      const ctx = { state: { principal: { tenantId: 'tenant-a' } }, body: undefined } as unknown as Context;
      await route.handler(ctx, { query: read(query), params: {}, body: undefined });
      return ctx.body as { monitors: { id: string }[]; paging: Record<string, unknown> };
    };
    return { asked, call };
  };

  it("asks the registry for the tenant's page with the filters given, and none it was not given", async () => {
    const { asked, call } = listWith([monitor('mon_1')]);
    await call({ contact_id: `c-1${givenSeparator}c-2`, active: 'false', limit: '10', offset: '30' });
    await call({});
    expect(asked).toEqual([
      {
        tenant: 'tenant-a',
        page: { limit: 10, offset: 30 },
        filter: { contactIds: ['c-1', 'c-2'], active: false },
      },
      { tenant: 'tenant-a', page: { limit: 20, offset: 0 }, filter: {} },
    ]);
  });

  it('pages the filtered list: next_offset until the last page, which has none', async () => {
    const { call } = listWith(['mon_5', 'mon_4', 'mon_3'].map(monitor));
    const first = await call({ contact_id: 'c-1', limit: '2' });
    expect(first.monitors.map((m) => m.id)).toEqual(['mon_5', 'mon_4']);
    expect(first.paging).toEqual({ limit: 2, offset: 0, returned: 2, has_more: true, next_offset: 2 });
    const last = await call({ contact_id: 'c-1', limit: '2', offset: String(first.paging.next_offset) });
    expect(last.monitors.map((m) => m.id)).toEqual(['mon_3']);
    expect(last.paging).toEqual({ limit: 2, offset: 2, returned: 1, has_more: false, next_offset: null });
  });
});
