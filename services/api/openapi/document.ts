// The OpenAPI 3.1 document, produced from the route descriptions and their zod
// schemas (the same objects that validate requests), so it cannot drift from
// what the API accepts. OpenAPI 3.1 schemas are JSON Schema 2020-12, which is
// what zod's toJSONSchema writes.
import { z } from 'zod';
import { errorStatus, type ErrorCode } from '../../runtime/api-error.ts';
import type { RouteSpec } from '../http/route.ts';
import { jsonType } from '../http/conditional-get.ts';
import { negotiatesAccept } from '../http/negotiation.ts';
import { IDEMPOTENCY_KEY_HEADER, REPLAYED_HEADER, maxKeyLength } from '../idempotency/idempotency-key.ts';
import { webhookPayloads } from '../../webhooks/payloads.ts';
import { articleAudioOperations, audioFileOperations } from '../audio/audio-operation.ts';
import { articleAudioPath } from '../audio/article-audio-route.ts';
import { audioPath } from '../audio/audio-route.ts';
import { scopeDescriptions } from '../auth/scopes.ts';
import { tokenPath } from '../auth/token-endpoint.ts';

type Json = Record<string, unknown>;

const componentRef = (id: string) => `#/components/schemas/${id}`;

export const errorSchema = z
  .object({
    error: z.object({
      code: z.enum(Object.keys(errorStatus) as [ErrorCode, ...ErrorCode[]]),
      message: z.string().meta({ description: 'What was wrong, naming the parameter or field.' }),
      request_id: z
        .string()
        .optional()
        .meta({ description: 'Given with 5xx answers; quote it when reporting.' }),
    }),
  })
  .meta({ id: 'Error' });

/**
 * A request body's component, before the components are known: `resolveInputRefs` turns it into the
 * component of what the API accepts.
 */
const inputRefPrefix = '#/input-components/';

/** Every $ref in a JSON value. */
function refsIn(value: unknown, out = new Set<string>()): Set<string> {
  if (Array.isArray(value)) for (const item of value) refsIn(item, out);
  else if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      if (key === '$ref' && typeof item === 'string') out.add(item);
      else refsIn(item, out);
    }
  }
  return out;
}

/** `value` with each $ref passed through `rename`. */
function renameRefs(value: unknown, rename: (ref: string) => string): unknown {
  if (Array.isArray(value)) return value.map((item) => renameRefs(item, rename));
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [
      key,
      key === '$ref' && typeof item === 'string' ? rename(item) : renameRefs(item, rename),
    ]),
  );
}

const idOf = (ref: string, prefix: string) => (ref.startsWith(prefix) ? ref.slice(prefix.length) : undefined);

/**
 * Every registered (id-carrying) schema, as components: what the API answers with (zod's output: a field
 * with a default is always there) and, for the schemas of request bodies, what it accepts (zod's input:
 * a field with a default may be left out). A schema whose two forms differ and that is also answered
 * with gets a second component, `<id>Input`. Returns the components and the document with the request
 * bodies' placeholders ($ref `#/input-components/<id>`) pointing at them.
 */
function resolveInputRefs<T>(document: T): { document: T; components: Record<string, Json> } {
  const render = (io: 'input' | 'output') => {
    const all = z.toJSONSchema(z.globalRegistry, { uri: componentRef, io, unrepresentable: 'any' });
    const out = new Map<string, Json>();
    for (const [id, schema] of Object.entries(all.schemas)) {
      const { $schema, $id, ...rest } = schema as Json;
      out.set(id, rest);
    }
    return out;
  };
  const outputs = render('output');
  const inputs = render('input');
  const closure = (start: Iterable<string>, forms: Map<string, Json>, prefix: string) => {
    const seen = new Set<string>();
    const queue = [...start];
    while (queue.length > 0) {
      const id = queue.pop()!;
      if (seen.has(id) || !forms.has(id)) continue;
      seen.add(id);
      for (const ref of refsIn(forms.get(id))) {
        const next = idOf(ref, prefix);
        if (next !== undefined) queue.push(next);
      }
    }
    return seen;
  };
  const placeholders = [...refsIn(document)].flatMap((ref) => idOf(ref, inputRefPrefix) ?? []);
  const accepted = closure(placeholders, inputs, componentRef(''));
  const answered = closure(
    [...refsIn(document)].flatMap((ref) => idOf(ref, componentRef('')) ?? []),
    outputs,
    componentRef(''),
  );
  const differs = (id: string) => JSON.stringify(inputs.get(id)) !== JSON.stringify(outputs.get(id));
  const inputName = (id: string) => (differs(id) && answered.has(id) ? `${id}Input` : id);
  const components: Record<string, Json> = Object.fromEntries(outputs);
  for (const id of accepted) {
    const renamed = renameRefs(inputs.get(id), (ref) => {
      const target = idOf(ref, componentRef(''));
      return target === undefined ? ref : componentRef(inputName(target));
    }) as Json;
    components[inputName(id)] = renamed;
  }
  // A request body's unknown top-level field is refused (route.ts, validate): the document says so, or
  // a client validating against it would send bodies the API answers 400.
  for (const id of placeholders) {
    const body = components[inputName(id)] as Json & { type?: unknown; additionalProperties?: unknown };
    if (body?.type === 'object' && body.additionalProperties === undefined) body.additionalProperties = false;
  }
  const resolved = renameRefs(document, (ref) => {
    const id = idOf(ref, inputRefPrefix);
    return id === undefined ? ref : componentRef(inputName(id));
  }) as T;
  return { document: resolved, components };
}

/** A schema for use in the document: a $ref if it is a component, else inline. */
function schemaOf(schema: z.ZodType, io: 'input' | 'output'): Json {
  const id = z.globalRegistry.get(schema)?.id;
  if (id) return { $ref: io === 'input' ? `${inputRefPrefix}${id}` : componentRef(id) };
  const { $schema, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as Json;
  // An inline input schema may still name components: those of what is accepted.
  if (io === 'input')
    return renameRefs(rest, (ref) => {
      const target = idOf(ref, componentRef(''));
      return target === undefined ? ref : `${inputRefPrefix}${target}`;
    }) as Json;
  return rest;
}

function parameters(object: z.ZodObject | undefined, location: 'query' | 'path'): Json[] {
  if (!object) return [];
  return Object.entries(object.shape).map(([name, field]) => {
    const schema = schemaOf(field as z.ZodType, 'input');
    const { description, examples, ...rest } = schema as Json & {
      description?: string;
      examples?: unknown[];
    };
    const optional = (field as z.ZodType).safeParse(undefined).success;
    // Query values are strings on the wire; a union that also allows an array documents its string form.
    const shown = location === 'query' && Array.isArray(rest.anyOf) ? stringForm(rest) : rest;
    return {
      name,
      in: location,
      required: location === 'path' || !optional,
      ...(description ? { description } : {}),
      ...(examples?.length ? { example: examples[0] } : {}),
      schema: shown,
    };
  });
}

function stringForm(schema: Json): Json {
  const variants = schema.anyOf as Json[];
  return variants.find((v) => v.type === 'string') ?? schema;
}

const commonErrors: ErrorCode[] = [
  'unauthorized',
  'insufficient_scope',
  'rate_limited',
  'concurrency_limit',
  'too_many_failed_credentials',
  'internal_error',
  'deadline_exceeded',
  // ClickHouse or Redis out of reach (app.ts), whatever the route: a client should retry after Retry-After.
  'service_unavailable',
];

const bodyErrors: ErrorCode[] = ['invalid_json', 'payload_too_large', 'unsupported_media_type'];

/** What a route that takes an Idempotency-Key may answer besides: a reused key, a key in use, Redis away. */
const idempotencyErrors: ErrorCode[] = [
  'invalid_parameter',
  'idempotency_key_reused',
  'idempotency_key_in_progress',
  'service_unavailable',
];

const idempotencyKeyParameter: Json = {
  name: IDEMPOTENCY_KEY_HEADER,
  in: 'header',
  required: false,
  description:
    'A key the client makes for this request (a UUID, say), sent again with every retry of it: the first ' +
    'request runs, and for 24 hours (by default) a retry with the same key and the same request gets the same answer ' +
    `(with \`${REPLAYED_HEADER}: true\`) without running again. The same key with a different request ` +
    'answers 422 idempotency_key_reused; while the first is still running, 409 ' +
    'idempotency_key_in_progress with Retry-After. Keys are per client, method and route. 5xx, 401, 403, ' +
    '408, 409 and 429 answers are not kept: a retry runs again.',
  schema: { type: 'string', minLength: 1, maxLength: maxKeyLength, pattern: '^[ -~]+$' },
  example: '8e03978e-40d5-43e8-bc93-6894a57f9324',
};

const replayedHeader: Json = {
  [REPLAYED_HEADER]: {
    description: 'Present on an answer stored for an earlier request with the same Idempotency-Key.',
    schema: { type: 'string', enum: ['true'] },
  },
};

/**
 * The hourly allowance, on every answer to an authenticated request when the plan has a limit
 * (limits/rate-limit-middleware.ts): a client can slow down before it is refused.
 */
const rateLimitHeaders: Json = {
  'RateLimit-Limit': {
    description: 'Calls the plan allows in any 60 minutes (absent on a plan without a limit).',
    schema: { type: 'integer' },
  },
  'RateLimit-Remaining': {
    description: 'Calls left in the current 60 minutes, this one counted.',
    schema: { type: 'integer' },
  },
  'RateLimit-Reset': {
    description: 'Seconds until a call is given back to the allowance.',
    schema: { type: 'integer' },
  },
};

const retryAfterHeader: Json = {
  'Retry-After': {
    description: 'Seconds to wait before asking again.',
    schema: { type: 'integer' },
  },
};

/** Statuses whose answers say when to come back: every 429 and 503, and a 409 of a retry still running. */
const retryAfterOn = (status: number, codes: readonly ErrorCode[]) =>
  status === 429 || status === 503 || codes.includes('idempotency_key_in_progress');

function errorResponses(route: RouteSpec): Record<string, Json> {
  const codes = new Set<ErrorCode>([...commonErrors, ...(route.errors ?? [])]);
  // A POST or DELETE that takes no body still reads one sent (it must be `{}`: http/route.ts).
  const readsBody = route.body !== undefined || route.method !== 'get';
  if (route.query || route.params || readsBody) codes.add('invalid_parameter');
  // Every route that reads a body (a GET that takes its parameters as a body too) checks it like this.
  if (readsBody) for (const code of bodyErrors) codes.add(code);
  if (route.idempotent) for (const code of idempotencyErrors) codes.add(code);
  // An Accept header that accepts none of what the route answers in (http/negotiation.ts).
  if (negotiatesAccept(route)) codes.add('not_acceptable');
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes)
    byStatus.set(errorStatus[code], [...(byStatus.get(errorStatus[code]) ?? []), code]);
  const out: Record<string, Json> = {};
  for (const [status, list] of [...byStatus].sort(([a], [b]) => a - b)) {
    const headers = {
      ...(retryAfterOn(status, list) ? retryAfterHeader : {}),
      // A request refused before it is known whose it is counts against no allowance.
      ...(route.scope && status !== 401 ? rateLimitHeaders : {}),
    };
    out[String(status)] = {
      description: `Error: ${list.join(' or ')}`,
      ...(Object.keys(headers).length > 0 ? { headers } : {}),
      content: { 'application/json': { schema: { $ref: componentRef('Error') } } },
    };
  }
  // What the server answers before any route is chosen (a method the path does not take, a bad Expect,
  // headers too large, a request too slow) has the same body: a client reads it as the typed Error.
  out.default = {
    description:
      'Error: any other status, answered before the route is reached (405 method_not_allowed, 408 ' +
      'request_timeout, 417 expectation_failed, 431 headers_too_large and the like), with the same body.',
    content: { 'application/json': { schema: { $ref: componentRef('Error') } } },
  };
  return out;
}

/**
 * Whether GET answers of the route carry a weak ETag and honour If-None-Match (http/conditional-get.ts):
 * its 200 is JSON. (The answers conditional-get.ts leaves alone besides, `no-store` ones, are all POSTs'.)
 */
function conditional(route: RouteSpec): boolean {
  const ok = route.responses[200];
  return route.method === 'get' && !!ok?.schema && jsonType.test(ok.contentType ?? 'application/json');
}

const etagHeader: Json = {
  ETag: {
    description:
      'A weak entity tag of the JSON (the same for every compression of it): send it back in ' +
      'If-None-Match to be answered 304 when nothing changed.',
    schema: { type: 'string' },
    example: 'W/"2dyxVqJ0n2yQ1m0dWv4m8Q"',
  },
};

const ifNoneMatchParameter: Json = {
  name: 'If-None-Match',
  in: 'header',
  required: false,
  description:
    "Entity tags of representations the client holds (an earlier answer's ETag), or `*`: when one " +
    'matches, the answer is 304 Not Modified with no body.',
  schema: { type: 'string' },
};

const notModified: Json = {
  description:
    "Not Modified: the If-None-Match named this answer's ETag. No body; the 200's headers (ETag, Cache-Control, rate limits).",
  headers: etagHeader,
};

function operation(route: RouteSpec): Json {
  const asQuery = route.method === 'get' && route.bodyFromQuery && route.body instanceof z.ZodObject;
  const tagged = conditional(route);
  const responses: Record<string, Json> = {};
  for (const [status, spec] of Object.entries(route.responses)) {
    const headers = {
      ...(route.idempotent ? replayedHeader : {}),
      ...(tagged && status === '200' ? etagHeader : {}),
      ...(route.scope ? rateLimitHeaders : {}),
      ...Object.fromEntries(
        Object.entries(spec.headers ?? {}).map(([name, description]) => [
          name,
          { description, schema: { type: 'string' } },
        ]),
      ),
    };
    responses[status] = {
      description: spec.description,
      ...(Object.keys(headers).length > 0 ? { headers } : {}),
      ...(spec.schema || spec.binary
        ? {
            content: {
              ...Object.fromEntries(
                (spec.binary ?? []).map((type) => [type, { schema: { type: 'string', format: 'binary' } }]),
              ),
              ...(spec.schema
                ? { [spec.contentType ?? 'application/json']: { schema: schemaOf(spec.schema, 'output') } }
                : {}),
            },
          }
        : {}),
    };
  }
  return {
    operationId: route.operationId,
    summary: route.summary,
    ...(route.description ? { description: route.description } : {}),
    tags: [route.tag],
    ...(route.scope
      ? {
          // Alternatives: a credential by either header, or a token the oauth2 scheme says how to get.
          security: [{ bearer: [route.scope] }, { apiKeyHeader: [route.scope] }, { oauth2: [route.scope] }],
          'x-required-scope': route.scope,
        }
      : {}),
    parameters: [
      ...parameters(route.params, 'path'),
      ...parameters(route.query, 'query'),
      ...(asQuery ? parameters(route.body as z.ZodObject, 'query') : []),
      ...(route.idempotent ? [idempotencyKeyParameter] : []),
      ...(route.requestHeaders ?? []).map(({ name, description, example }) => ({
        name,
        in: 'header',
        required: false,
        description,
        schema: { type: 'string', ...(example === undefined ? {} : { example }) },
      })),
      ...(tagged ? [ifNoneMatchParameter] : []),
    ],
    ...(route.body && !asQuery
      ? {
          requestBody: {
            // A request without a body is validated as {} (route.ts): it is optional when {} is valid.
            required: !route.body.safeParse({}).success,
            content: { 'application/json': { schema: schemaOf(route.body, 'input') } },
          },
        }
      : {}),
    responses: {
      ...responses,
      ...(tagged
        ? { '304': { ...notModified, headers: { ...etagHeader, ...(route.scope ? rateLimitHeaders : {}) } } }
        : {}),
      ...errorResponses(route),
    },
  };
}

// POST /oauth/token answers in RFC 6749's shapes rather than through the route
// descriptions (OAuth libraries parse it), so it is described here by hand.
const tokenRequest = {
  type: 'object',
  required: ['grant_type'],
  properties: {
    grant_type: { type: 'string', enum: ['client_credentials'] },
    client_id: { type: 'string', description: 'Unless HTTP Basic client authentication is used.' },
    client_secret: { type: 'string', description: 'Unless HTTP Basic client authentication is used.' },
    scope: {
      type: 'string',
      description: "Space-separated subset of the client's scopes; all of them when left out.",
      example: 'read:feeds write:monitors',
    },
  },
};
const tokenError = {
  type: 'object',
  required: ['error'],
  properties: {
    error: {
      type: 'string',
      // The four of RFC 6749 (5.2) this endpoint uses, and one of its own (an extension code, as 8.5
      // allows) for the 429 below: RFC 6749 has none for a client refused for a while.
      enum: [
        'invalid_request',
        'invalid_client',
        'unsupported_grant_type',
        'invalid_scope',
        'too_many_failed_credentials',
      ],
    },
    error_description: { type: 'string' },
  },
};
const tokenOperation = {
  operationId: 'issueAccessToken',
  summary: 'Exchange client credentials for an access token (RFC 6749, 4.4)',
  description:
    'The client authenticates with HTTP Basic or with client_id and client_secret in the body. The token is ' +
    'a signed JWT valid for one hour, sent as `Authorization: Bearer` like an API key.',
  tags: ['OAuth'],
  security: [{}, { clientBasic: [] }],
  requestBody: {
    required: true,
    content: {
      'application/json': { schema: tokenRequest },
      'application/x-www-form-urlencoded': { schema: tokenRequest },
    },
  },
  responses: {
    '200': {
      description: 'The access token',
      content: {
        'application/json': {
          schema: {
            type: 'object',
            required: ['access_token', 'token_type', 'expires_in', 'scope'],
            properties: {
              access_token: { type: 'string' },
              token_type: { type: 'string', enum: ['Bearer'] },
              expires_in: { type: 'integer', example: 3600 },
              scope: { type: 'string' },
            },
          },
        },
      },
    },
    '400': {
      description: 'invalid_request, unsupported_grant_type or invalid_scope',
      content: { 'application/json': { schema: tokenError } },
    },
    '401': { description: 'invalid_client', content: { 'application/json': { schema: tokenError } } },
    '413': {
      description: 'invalid_request: a body over API_MAX_BODY_BYTES',
      content: { 'application/json': { schema: tokenError } },
    },
    '415': {
      description: 'invalid_request: a body neither form-encoded nor JSON',
      content: { 'application/json': { schema: tokenError } },
    },
    '429': {
      description:
        'too_many_failed_credentials: too many distinct credentials failed to authenticate from the ' +
        "client's address within a minute (API_AUTH_FAILURES_PER_MINUTE); every token request from it is " +
        'refused, valid credentials too, until Retry-After seconds have passed',
      headers: {
        'Retry-After': { description: 'Seconds to wait before trying again', schema: { type: 'integer' } },
      },
      content: { 'application/json': { schema: tokenError } },
    },
  },
};

/**
 * The token endpoint's URL: relative to the document without a public URL; under API_PUBLIC_URL as the
 * operations' paths are (appended to it, where a relative reference would drop a path it has).
 */
const tokenUrl = (serverUrl: string | undefined) =>
  serverUrl === undefined ? tokenPath : `${serverUrl.replace(/\/+$/, '')}${tokenPath}`;

export interface DocumentInfo {
  version: string;
  serverUrl?: string;
}

export function openApiDocument(routes: readonly RouteSpec[], info: DocumentInfo): Json {
  const paths: Record<string, Record<string, Json>> = {};
  for (const route of routes) {
    paths[route.path] = { ...paths[route.path], [route.method]: operation(route) };
  }
  paths[tokenPath] = { post: tokenOperation };
  paths[audioPath] = audioFileOperations;
  paths[articleAudioPath] = articleAudioOperations;
  // What the service POSTs to registered endpoints (OpenAPI 3.1 `webhooks`).
  const webhooks = Object.fromEntries(
    Object.entries(webhookPayloads).map(([event, schema]) => [
      event,
      {
        post: {
          operationId: `webhook_${event.replace(/\W/g, '_')}`,
          summary: `${event} event`,
          description:
            'Signed as the Standard Webhooks specification says: headers webhook-id (the delivery id, the same ' +
            'on every attempt: deduplicate on it), webhook-timestamp and webhook-signature (v1, base64 ' +
            'HMAC-SHA256 over "id.timestamp.body" with the webhook secret; after a secret rotation, for a ' +
            'while, one space-separated v1 signature per secret: accept the delivery if any matches). ' +
            'Answer 2xx to acknowledge; 410 ' +
            'disables the webhook; anything else is retried after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h ' +
            '(each ±10%, so retries do not all arrive at once), then dead-lettered (re-send it through the ' +
            'API). With 429 or 503, a Retry-After header (seconds or HTTP date) postpones the next attempt, ' +
            'up to 10 h; it never brings one forward.',
          requestBody: {
            required: true,
            content: { 'application/json': { schema: schemaOf(schema, 'output') } },
          },
          responses: { '2XX': { description: 'Received' }, '410': { description: 'Disable this webhook' } },
        },
      },
    ]),
  );
  const resolved = resolveInputRefs({ paths, webhooks });
  return {
    openapi: '3.1.0',
    info: {
      title: 'News intelligence API',
      version: info.version,
      description:
        'News articles aggregated from RSS, Atom and JSON feeds, with AI enrichment and audio. Every ' +
        'endpoint takes `Authorization: Bearer <API key or access token>` (tokens from POST /oauth/token). ' +
        'Errors are always `{"error": {"code", "message"}}` (the token endpoint answers as RFC 6749 says). ' +
        'Every authenticated answer carries RateLimit-Limit, RateLimit-Remaining and RateLimit-Reset, but a ' +
        '429 concurrency_limit (refused before it is counted).',
    },
    ...(info.serverUrl ? { servers: [{ url: info.serverUrl }] } : {}),
    tags: [...new Set([...routes.map((r) => r.tag), 'Audio', 'OAuth'])].map((name) => ({ name })),
    paths: resolved.document.paths,
    webhooks: resolved.document.webhooks,
    components: {
      schemas: resolved.components,
      securitySchemes: {
        bearer: {
          type: 'http',
          scheme: 'bearer',
          description: 'An API key, or an access token from POST /oauth/token (client credentials).',
        },
        apiKeyHeader: {
          type: 'apiKey',
          in: 'header',
          name: 'X-API-Key',
          description: 'An API key (or access token) as X-API-Key, read when Authorization is absent.',
        },
        clientBasic: {
          type: 'http',
          scheme: 'basic',
          description: 'client_id and client_secret (RFC 6749, 2.3.1).',
        },
        oauth2: {
          type: 'oauth2',
          description:
            'OAuth 2.0 client credentials (RFC 6749, 4.4): an access token for some or all of the ' +
            "client's scopes, sent as `Authorization: Bearer`. Each operation names the scope it needs.",
          flows: {
            clientCredentials: { tokenUrl: tokenUrl(info.serverUrl), scopes: { ...scopeDescriptions } },
          },
        },
      },
    },
  };
}
