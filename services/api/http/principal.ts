// Who is calling: the tenant, the client holding the credential, its scopes
// and plan limits, as the authentication middleware (auth/authenticate.ts)
// establishes them.
import type { Context, Next } from 'koa';

/** The plan limits of a credential holder; null = unlimited. */
export interface PrincipalLimits {
  callsPerHour: number | null;
  liveConnections: number | null;
  alertEndpoints: number | null;
  /** Sources the tenant added and subscribes to (services/clients/plans.ts). */
  addedSources: number | null;
}

export interface Principal {
  tenantId: string;
  /** Who holds the credential (a client id), for rate limits and logs. */
  clientId: string;
  scopes: ReadonlySet<string>;
  limits: PrincipalLimits;
}

export type Authenticate = (ctx: Context, next: Next) => Promise<void>;

/** The plan limits of the credential the authentication middleware put on the request. */
export function limitsOf(ctx: { state: { principal?: Principal } }): PrincipalLimits {
  const principal = ctx.state.principal;
  if (!principal) throw new Error('no principal on the request: the authentication middleware did not run');
  return principal.limits;
}

/** The tenant the authentication middleware put on the request. */
export function tenantOf(ctx: { state: { principal?: Principal } }): string {
  const principal = ctx.state.principal;
  if (!principal) throw new Error('no principal on the request: the authentication middleware did not run');
  return principal.tenantId;
}
