// POST /oauth/token (RFC 6749 section 4.4, client credentials). The client
// authenticates with HTTP Basic or with client_id/client_secret in the body
// (JSON, like the rest of the API, or form-encoded, as the RFC does); an
// Authorization header of another scheme (the `Bearer <API key>` the interface
// has a client send with every request) authenticates nothing here and is left
// aside. The scopes asked for must be a subset of the client's. Answers and errors
// use RFC 6749's shapes, not the API's error envelope, because OAuth client
// libraries parse them.
import { headerRepeated } from '../http/repeated-header.ts';
import type Router from '@koa/router';
import type { Context } from 'koa';
import type { Counter } from 'prom-client';
import type { AccessTokens } from './access-tokens.ts';
import type { KnownClient } from './authenticate.ts';
import { firstDuplicateKey, isUtf8Charset, nestsDeeperThan, strictUtf8 } from '../http/json-body.ts';

/** Where the endpoint is served (the OpenAPI document's token URL). */
export const tokenPath = '/oauth/token';

export type OAuthError =
  | 'invalid_request'
  | 'invalid_client'
  | 'invalid_grant'
  | 'unauthorized_client'
  | 'unsupported_grant_type'
  | 'invalid_scope';

/**
 * An error_description as RFC 6749 5.2 allows it: printable ASCII without `"` and `\` (%x20-21 /
 * %x23-5B / %x5D-7E), at most 200 characters. The descriptions quote little of a request (a parameter's
 * name, a charset), but what they quote is the caller's: a quote becomes an apostrophe, a backslash a
 * slash, any other character outside the set a question mark, so a client's parser never meets them.
 */
export function oauthDescription(text: string): string {
  const allowed = text
    .replace(/"/g, "'")
    .replace(/\\/g, '/')
    .replace(/[^\x20-\x7e]/gu, '?');
  return allowed.length <= 200 ? allowed : `${allowed.slice(0, 197)}...`;
}

/** RFC 6749 3.3: a scope-token is printable ASCII without space, `"` and `\`. */
const scopeToken = /^[\x21\x23-\x5b\x5d-\x7e]+$/;

class TokenRequestError extends Error {
  constructor(
    readonly error: OAuthError,
    readonly description: string,
    readonly status = 400,
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
  // As every other endpoint answers one (http/json-body.ts): compressed bytes read as text would be
  // "not valid UTF-8", which names the wrong problem.
  const encoding = ctx.get('content-encoding').trim().toLowerCase();
  if (encoding !== '' && encoding !== 'identity')
    throw new TokenRequestError(
      'invalid_request',
      `the body must be sent uncompressed, not with Content-Encoding: ${encoding.slice(0, 40)}`,
      415,
    );
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBytes)
      throw new TokenRequestError('invalid_request', `request body larger than ${maxBytes} bytes`, 413);
    chunks.push(chunk);
  }
  // OAuth's parameters are UTF-8 (RFC 6749, appendix B), and JSON is (RFC 8259, 8.1): a body declared in
  // another charset, or bytes that are not UTF-8, would be read as another secret than the one sent.
  const charset = ctx.request.charset;
  if (!isUtf8Charset(charset)) {
    throw new TokenRequestError(
      'invalid_request',
      `the body must be UTF-8, not charset=${charset.slice(0, 40)}`,
      415,
    );
  }
  let text: string;
  try {
    text = strictUtf8.decode(Buffer.concat(chunks));
  } catch {
    throw new TokenRequestError('invalid_request', 'the body is not valid UTF-8');
  }
  // No body at all (HTTP Basic and nothing else): what is missing is grant_type, not a media type.
  if (text.trim() === '') return {};
  if (ctx.request.is('application/x-www-form-urlencoded')) {
    const form = new URLSearchParams(text);
    // RFC 6749 3.1/3.2: parameters must not be repeated; which of two grant_types or client_ids is meant?
    const keys = [...form.keys()];
    const repeated = keys.find((key, i) => keys.indexOf(key) !== i);
    if (repeated !== undefined)
      throw new TokenRequestError('invalid_request', `${repeated.slice(0, 60)} is given more than once`);
    // RFC 6749 3.1: a parameter sent without a value is as if it were not sent (libraries send `scope=`
    // when none is configured).
    return Object.fromEntries([...form].filter(([, value]) => value !== ''));
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

/**
 * A parameter's value: undefined when it is not sent or sent empty (RFC 6749 3.1, for JSON bodies as for
 * forms); one of another type than a string is refused, not taken for a missing one.
 */
function param(body: Record<string, unknown>, name: string): string | undefined {
  const value = body[name];
  if (value === undefined || value === '') return undefined;
  if (typeof value === 'string') return value;
  const kind = value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value;
  throw new TokenRequestError('invalid_request', `${name} must be a string, not ${kind}`);
}

export function tokenEndpoint(router: Router, deps: TokenEndpointDependencies): void {
  router.post(tokenPath, async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.set('Pragma', 'no-cache');
    try {
      // A secret in the URL is in every access log it passed: refused, never read, so that it is rotated.
      if (ctx.query.client_secret !== undefined)
        throw new TokenRequestError(
          'invalid_request',
          'client_secret is not read from the URL (logs keep URLs): send it in the body or with HTTP Basic, and rotate a secret that went into a URL',
        );
      if (headerRepeated(ctx.req, 'authorization'))
        throw new TokenRequestError('invalid_request', 'two Authorization headers: send one');
      const body = await readBody(ctx, deps.maxBodyBytes, deps.maxJsonDepth);
      // Only Basic is client authentication; a Basic header that cannot be read is refused, not ignored.
      const authorization = ctx.get('authorization');
      const basicScheme = /^\s*basic(\s|$)/i.test(authorization);
      const basic = basicScheme ? basicCredentials(authorization) : null;
      if (basicScheme && !basic) {
        throw new TokenRequestError('invalid_client', 'malformed HTTP Basic client authentication', 401);
      }
      const bodyId = param(body, 'client_id');
      const bodySecret = param(body, 'client_secret');
      // client_id beside HTTP Basic, naming the same client, is what several OAuth libraries send: it
      // is not a second authentication (RFC 6749 2.3.1 forbids two methods; a bare id is none).
      const sameId = bodyId === undefined || bodyId === basic?.id;
      if (basic && (bodySecret !== undefined || !sameId)) {
        throw new TokenRequestError(
          'invalid_request',
          'authenticate the client one way: HTTP Basic or the body, not both',
        );
      }
      const grantType = param(body, 'grant_type');
      if (!grantType) throw new TokenRequestError('invalid_request', 'grant_type is required');
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
        );
      }
      // What a refusal counts as this client's attempt (credential-guessing.ts); only its hash is kept.
      ctx.state.presentedCredential = `client ${id}:${secret}`;
      const client = deps.authenticateClient(id, secret);
      if (!client) {
        throw new TokenRequestError('invalid_client', 'unknown client, wrong secret or revoked client', 401);
      }
      // No scope asked for (or only spaces): every scope of the client, as RFC 6749 3.3 lets a server do.
      const asked = (param(body, 'scope') ?? '').split(' ').filter(Boolean);
      // Not quoted back: what is no scope-token at all is said so, not repeated.
      if (asked.some((s) => !scopeToken.test(s)))
        throw new TokenRequestError(
          'invalid_scope',
          'scope must be scope tokens separated by single spaces: printable ASCII without quotes or backslashes (RFC 6749 3.3)',
        );
      const requested = asked.length === 0 ? [...client.scopes] : [...new Set(asked)];
      const missing = requested.filter((s) => !client.scopes.includes(s));
      if (missing.length > 0) {
        const named = missing.slice(0, 5).map((s) => (s.length > 40 ? `${s.slice(0, 40)}...` : s));
        const more = missing.length > 5 ? ` and ${missing.length - 5} more` : '';
        throw new TokenRequestError('invalid_scope', `the client may not have: ${named.join(' ')}${more}`);
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
      // The scheme the endpoint takes client credentials in (RFC 6749 2.3.1), whatever the client tried:
      // a Bearer credential is no client authentication here.
      if (error.status === 401) ctx.set('WWW-Authenticate', 'Basic realm="news-intelligence"');
      ctx.body = { error: error.error, error_description: oauthDescription(error.description) };
    }
  });
}
