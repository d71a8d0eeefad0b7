// Who is calling: the tenant and the scopes of the credential. The
// access-control issue fills the authentication slot with API keys and OAuth
// tokens; until then `openAccess` admits every request as one default tenant
// holding every scope, so the routes are already written against a principal.
import type { Context, Next } from 'koa';

export interface Principal {
  tenantId: string;
  /** Who holds the credential (a client id), for rate limits and logs. */
  clientId: string;
  scopes: ReadonlySet<string>;
}

export type Authenticate = (ctx: Context, next: Next) => Promise<void>;

export const allScopes = [
  'read:feeds',
  'write:sources',
  'write:monitors',
  'write:webhooks',
  'use:ai',
  'use:audio',
];

export function openAccess(tenantId: string): Authenticate {
  const principal: Principal = { tenantId, clientId: 'anonymous', scopes: new Set(allScopes) };
  return async (ctx, next) => {
    ctx.state.principal = principal;
    await next();
  };
}

/** The tenant the authentication middleware put on the request. */
export function tenantOf(ctx: { state: { principal?: Principal } }): string {
  const principal = ctx.state.principal;
  if (!principal) throw new Error('no principal on the request: the authentication middleware did not run');
  return principal.tenantId;
}
