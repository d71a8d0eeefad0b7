// POST /oauth/token (RFC 6749 section 4.4, client credentials). The client
// authenticates with HTTP Basic or with client_id/client_secret in the body
// (JSON, like the rest of the API, or form-encoded, as the RFC does); an
// Authorization header of another scheme (the `Bearer <API key>` the interface
// has a client send with every request) authenticates nothing here and is left
// aside. The scopes asked for must be a subset of the client's. Answers and errors
// use RFC 6749's shapes, not the API's error envelope, because OAuth client
// libraries parse them.
import type Router from '@koa/router';
import type { Context } from 'koa';
import type { Counter } from 'prom-client';
import type { AccessTokens } from './access-tokens.ts';
import type { KnownClient } from './authenticate.ts';
import { firstDuplicateKey, nestsDeeperThan } from '../http/json-body.ts';

export type OAuthError =
  | 'invalid_request'
  | 'invalid_client'
  | 'invalid_grant'
  | 'unauthorized_client'
  | 'unsupported_grant_type'
  | 'invalid_scope';

class TokenRequestError extends Error {
  constructor(
    readonly error: OAuthError,
    readonly description: string,
    readonly status = 400,
    readonly basic = false,
  ) {
    super(description);
  }
}

export interface TokenEndpointDependencies {
  tokens: AccessTokens;
  /** The active client with these credentials (secret checked in constant time), or null. */
  authenticateClient: (clientId: string, clientSecret: string) => KnownClient | null;
  maxBodyBytes: number;
  maxJsonDepth: number;
  issued?: Counter;
}

async function readBody(ctx: Context, maxBytes: number, maxDepth: number): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBytes)
      throw new TokenRequestError('invalid_request', `request body larger than ${maxBytes} bytes`, 413);
    chunks.push(chunk);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  // No body at all (HTTP Basic and nothing else): what is missing is grant_type, not a media type.
  if (text.trim() === '') return {};
  if (ctx.request.is('application/x-www-form-urlencoded')) {
    const form = new URLSearchParams(text);
    // RFC 6749 3.1/3.2: parameters must not be repeated; which of two grant_types or client_ids is meant?
    const keys = [...form.keys()];
    const repeated = keys.find((key, i) => keys.indexOf(key) !== i);
    if (repeated !== undefined)
      throw new TokenRequestError('invalid_request', `${repeated.slice(0, 60)} is given more than once`);
    return Object.fromEntries(form);
  }
  if (ctx.request.is('application/json')) {
    if (nestsDeeperThan(text, maxDepth))
      throw new TokenRequestError('invalid_request', `the body nests deeper than ${maxDepth} levels`);
    try {
      const value: unknown = JSON.parse(text);
      // As a repeated form parameter above: which of two grant_types or client_ids is meant?
      const repeated = firstDuplicateKey(text);
      if (repeated !== null)
        throw new TokenRequestError(
          'invalid_request',
          `${repeated.replace(/^\$\./, '').slice(0, 60)} is given more than once`,
        );
      if (value && typeof value === 'object' && !Array.isArray(value))
        return value as Record<string, unknown>;
    } catch (error) {
      if (error instanceof TokenRequestError) throw error;
      // fall through
    }
    throw new TokenRequestError('invalid_request', 'the body is not a JSON object');
  }
  throw new TokenRequestError(
    'invalid_request',
    'send the parameters as application/x-www-form-urlencoded or application/json',
    415,
  );
}

/** client_id and client_secret from HTTP Basic (RFC 6749 2.3.1: form-urlencoded, then base64). */
function basicCredentials(header: string): { id: string; secret: string } | null {
  const match = /^Basic +([A-Za-z0-9+/=]+) *$/i.exec(header);
  if (!match) return null;
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return null;
  try {
    const form = (s: string) => decodeURIComponent(s.replace(/\+/g, ' '));
    return { id: form(decoded.slice(0, colon)), secret: form(decoded.slice(colon + 1)) };
  } catch {
    return null;
  }
}

const text = (value: unknown) => (typeof value === 'string' ? value : undefined);

export function tokenEndpoint(router: Router, deps: TokenEndpointDependencies): void {
  router.post('/oauth/token', async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.set('Pragma', 'no-cache');
    try {
      const body = await readBody(ctx, deps.maxBodyBytes, deps.maxJsonDepth);
      // Only Basic is client authentication; a Basic header that cannot be read is refused, not ignored.
      const authorization = ctx.get('authorization');
      const basicScheme = /^\s*basic(\s|$)/i.test(authorization);
      const basic = basicScheme ? basicCredentials(authorization) : null;
      if (basicScheme && !basic) {
        throw new TokenRequestError(
          'invalid_client',
          'malformed HTTP Basic client authentication',
          401,
          true,
        );
      }
      const bodyId = text(body.client_id);
      const bodySecret = text(body.client_secret);
      // client_id beside HTTP Basic, naming the same client, is what several OAuth libraries send: it
      // is not a second authentication (RFC 6749 2.3.1 forbids two methods; a bare id is none).
      const sameId = bodyId === undefined || bodyId === basic?.id;
      if (basic && (bodySecret !== undefined || !sameId)) {
        throw new TokenRequestError(
          'invalid_request',
          'authenticate the client one way: HTTP Basic or the body, not both',
        );
      }
      const grantType = text(body.grant_type);
      if (!grantType)
        throw new TokenRequestError(
          'invalid_request',
          body.grant_type === undefined || body.grant_type === ''
            ? 'grant_type is required'
            : `grant_type must be the string "client_credentials", not ${body.grant_type === null ? 'null' : Array.isArray(body.grant_type) ? 'an array' : typeof body.grant_type}`,
        );
      if (grantType !== 'client_credentials') {
        throw new TokenRequestError(
          'unsupported_grant_type',
          'only grant_type=client_credentials is supported',
        );
      }
      const id = basic?.id ?? bodyId;
      const secret = basic?.secret ?? bodySecret;
      if (!id || !secret) {
        throw new TokenRequestError(
          'invalid_client',
          authorization && !basicScheme
            ? 'client authentication is required (client_id and client_secret, or HTTP Basic); an API key or token in Authorization does not get a token'
            : 'client authentication is required (client_id and client_secret)',
          401,
          true,
        );
      }
      // What a refusal counts as this client's attempt (credential-guessing.ts); only its hash is kept.
      ctx.state.presentedCredential = `client ${id}:${secret}`;
      const client = deps.authenticateClient(id, secret);
      if (!client) {
        throw new TokenRequestError(
          'invalid_client',
          'unknown client, wrong secret or revoked client',
          401,
          basic !== null,
        );
      }
      const scopeText = body.scope === undefined ? undefined : text(body.scope);
      if (body.scope !== undefined && scopeText === undefined) {
        throw new TokenRequestError('invalid_request', 'scope must be a space-separated string');
      }
      const requested =
        scopeText === undefined ? [...client.scopes] : [...new Set(scopeText.split(' ').filter(Boolean))];
      const missing = requested.filter((s) => !client.scopes.includes(s));
      if (missing.length > 0) {
        throw new TokenRequestError('invalid_scope', `the client may not have: ${missing.join(' ')}`);
      }
      if (requested.length === 0) throw new TokenRequestError('invalid_scope', 'no scope requested');
      const issued = await deps.tokens.issue({
        clientId: client.clientId,
        tenantId: client.tenantId,
        scopes: requested,
      });
      deps.issued?.inc();
      ctx.body = {
        access_token: issued.token,
        token_type: 'Bearer',
        expires_in: issued.expiresIn,
        scope: requested.join(' '),
      };
    } catch (error) {
      if (!(error instanceof TokenRequestError)) throw error;
      ctx.status = error.status;
      if (error.status === 401)
        ctx.set('WWW-Authenticate', error.basic ? 'Basic realm="news-intelligence"' : 'Bearer');
      ctx.body = { error: error.error, error_description: error.description };
    }
  });
}
