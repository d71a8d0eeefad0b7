import { describe, expect, it } from 'vitest';
import { ZodError } from 'zod';
import {
  createdClient,
  describeClient,
  revokedClient,
  withApiKey,
  withClientSecret,
  withPlan,
  withScopes,
} from './client.ts';
import { knownScopes } from './plans.ts';

const noCredentials = { api_key_prefix: null, api_key_hash: null, client_secret_hash: null };
const hashA = `sha256$${'a'.repeat(64)}`;
const hashB = `sha256$${'b'.repeat(64)}`;
const t0 = Date.UTC(2026, 0, 1);

const created = (overrides: Record<string, unknown> = {}) =>
  createdClient('cli_1', { tenant_id: 'ten_1', name: ' CRM (prod) ', ...overrides }, noCredentials, t0);

describe('createdClient', () => {
  it('starts at version 1 on the essentials plan with every scope', () => {
    expect(created()).toEqual({
      client_id: 'cli_1',
      tenant_id: 'ten_1',
      name: 'CRM (prod)',
      plan: 'essentials',
      limits: null,
      scopes: [...knownScopes],
      ...noCredentials,
      revoked: false,
      created_at: t0,
      version: 1,
      occurred_at: t0,
    });
  });

  it('accepts a narrower set of scopes, deduplicated in the canonical order', () => {
    expect(created({ scopes: ['use:ai', 'read:feeds', 'use:ai'] }).scopes).toEqual(['read:feeds', 'use:ai']);
  });

  it.each([
    ['an empty name', { name: '  ' }],
    ['an unknown scope', { scopes: ['read:feeds', 'admin'] }],
    ['no scope at all', { scopes: [] }],
    ['an unknown plan', { plan: { plan: 'gold' } }],
    ['enterprise without an hourly allowance', { plan: { plan: 'enterprise' } }],
    ['a zero limit', { plan: { plan: 'professional', limits: { live_connections: 0 } } }],
    ['a fractional limit', { plan: { plan: 'enterprise', limits: { calls_per_hour: 10.5 } } }],
    ['a limit beyond an Avro int', { plan: { plan: 'enterprise', limits: { calls_per_hour: 2 ** 31 } } }],
    ['an unknown limit', { plan: { plan: 'essentials', limits: { calls_per_day: 5 } } }],
    ['a malformed tenant id', { tenant_id: 'ten 1' }],
  ])('refuses %s', (_, overrides) => {
    expect(() => created(overrides)).toThrow(ZodError);
  });
});

describe('changes', () => {
  it('bump the version by one, keep created_at and stamp occurred_at', () => {
    const first = created();
    const second = withApiKey(first, 'nik_abcdefgh', hashA, t0 + 1000);
    const third = withClientSecret(second, hashB, t0 + 2000);
    expect(second).toMatchObject({ version: 2, created_at: t0, occurred_at: t0 + 1000, api_key_hash: hashA });
    expect(third).toMatchObject({
      version: 3,
      created_at: t0,
      occurred_at: t0 + 2000,
      api_key_hash: hashA,
      client_secret_hash: hashB,
    });
  });

  it('set the plan with its limits, and drop custom limits when they are not given again', () => {
    const enterprise = withPlan(
      created(),
      { plan: 'enterprise', limits: { calls_per_hour: 50_000 } },
      t0 + 1,
    );
    expect(enterprise).toMatchObject({
      plan: 'enterprise',
      limits: { calls_per_hour: 50_000, live_connections: null, alert_endpoints: null },
      version: 2,
    });
    expect(withPlan(enterprise, { plan: 'professional' }, t0 + 2)).toMatchObject({
      plan: 'professional',
      limits: null,
    });
    expect(withPlan(created(), { plan: 'essentials', limits: {} }, t0 + 1).limits).toBeNull();
  });

  it('set scopes to a valid subset only', () => {
    expect(withScopes(created(), ['write:webhooks'], t0 + 1).scopes).toEqual(['write:webhooks']);
    expect(() => withScopes(created(), ['write:everything'], t0 + 1)).toThrow(ZodError);
  });

  it('revoke by setting the flag and dropping every hash', () => {
    const withKeys = withClientSecret(withApiKey(created(), 'nik_abcdefgh', hashA, t0 + 1), hashB, t0 + 2);
    expect(revokedClient(withKeys, t0 + 3)).toMatchObject({
      revoked: true,
      api_key_prefix: null,
      api_key_hash: null,
      client_secret_hash: null,
      version: 4,
      occurred_at: t0 + 3,
    });
  });
});

describe('describeClient', () => {
  it('shows the key prefix and the limits in force, never a hash', () => {
    const client = withClientSecret(withApiKey(created(), 'nik_abcdefgh', hashA, t0 + 1), hashB, t0 + 2);
    const shown = describeClient(client);
    expect(JSON.stringify(shown)).not.toContain('sha256$');
    expect(shown).toMatchObject({
      api_key_prefix: 'nik_abcdefgh',
      has_api_key: true,
      has_client_secret: true,
      limits: { callsPerHour: 1_000, liveConnections: 5, alertEndpoints: 3, addedSources: 10 },
      created_at: '2026-01-01T00:00:00.000Z',
    });
  });
});
