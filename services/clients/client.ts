// An API client: validation of what an administrator asks for (one schema per
// input, at the edge) and the state builders that turn a request into the next
// full state of the client, with the version rules of news.clients.v1 (1 on
// creation, +1 on every change, created_at repeated). These functions only ever
// see hashes of credentials; generating keys is client-registry.ts's business.
import { z } from 'zod';
import type { Client, ClientLimits } from '../runtime/events/types.generated.ts';
import { effectiveLimits, isKnownScope, knownScopes, type Scope, writablePlans } from './plans.ts';

/** Avro `int` is 32-bit signed: limits beyond it could not be written. */
const maxLimit = 2 ** 31 - 1;

const positiveLimit = (name: string) =>
  z
    .number({ error: `${name} must be a positive integer` })
    .int(`${name} must be a positive integer`)
    .min(1, `${name} must be a positive integer`)
    .max(maxLimit, `${name} must be at most ${maxLimit}`);

const identifier = (what: string) =>
  z
    .string({ error: `${what} is required` })
    .trim()
    .regex(/^[A-Za-z0-9][A-Za-z0-9_.:-]{0,63}$/, `${what} must be 1-64 letters, digits, _ . : or -`);

export const tenantIdInput = identifier('tenant id');
export const clientIdInput = identifier('client id');

export const clientNameInput = z
  .string({ error: 'name is required' })
  .trim()
  .min(1, 'name is required')
  .max(200, 'name must be at most 200 characters');

/** A non-empty subset of the known scopes, kept in the canonical order without duplicates. */
export const scopesInput = z
  .array(z.string().trim(), { error: 'scopes must be a list' })
  .min(1, 'a client needs at least one scope')
  .superRefine((scopes, ctx) => {
    const unknown = scopes.filter((s) => !isKnownScope(s));
    if (unknown.length > 0)
      ctx.addIssue({
        code: 'custom',
        message: `unknown scope(s) ${unknown.join(', ')}; known: ${knownScopes.join(', ')}`,
      });
  })
  .transform((scopes): Scope[] => knownScopes.filter((s) => scopes.includes(s)));

/** Overrides of the plan's limits; null (or absent) keeps the plan default. */
export const limitsInput = z
  .object({
    calls_per_hour: positiveLimit('calls_per_hour').nullable().default(null),
    live_connections: positiveLimit('live_connections').nullable().default(null),
    alert_endpoints: positiveLimit('alert_endpoints').nullable().default(null),
    added_sources: positiveLimit('added_sources').nullable().default(null),
  })
  .strict();

/** A plan and its limits. Enterprise allowances are custom: its hourly allowance must be given. */
export const planInput = z
  .object({
    plan: z.enum(writablePlans, { message: `plan must be one of ${writablePlans.join(', ')}` }),
    limits: limitsInput.nullable().default(null),
  })
  .superRefine((value, ctx) => {
    if (value.plan === 'enterprise' && !value.limits?.calls_per_hour)
      ctx.addIssue({
        code: 'custom',
        path: ['limits', 'calls_per_hour'],
        message:
          'the enterprise plan needs a custom calls_per_hour (live connections, alert endpoints and added sources default to unlimited)',
      });
  })
  .transform((value) => ({ plan: value.plan, limits: normaliseLimits(value.limits) }));

export const newClientInput = z
  .object({
    tenant_id: tenantIdInput,
    name: clientNameInput,
    plan: planInput.default({ plan: 'essentials', limits: null }),
    // Every plan grants every scope (plans differ by limits); narrower on request.
    scopes: scopesInput.default([...knownScopes]),
  })
  .strict();

export type NewClientInput = z.input<typeof newClientInput>;
export type PlanInput = z.input<typeof planInput>;

/** All-null overrides are no overrides. */
function normaliseLimits(limits: ClientLimits | null): ClientLimits | null {
  if (!limits) return null;
  const { calls_per_hour, live_connections, alert_endpoints, added_sources } = limits;
  return calls_per_hour === null &&
    live_connections === null &&
    alert_endpoints === null &&
    added_sources === null
    ? null
    : { calls_per_hour, live_connections, alert_endpoints, added_sources };
}

/** The hashed credentials a state carries (never the credentials themselves). */
export interface StoredCredentials {
  api_key_prefix: string | null;
  api_key_hash: string | null;
  client_secret_hash: string | null;
}

/** Version 1 of a client. */
export function createdClient(
  clientId: string,
  input: NewClientInput,
  credentials: StoredCredentials,
  now: number,
): Client {
  const valid = newClientInput.parse(input);
  return {
    client_id: clientIdInput.parse(clientId),
    tenant_id: valid.tenant_id,
    name: valid.name,
    plan: valid.plan.plan,
    limits: valid.plan.limits,
    scopes: valid.scopes,
    ...credentials,
    revoked: false,
    created_at: now,
    version: 1,
    occurred_at: now,
  };
}

type Change = Partial<Pick<Client, 'name' | 'plan' | 'limits' | 'scopes' | keyof StoredCredentials>>;

/** The next state of a client: the change applied, version +1, created_at kept. */
function nextState(previous: Client, change: Change, now: number): Client {
  return {
    ...previous,
    ...change,
    created_at: previous.created_at ?? now,
    version: previous.version + 1,
    occurred_at: now,
  };
}

export const withPlan = (previous: Client, input: PlanInput, now: number): Client =>
  nextState(previous, planInput.parse(input), now);

export const withScopes = (previous: Client, scopes: readonly string[], now: number): Client =>
  nextState(previous, { scopes: scopesInput.parse(scopes) }, now);

/** A new API key replaces the previous one, which stops working when this state is read. */
export const withApiKey = (previous: Client, prefix: string, hash: string, now: number): Client =>
  nextState(previous, { api_key_prefix: prefix, api_key_hash: hash }, now);

export const withClientSecret = (previous: Client, hash: string, now: number): Client =>
  nextState(previous, { client_secret_hash: hash }, now);

/**
 * Revocation is final (a new client is created instead). The hashes are dropped
 * as well as the flag set, so even a reader that ignored `revoked` could not
 * accept these credentials.
 */
export const revokedClient = (previous: Client, now: number): Client => ({
  ...nextState(previous, { api_key_prefix: null, api_key_hash: null, client_secret_hash: null }, now),
  revoked: true,
});

/**
 * What an administrator is shown about a client: no hash (the key's prefix
 * recognises it), the limits in force, times as ISO 8601.
 */
export function describeClient(client: Client) {
  return {
    client_id: client.client_id,
    tenant_id: client.tenant_id,
    name: client.name,
    plan: client.plan,
    limits: effectiveLimits(client),
    custom_limits: client.limits,
    scopes: client.scopes,
    api_key_prefix: client.api_key_prefix,
    has_api_key: client.api_key_hash !== null,
    has_client_secret: client.client_secret_hash !== null,
    revoked: client.revoked,
    created_at: client.created_at === null ? null : new Date(client.created_at).toISOString(),
    updated_at: new Date(client.occurred_at).toISOString(),
    version: client.version,
  };
}
