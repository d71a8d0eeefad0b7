// Plans and scopes: what a client may do (scopes) and how much of it (limits).
// Plans differ only by limits (docs/http-api.md, "Plans and limits"); every plan grants
// every scope, and a client may be created with a narrower set.
import type { Client, Plan } from '../runtime/events/types.generated.ts';

/**
 * The scopes the API knows (docs/http-api.md, "Access control"). The schema keeps scopes an open set;
 * writers use these.
 */
export const knownScopes = [
  'read:feeds',
  'write:sources',
  'write:monitors',
  'write:webhooks',
  'use:ai',
  'use:audio',
] as const;

export type Scope = (typeof knownScopes)[number];

export const isKnownScope = (scope: string): scope is Scope =>
  (knownScopes as readonly string[]).includes(scope);

/** Plans a producer may write; `unknown` exists only for readers with an older schema. */
export const writablePlans = ['essentials', 'professional', 'enterprise'] as const satisfies readonly Plan[];

export type WritablePlan = (typeof writablePlans)[number];

/** Limits in force for a client. null = unlimited. */
export interface Limits {
  callsPerHour: number;
  liveConnections: number | null;
  alertEndpoints: number | null;
  /** Sources the tenant added (feeds new to the catalog) and subscribes to: each is polled for it. */
  addedSources: number | null;
}

/**
 * Plan defaults (docs/http-api.md, "Plans and limits"). Enterprise's hourly allowance is custom, so it has
 * none here.
 */
export const planLimits: Record<
  WritablePlan,
  { callsPerHour: number | null } & Omit<Limits, 'callsPerHour'>
> = {
  essentials: { callsPerHour: 1_000, liveConnections: 5, alertEndpoints: 3, addedSources: 10 },
  professional: { callsPerHour: 10_000, liveConnections: 25, alertEndpoints: 10, addedSources: 50 },
  enterprise: { callsPerHour: null, liveConnections: null, alertEndpoints: null, addedSources: null },
};

/**
 * The limits that apply to a client: its plan's defaults, with the client's
 * overrides (a null override keeps the default).
 */
export function effectiveLimits(client: Pick<Client, 'plan' | 'limits'>): Limits {
  // The schema tells readers to treat a plan they do not know as the most
  // restrictive one; overrides written for a plan we cannot interpret are ignored.
  if (client.plan === 'unknown') return { ...(planLimits.essentials as Limits) };
  const defaults = planLimits[client.plan];
  const overrides = client.limits;
  return {
    // Enterprise is always written with calls_per_hour (client.ts requires it). Should another
    // producer omit it, fall back to the largest published allowance rather than to "unlimited".
    callsPerHour: overrides?.calls_per_hour ?? defaults.callsPerHour ?? planLimits.professional.callsPerHour!,
    liveConnections: overrides?.live_connections ?? defaults.liveConnections,
    alertEndpoints: overrides?.alert_endpoints ?? defaults.alertEndpoints,
    addedSources: overrides?.added_sources ?? defaults.addedSources,
  };
}
