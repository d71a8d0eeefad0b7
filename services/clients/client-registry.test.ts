import { describe, expect, it } from 'vitest';
import { ZodError } from 'zod';
import type { Client } from '../runtime/events/types.generated.ts';
import {
  ClientNotFoundError,
  ClientRegistry,
  ClientRevokedError,
  TenantNotFoundError,
  type ClientStore,
} from './client-registry.ts';
import { verifyCredential } from './credentials.ts';
import { isStoredHash } from '../../test/support/credential-shapes.ts';

/** The compacted topic reduced to what the registry relies on: every appended state, latest wins. */
function memoryStore() {
  const appended: Client[] = [];
  const store: ClientStore = {
    read: async () => new Map(appended.map((c) => [c.client_id, structuredClone(c)])),
    append: async (client) => void appended.push(structuredClone(client)),
  };
  return { store, appended };
}

function setUp() {
  const { store, appended } = memoryStore();
  let now = Date.UTC(2026, 0, 1);
  const registry = new ClientRegistry({ store, clock: () => now++ });
  return { registry, appended };
}

describe('ClientRegistry', () => {
  it('creates a tenant with a first client holding an API key, stored only as a hash', async () => {
    const { registry, appended } = setUp();
    const created = await registry.createTenant({ name: 'Acme' });
    expect(created.tenantId).toMatch(/^ten_/);
    expect(created.apiKey).toMatch(/^nik_/);
    expect(created.clientSecret).toBeNull();
    expect(created.client).toMatchObject({ tenant_id: created.tenantId, name: 'Acme', version: 1 });
    expect(appended).toHaveLength(1);
    const stored = appended[0]!;
    expect(isStoredHash(stored.api_key_hash!)).toBe(true);
    expect(verifyCredential(created.apiKey!, stored.api_key_hash)).toBe(true);
    expect(stored.api_key_prefix).toBe(created.apiKey!.slice(0, 12));
    expect(JSON.stringify(appended)).not.toContain(created.apiKey!.slice(4));
  });

  it('issues a client secret on request, stored only as a hash', async () => {
    const { registry, appended } = setUp();
    const created = await registry.createTenant(
      { name: 'Acme', clientName: 'CRM' },
      { apiKey: false, clientSecret: true },
    );
    expect(created.apiKey).toBeNull();
    expect(created.client).toMatchObject({ name: 'CRM', api_key_hash: null, api_key_prefix: null });
    expect(verifyCredential(created.clientSecret!, appended[0]!.client_secret_hash)).toBe(true);
    expect(JSON.stringify(appended)).not.toContain(created.clientSecret!.slice(4));
  });

  it('ensures a client for a key chosen outside: created once, found again, only its hash stored', async () => {
    const { registry, appended } = setUp();
    const key = 'demo-key-chosen-by-the-user';
    const first = await registry.ensureClientWithKey({ name: 'Demo', plan: { plan: 'professional' } }, key);
    expect(first.created).toBe(true);
    expect(first.client.plan).toBe('professional');
    expect(verifyCredential(key, appended[0]!.api_key_hash)).toBe(true);
    expect(JSON.stringify(appended)).not.toContain(key);
    const again = await registry.ensureClientWithKey({ name: 'Demo' }, key);
    expect(again).toEqual({ client: first.client, created: false });
    await registry.revoke(first.client.client_id);
    expect((await registry.ensureClientWithKey({ name: 'Demo' }, key)).created).toBe(true);
    await expect(registry.ensureClientWithKey({ name: 'Demo' }, 'short')).rejects.toThrow(/at least 16/);
  });

  it('adds clients to existing tenants only', async () => {
    const { registry } = setUp();
    const { tenantId } = await registry.createTenant({ name: 'Acme' });
    const second = await registry.createClient({
      tenant_id: tenantId,
      name: 'Dashboards',
      scopes: ['read:feeds'],
    });
    expect(second.client).toMatchObject({ tenant_id: tenantId, scopes: ['read:feeds'] });
    await expect(registry.createClient({ tenant_id: 'ten_missing', name: 'x' })).rejects.toBeInstanceOf(
      TenantNotFoundError,
    );
    expect((await registry.list({ tenantId })).map((c) => c.name)).toEqual(['Acme', 'Dashboards']);
    expect(await registry.list({ tenantId: 'ten_other' })).toEqual([]);
  });

  it('refuses invalid input before generating or writing anything', async () => {
    const { registry, appended } = setUp();
    await expect(registry.createTenant({ name: 'Acme', scopes: ['root'] })).rejects.toBeInstanceOf(ZodError);
    await expect(
      registry.createTenant({ name: 'Acme', plan: { plan: 'enterprise' } }),
    ).rejects.toBeInstanceOf(ZodError);
    await expect(
      registry.createTenant({ name: 'Acme' }, { apiKey: false, clientSecret: false }),
    ).rejects.toThrow(/API key, a client secret, or both/);
    expect(appended).toHaveLength(0);
  });

  it('rotates a key: the new hash replaces the old, one version later', async () => {
    const { registry } = setUp();
    const created = await registry.createTenant({ name: 'Acme' });
    const rotated = await registry.issueApiKey(created.client.client_id);
    expect(rotated.rotated).toBe(true);
    expect(rotated.apiKey).not.toBe(created.apiKey);
    const current = await registry.get(created.client.client_id);
    expect(current.version).toBe(2);
    expect(verifyCredential(rotated.apiKey, current.api_key_hash)).toBe(true);
    expect(verifyCredential(created.apiKey!, current.api_key_hash)).toBe(false);
  });

  it('issues a first client secret, then rotates it', async () => {
    const { registry } = setUp();
    const { client } = await registry.createTenant({ name: 'Acme' });
    const first = await registry.issueClientSecret(client.client_id);
    const second = await registry.issueClientSecret(client.client_id);
    expect([first.rotated, second.rotated]).toEqual([false, true]);
    const current = await registry.get(client.client_id);
    expect(verifyCredential(second.clientSecret, current.client_secret_hash)).toBe(true);
    expect(verifyCredential(first.clientSecret, current.client_secret_hash)).toBe(false);
  });

  it('revokes for good: hashes gone, later credential commands refused, a second revoke writes nothing', async () => {
    const { registry, appended } = setUp();
    const { client } = await registry.createTenant({ name: 'Acme' });
    const revoked = await registry.revoke(client.client_id);
    expect(revoked).toMatchObject({
      change: 'changed',
      client: { revoked: true, api_key_hash: null, version: 2 },
    });
    expect(await registry.revoke(client.client_id)).toMatchObject({ change: 'unchanged' });
    expect(appended).toHaveLength(2);
    await expect(registry.issueApiKey(client.client_id)).rejects.toBeInstanceOf(ClientRevokedError);
    await expect(registry.issueClientSecret(client.client_id)).rejects.toBeInstanceOf(ClientRevokedError);
    await expect(registry.setPlan(client.client_id, { plan: 'professional' })).rejects.toBeInstanceOf(
      ClientRevokedError,
    );
  });

  it('changes the plan, and writes nothing when it is already the plan in force', async () => {
    const { registry, appended } = setUp();
    const { client } = await registry.createTenant({ name: 'Acme' });
    const enterprise = await registry.setPlan(client.client_id, {
      plan: 'enterprise',
      limits: { calls_per_hour: 100_000, live_connections: 200 },
    });
    expect(enterprise).toMatchObject({
      change: 'changed',
      client: {
        plan: 'enterprise',
        limits: { calls_per_hour: 100_000, live_connections: 200, alert_endpoints: null },
      },
    });
    const again = await registry.setPlan(client.client_id, {
      plan: 'enterprise',
      limits: { calls_per_hour: 100_000, live_connections: 200 },
    });
    expect(again.change).toBe('unchanged');
    expect(appended).toHaveLength(2);
  });

  it('narrows scopes', async () => {
    const { registry } = setUp();
    const { client } = await registry.createTenant({ name: 'Acme' });
    expect((await registry.setScopes(client.client_id, ['use:audio', 'use:ai'])).client.scopes).toEqual([
      'use:ai',
      'use:audio',
    ]);
  });

  it('answers an unknown client id with ClientNotFoundError', async () => {
    const { registry } = setUp();
    await expect(registry.issueApiKey('cli_missing')).rejects.toBeInstanceOf(ClientNotFoundError);
    await expect(registry.revoke('cli_missing')).rejects.toBeInstanceOf(ClientNotFoundError);
  });
});
