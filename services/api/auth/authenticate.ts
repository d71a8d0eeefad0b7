// The one authentication middleware in front of every endpoint: an API key or
// an OAuth access token as `Authorization: Bearer` (or, without Authorization,
// as `X-API-Key`). Either way the request
// gets a principal (tenant, client, scopes, plan limits); anything missing,
// malformed, unknown, expired or revoked is a 401 that says which, without
// echoing the credential.
import { headerRepeated } from '../http/repeated-header.ts';
import { ApiError } from '../../runtime/api-error.ts';
import type { Authenticate, Principal, PrincipalLimits } from '../http/principal.ts';
import { InvalidTokenError, type AccessTokens } from './access-tokens.ts';

/** What authentication needs to know about a client (the client directory provides it). */
export interface KnownClient {
  clientId: string;
  tenantId: string;
  scopes: readonly string[];
  revoked: boolean;
  limits: PrincipalLimits;
}

export interface ClientLookup {
  /** The live client holding this API key, or null (unknown, rotated away or revoked). */
  byApiKey(key: string): KnownClient | null;
  byId(clientId: string): KnownClient | null;
}

const challenge = 'Bearer realm="news-intelligence"';
/** Query parameters clients put credentials in by habit. */
const credentialParameters = ['api_key', 'apikey', 'key', 'access_token', 'token'];
const jwtShape = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;

const unauthorized = (message: string, error = 'invalid_token') =>
  new ApiError('unauthorized', message, { 'WWW-Authenticate': `${challenge}, error="${error}"` });

/**
 * A credential browsers can put in a URL, for the one endpoint whose clients cannot send headers
 * (EventSource on GET /v1/stream): a short-lived token of its own audience, so neither an API key nor a
 * normal access token ever needs to appear in a URL (and in the logs of whatever proxies it).
 */
export interface QueryTokens {
  paths: readonly string[];
  tokens: AccessTokens;
}

export function bearerAuthentication(deps: {
  clients: ClientLookup;
  tokens: AccessTokens;
  queryTokens?: QueryTokens;
}): Authenticate {
  const fromToken = async (credential: string, tokens: AccessTokens, kind: string): Promise<Principal> => {
    let claims;
    try {
      claims = await tokens.verify(credential);
    } catch (error) {
      if (error instanceof InvalidTokenError) throw unauthorized(`invalid ${kind}: ${error.message}`);
      throw error;
    }
    const client = deps.clients.byId(claims.clientId);
    if (!client || client.revoked || client.tenantId !== claims.tenantId) {
      throw unauthorized(`invalid ${kind}: its client is revoked or no longer exists`);
    }
    // Scopes taken away from the client since the token was issued are gone from the token too.
    const scopes = claims.scopes.filter((s) => client.scopes.includes(s));
    return {
      tenantId: client.tenantId,
      clientId: client.clientId,
      scopes: new Set(scopes),
      limits: client.limits,
    };
  };

  return async (ctx, next) => {
    if (headerRepeated(ctx.req, 'authorization'))
      throw unauthorized('two Authorization headers: send one credential', 'invalid_request');
    const header = ctx.get('authorization');
    const queryToken = ctx.query.access_token;
    if (queryToken !== undefined && deps.queryTokens?.paths.includes(ctx.path)) {
      // The URL's credential is never passed over for a header's: a key put there (which ends up in
      // proxy logs) is refused however the request also authenticates.
      if (header || ctx.get('x-api-key'))
        throw unauthorized(
          'two credentials: send either an Authorization (or X-API-Key) header or access_token in the URL, not both',
        );
      if (typeof queryToken !== 'string' || !jwtShape.test(queryToken))
        throw unauthorized('access_token: expected a stream token from POST /v1/stream/tokens');
      ctx.state.principal = await fromToken(queryToken, deps.queryTokens.tokens, 'stream token');
      await next();
      return;
    }
    // X-API-Key, which many API clients send by habit, is read when Authorization is absent.
    const apiKeyHeader = header ? '' : ctx.get('x-api-key');
    if (!header && !apiKeyHeader) {
      // A credential put in the URL is not read (URLs end up in proxy and server logs); the client is
      // told that, not that it sent nothing. The parameter is named, its value never repeated.
      const inUrl = credentialParameters.find((name) => ctx.query[name] !== undefined);
      throw new ApiError(
        'unauthorized',
        inUrl === undefined
          ? 'missing credentials: send Authorization: Bearer <API key or access token> (or X-API-Key: <API key>)'
          : `credentials are not read from the URL (${inUrl} was given): send Authorization: Bearer <API key or access token> (or X-API-Key: <API key>), and rotate a key that went into a URL, which logs keep`,
        {
          'WWW-Authenticate': challenge,
        },
      );
    }
    const match = header
      ? /^Bearer +([\x21-\x7e]+) *$/i.exec(header)
      : /^ *([\x21-\x7e]+) *$/.exec(apiKeyHeader);
    if (!match)
      throw unauthorized(
        header
          ? 'malformed Authorization header: expected "Bearer <API key or access token>"'
          : 'malformed X-API-Key header: expected the API key alone',
        'invalid_request',
      );
    const credential = match[1]!;

    let principal: Principal;
    if (jwtShape.test(credential)) {
      principal = await fromToken(credential, deps.tokens, 'access token');
    } else {
      const client = deps.clients.byApiKey(credential);
      if (!client || client.revoked) throw unauthorized('unknown or revoked API key');
      principal = {
        tenantId: client.tenantId,
        clientId: client.clientId,
        scopes: new Set(client.scopes),
        limits: client.limits,
      };
    }
    ctx.state.principal = principal;
    await next();
  };
}
