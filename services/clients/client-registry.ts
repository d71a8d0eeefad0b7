// Commands on API clients. The compacted news.clients.v1 topic is the state;
// each command reads it, validates, and appends the client's next full state.
// Keys and secrets are generated here, hashed before anything is written, and
// handed back to the caller once, after Kafka acknowledged the hash: a failed
// write never shows a key that would not work, and no copy is kept anywhere.
import type { Kafka } from 'kafkajs';
import type { Client } from '../runtime/events/types.generated.ts';
import type { EventProducer } from '../runtime/kafka/producer.ts';
import type { EventCodec } from '../runtime/kafka/registry.ts';
import { readTable } from '../runtime/kafka/table.ts';
import { topicNames } from '../runtime/kafka/topics.ts';
import {
  clientIdInput,
  clientNameInput,
  createdClient,
  newClientInput,
  revokedClient,
  tenantIdInput,
  withApiKey,
  withClientSecret,
  withPlan,
  withScopes,
  type NewClientInput,
  type PlanInput,
  type StoredCredentials,
} from './client.ts';
import {
  apiKeyPrefixOf,
  generateApiKey,
  generateClientId,
  generateClientSecret,
  generateTenantId,
  hashCredential,
  verifyCredential,
} from './credentials.ts';

/** Where client states live: the compacted topic in production, a map in unit tests. */
export interface ClientStore {
  /** Current state of every client (tombstoned ones absent). */
  read(): Promise<Map<string, Client>>;
  append(client: Client): Promise<void>;
}

export function kafkaClientStore(deps: {
  kafka: Kafka;
  codec: EventCodec;
  producer: EventProducer;
}): ClientStore {
  return {
    read: () => readTable<Client>(deps.kafka, deps.codec, topicNames.clients),
    append: (client) => deps.producer.send(topicNames.clients, [{ key: client.client_id, value: client }]),
  };
}

export class ClientNotFoundError extends Error {
  constructor(readonly clientId: string) {
    super(`no client with id ${clientId}`);
    this.name = 'ClientNotFoundError';
  }
}

export class TenantNotFoundError extends Error {
  constructor(readonly tenantId: string) {
    super(`no tenant with id ${tenantId} (create-tenant creates one)`);
    this.name = 'TenantNotFoundError';
  }
}

export class ClientRevokedError extends Error {
  constructor(readonly clientId: string) {
    super(`client ${clientId} is revoked; revocation is final, create a new client instead`);
    this.name = 'ClientRevokedError';
  }
}

/** Which credentials to issue to a new client. */
export interface CredentialChoice {
  apiKey?: boolean;
  clientSecret?: boolean;
}

/** A client with the credentials issued by this command, in clear for the one time they are shown. */
export interface IssuedClient {
  client: Client;
  apiKey: string | null;
  clientSecret: string | null;
}

export type Change = 'changed' | 'unchanged';

export class ClientRegistry {
  constructor(private readonly deps: { store: ClientStore; clock?: () => number }) {}

  private now(): number {
    return (this.deps.clock ?? Date.now)();
  }

  /** Every client (revoked ones included), by tenant then name; optionally only one tenant's. */
  async list(filter: { tenantId?: string } = {}): Promise<Client[]> {
    const clients = [...(await this.deps.store.read()).values()];
    return clients
      .filter((c) => filter.tenantId === undefined || c.tenant_id === filter.tenantId)
      .sort(
        (a, b) =>
          a.tenant_id.localeCompare(b.tenant_id) ||
          a.name.localeCompare(b.name) ||
          a.client_id.localeCompare(b.client_id),
      );
  }

  async get(clientId: string): Promise<Client> {
    const id = clientIdInput.parse(clientId);
    const found = (await this.deps.store.read()).get(id);
    if (!found) throw new ClientNotFoundError(id);
    return found;
  }

  /**
   * A new tenant and its first client. Tenants have no record of their own: a
   * tenant exists while one of its clients does, and its name is the first
   * client's name unless `clientName` is given.
   */
  async createTenant(
    input: { name: string; clientName?: string } & Omit<NewClientInput, 'tenant_id' | 'name'>,
    credentials: CredentialChoice = {},
  ): Promise<IssuedClient & { tenantId: string }> {
    const { name, clientName, ...rest } = input;
    const tenantName = clientNameInput.parse(name);
    const tenantId = generateTenantId();
    const issued = await this.issue(
      { ...rest, tenant_id: tenantId, name: clientName ?? tenantName },
      credentials,
    );
    return { tenantId, ...issued };
  }

  /** Another client for an existing tenant. */
  async createClient(input: NewClientInput, credentials: CredentialChoice = {}): Promise<IssuedClient> {
    const tenantId = tenantIdInput.parse(input.tenant_id);
    const current = await this.deps.store.read();
    if (![...current.values()].some((c) => c.tenant_id === tenantId)) throw new TenantNotFoundError(tenantId);
    return this.issue({ ...input, tenant_id: tenantId }, credentials);
  }

  /** Issues an API key, replacing (rotating) the client's current one if it has one. */
  async issueApiKey(clientId: string): Promise<{ client: Client; apiKey: string; rotated: boolean }> {
    const previous = await this.active(clientId);
    const apiKey = generateApiKey();
    const client = withApiKey(previous, apiKeyPrefixOf(apiKey), hashCredential(apiKey), this.now());
    await this.deps.store.append(client);
    return { client, apiKey, rotated: previous.api_key_hash !== null };
  }

  /** Issues an OAuth client secret, replacing (rotating) the current one if there is one. */
  async issueClientSecret(
    clientId: string,
  ): Promise<{ client: Client; clientSecret: string; rotated: boolean }> {
    const previous = await this.active(clientId);
    const clientSecret = generateClientSecret();
    const client = withClientSecret(previous, hashCredential(clientSecret), this.now());
    await this.deps.store.append(client);
    return { client, clientSecret, rotated: previous.client_secret_hash !== null };
  }

  /** Revokes every credential of the client, for good. Revoking twice changes nothing. */
  async revoke(clientId: string): Promise<{ client: Client; change: Change }> {
    const previous = await this.get(clientId);
    if (previous.revoked) return { client: previous, change: 'unchanged' };
    const client = revokedClient(previous, this.now());
    await this.deps.store.append(client);
    return { client, change: 'changed' };
  }

  /** Changes the plan; limits not given fall back to the new plan's defaults. */
  async setPlan(clientId: string, input: PlanInput): Promise<{ client: Client; change: Change }> {
    const previous = await this.active(clientId);
    const next = withPlan(previous, input, this.now());
    if (next.plan === previous.plan && JSON.stringify(next.limits) === JSON.stringify(previous.limits))
      return { client: previous, change: 'unchanged' };
    await this.deps.store.append(next);
    return { client: next, change: 'changed' };
  }

  async setScopes(clientId: string, scopes: readonly string[]): Promise<{ client: Client; change: Change }> {
    const previous = await this.active(clientId);
    const next = withScopes(previous, scopes, this.now());
    if (next.scopes.join(' ') === previous.scopes.join(' ')) return { client: previous, change: 'unchanged' };
    await this.deps.store.append(next);
    return { client: next, change: 'changed' };
  }

  /**
   * The active client holding `apiKey`, or a new tenant and client holding it. For a key chosen
   * outside (the demo's DEMO_API_KEY): the caller already has the key, so nothing is shown; it is
   * still stored only as a hash.
   */
  async ensureClientWithKey(
    input: { name: string } & Omit<NewClientInput, 'tenant_id' | 'name'>,
    apiKey: string,
  ): Promise<{ client: Client; created: boolean }> {
    if (apiKey.length < 16) throw new Error('an API key must be at least 16 characters long');
    const current = await this.deps.store.read();
    const found = [...current.values()].find((c) => !c.revoked && verifyCredential(apiKey, c.api_key_hash));
    if (found) return { client: found, created: false };
    const valid = newClientInput.parse({ ...input, tenant_id: generateTenantId() });
    const client = createdClient(
      generateClientId(),
      valid,
      {
        api_key_prefix: apiKeyPrefixOf(apiKey),
        api_key_hash: hashCredential(apiKey),
        client_secret_hash: null,
      },
      this.now(),
    );
    await this.deps.store.append(client);
    return { client, created: true };
  }

  private async active(clientId: string): Promise<Client> {
    const client = await this.get(clientId);
    if (client.revoked) throw new ClientRevokedError(client.client_id);
    return client;
  }

  private async issue(input: NewClientInput, choice: CredentialChoice): Promise<IssuedClient> {
    // Validate before generating anything, so a refused request leaves no trace.
    const valid = newClientInput.parse(input);
    const wantKey = choice.apiKey ?? true;
    const wantSecret = choice.clientSecret ?? false;
    if (!wantKey && !wantSecret) throw new Error('a client needs an API key, a client secret, or both');
    // 80 random bits: a collision with an existing id is not a case worth a read.
    const clientId = generateClientId();
    const apiKey = wantKey ? generateApiKey() : null;
    const clientSecret = wantSecret ? generateClientSecret() : null;
    const stored: StoredCredentials = {
      api_key_prefix: apiKey && apiKeyPrefixOf(apiKey),
      api_key_hash: apiKey && hashCredential(apiKey),
      client_secret_hash: clientSecret && hashCredential(clientSecret),
    };
    const client = createdClient(clientId, valid, stored, this.now());
    await this.deps.store.append(client);
    return { client, apiKey, clientSecret };
  }
}
