// Builds request N of a run: the operation (round robin over a seeded order, so every operation gets
// its share), a valid request for it, then one mutation aimed at one of its targets: a parameter or
// body field (a hostile value), or a part of the request (credentials, Content-Type, headers, method,
// path, query string, body shape). A fifth of the requests stay valid, so deep code paths are reached.
import { fieldSchema, type Operation, type Schema } from './openapi-walker.ts';
import { createRng, parseSeed, requestRng, type Rng } from './prng.ts';
import { encodeComponent, type FuzzRequest } from './requests.ts';
import {
  asText,
  hostileKinds,
  hostileValue,
  PercentEncoded,
  toJson,
  validValue,
  type FieldContext,
  type HostileKind,
  type ValuePools,
} from './values.ts';

export interface Credentials {
  /** API key of a client holding every scope. */
  apiKey: string;
  /** API key of a client holding only read:feeds. */
  limitedKey: string;
}

export interface RequestPlan {
  seed: number;
  operations: readonly Operation[];
  /** Host header value (host:port of the API). */
  host: string;
  pools: ValuePools;
  credentials: Credentials;
}

/** The operations in a seeded order: request N goes to order[N mod length]. */
export function operationOrder(seed: number, count: number): number[] {
  const rng = requestRng(seed, -1);
  const order = Array.from({ length: count }, (_, i) => i);
  for (let i = order.length - 1; i > 0; i--) {
    const j = rng.int(0, i);
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  return order;
}

interface Draft {
  method: string;
  pathValues: Record<string, unknown>;
  query: [string, unknown][];
  headers: [string, string][];
  body: unknown;
  hasBody: boolean;
  contentType?: string;
  rawBody?: Buffer;
  chunked?: boolean;
  ownFraming?: boolean;
  pathOverride?: string;
  queryOverride?: string;
  /** `key`, `token`, `none`, or an Authorization value as it is. */
  auth: string;
}

export function buildRequest(
  plan: RequestPlan,
  order: readonly number[],
  index: number,
  options: { valid?: boolean; operationAt?: number } = {},
): FuzzRequest {
  const rng = requestRng(plan.seed, index);
  const operation = plan.operations[order[options.operationAt ?? index % order.length]!]!;
  const target = options.valid ? 'valid' : targetOf(plan.seed, operation, Math.floor(index / order.length));
  const draft = validDraft(operation, plan, rng);
  const mutation = target === 'valid' ? 'none' : mutate(draft, operation, target, plan, rng);
  return assemble(draft, operation, plan, { index, target, mutation });
}

/**
 * The target of an operation's n-th request: every fifth stays valid, the others walk the operation's
 * targets in a seeded order of its own, so even a short run aims at each of them.
 */
export function targetOf(seed: number, operation: Operation, visit: number): string {
  if (visit % 5 === 4) return 'valid';
  const rng = createRng(seed, parseSeed(operation.id));
  const targets = operation.targets
    .filter((t) => t !== 'valid')
    .map((t) => ({ t, k: rng.next() }))
    .sort((a, b) => a.k - b.k);
  return targets[(visit - Math.floor(visit / 5)) % targets.length]!.t;
}

const field = (
  operation: Operation,
  plan: RequestPlan,
  rng: Rng,
  name: string,
  where: FieldContext['where'],
) => ({ rng, pools: plan.pools, name, where, operationPath: operation.path }) satisfies FieldContext;

function validDraft(operation: Operation, plan: RequestPlan, rng: Rng): Draft {
  const draft: Draft = {
    method: operation.method,
    pathValues: {},
    query: [],
    headers: [],
    body: undefined,
    hasBody: false,
    auth: operation.authenticated
      ? rng.chance(0.1) && plan.pools.get('access-token').length
        ? 'token'
        : 'key'
      : 'none',
  };
  for (const parameter of operation.parameters) {
    const ctx = field(operation, plan, rng, parameter.name, parameter.in);
    if (parameter.in === 'path') draft.pathValues[parameter.name] = validValue(parameter.schema, ctx);
    else if (parameter.in === 'query' && (parameter.required || rng.chance(0.35)))
      draft.query.push([parameter.name, validValue(parameter.schema, ctx)]);
    else if (parameter.in === 'header' && rng.chance(0.3))
      draft.headers.push([parameter.name, textOf(validValue(parameter.schema, ctx))]);
  }
  // A delivery is resent through its own webhook; a signed audio URL is used whole.
  const delivery = draft.pathValues.delivery_id;
  if (typeof delivery === 'string') {
    const parent = plan.pools.get(`webhook-of:${delivery}`);
    if (parent.length) draft.pathValues.id = parent[0];
  }
  if ('key' in draft.pathValues && plan.pools.get('audio').length && rng.chance(0.9)) {
    const url = new URL(rng.pick(plan.pools.get('audio')));
    draft.pathValues.key = url.pathname.split('/').pop();
    draft.query = [...url.searchParams.entries()];
  }
  if (operation.body) {
    const form = operation.body.contentTypes.includes('application/x-www-form-urlencoded') && rng.chance(0.3);
    draft.body = validValue(operation.body.schema, field(operation, plan, rng, 'body', 'body'));
    draft.hasBody = true;
    draft.contentType = form ? 'application/x-www-form-urlencoded' : 'application/json';
  }
  if (operation.path === '/v1/synthesize' && rng.chance(0.5))
    draft.headers.push(['Accept', 'application/json']);
  return draft;
}

function mutate(draft: Draft, operation: Operation, target: string, plan: RequestPlan, rng: Rng): string {
  const [part, name = ''] = target.split(/:(.*)/s);
  switch (part) {
    case 'query':
    case 'path':
    case 'header':
      if (target.includes(':')) return mutateParameter(draft, operation, part, name, plan, rng);
      return part === 'query' ? mutateQueryString(draft, rng) : mutatePath(draft, operation, rng);
    case 'body':
      return name
        ? mutateBodyField(draft, operation, name, plan, rng)
        : mutateBodyShape(draft, operation, rng);
    case 'auth':
      return mutateAuth(draft, plan, rng);
    case 'content-type':
      return mutateContentType(draft, rng);
    case 'headers':
      return mutateHeaders(draft, rng);
    case 'method':
      return mutateMethod(draft, rng);
    default:
      return 'none';
  }
}

function mutateParameter(
  draft: Draft,
  operation: Operation,
  where: 'query' | 'path' | 'header',
  name: string,
  plan: RequestPlan,
  rng: Rng,
): string {
  const parameter = operation.parameters.find((p) => p.name === name && p.in === where)!;
  const kinds: (HostileKind | 'duplicate' | 'valid')[] = [...hostileKinds, 'valid'];
  if (where === 'query') kinds.push('duplicate', 'duplicate');
  if (where === 'header') kinds.splice(kinds.indexOf('encoding'), 1);
  const kind = rng.pick(kinds);
  const ctx = field(operation, plan, rng, name, where);
  const value =
    kind === 'valid' || kind === 'duplicate'
      ? validValue(parameter.schema, ctx)
      : hostileValue(parameter.schema, ctx, kind);
  if (where === 'path') {
    draft.pathValues[name] = value === undefined || value === null ? '' : value;
  } else if (where === 'query') {
    draft.query = draft.query.filter(([n]) => n !== name);
    if (value !== undefined) draft.query.push([name, value]);
    if (kind === 'duplicate') draft.query.push([name, validValue(parameter.schema, ctx)]);
  } else {
    draft.headers = draft.headers.filter(([n]) => n !== name);
    if (value !== undefined) draft.headers.push([name, headerSafe(textOf(value))]);
  }
  return kind;
}

/** Header values cannot hold CR or LF without becoming other headers: those become visible escapes. */
const headerSafe = (value: string) => value.replace(/\r/g, '\\r').replace(/\n/g, '\\n').slice(0, 12_000);

function mutateBodyField(
  draft: Draft,
  operation: Operation,
  path: string,
  plan: RequestPlan,
  rng: Rng,
): string {
  const schema: Schema = fieldSchema(operation.body!.schema, path) ?? {};
  const name = path.split('.').pop()!;
  const kinds = [...hostileKinds.filter((k) => k !== 'encoding'), 'valid' as const];
  const kind = rng.pick(kinds);
  const ctx = field(operation, plan, rng, name, 'body');
  const value = kind === 'valid' ? validValue(schema, ctx) : hostileValue(schema, ctx, kind);
  if (!draft.body || typeof draft.body !== 'object') draft.body = {};
  let at = draft.body as Record<string, unknown>;
  const parts = path.split('.');
  for (const part of parts.slice(0, -1)) {
    if (!at[part] || typeof at[part] !== 'object' || Array.isArray(at[part])) at[part] = {};
    at = at[part] as Record<string, unknown>;
  }
  if (value === undefined) delete at[name];
  else at[name] = value;
  draft.hasBody = true;
  return kind;
}

const bodyShapes = [
  'garbage',
  'truncated',
  'top-level array',
  'top-level string',
  'top-level number',
  'top-level null',
  'empty',
  'byte order mark',
  'invalid UTF-8',
  'duplicate keys',
  'prototype keys',
  '10,000 keys',
  'deep 10,000',
  'over 1 MiB',
  'whitespace padded',
  'chunked',
  'body on a bodiless method',
  'unknown field',
] as const;

function mutateBodyShape(draft: Draft, operation: Operation, rng: Rng): string {
  const shape = rng.pick(bodyShapes);
  const valid = toJson(draft.body ?? {});
  draft.hasBody = true;
  draft.contentType ??= 'application/json';
  if (draft.contentType !== 'application/json') draft.contentType = 'application/json';
  const raw = (text: string | Buffer) =>
    (draft.rawBody = Buffer.isBuffer(text) ? text : Buffer.from(text, 'utf8'));
  switch (shape) {
    case 'garbage':
      raw(
        rng.pick([
          'not json',
          '{a:1}',
          "{'a':1}",
          '<xml/>',
          'NaN',
          '{"a":1,}',
          '\u0000\u0001',
          '[1,2',
          '{"a" 1}',
        ]),
      );
      break;
    case 'truncated':
      raw(valid.slice(0, Math.max(1, Math.floor(valid.length / 2))));
      break;
    case 'top-level array':
      raw(`[${valid}]`);
      break;
    case 'top-level string':
      raw(JSON.stringify(valid));
      break;
    case 'top-level number':
      raw(rng.pick(['42', '-1', '1e400', '0']));
      break;
    case 'top-level null':
      raw(rng.pick(['null', 'true', 'false']));
      break;
    case 'empty':
      raw(rng.pick(['', ' ', '\r\n', '\t']));
      break;
    case 'byte order mark':
      raw(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(valid)]));
      break;
    case 'invalid UTF-8':
      raw(
        Buffer.concat([
          Buffer.from(valid.slice(0, -1)),
          Buffer.from([0x2c, 0x22, 0x78, 0x22, 0x3a, 0x22, 0xff, 0xc0, 0xaf, 0xed, 0xa0, 0x80, 0x22, 0x7d]),
        ]),
      );
      break;
    case 'duplicate keys':
      raw(valid.replace(/^\{/, `{${valid.slice(1, -1)}${valid.length > 2 ? ',' : ''}`));
      break;
    case 'prototype keys':
      raw(
        valid.replace(
          /^\{/,
          '{"__proto__":{"admin":true,"scopes":["all"]},"constructor":{"prototype":{"x":1}},',
        ),
      );
      break;
    case '10,000 keys':
      raw(`{${Array.from({ length: 10_000 }, (_, i) => `"k${i}":${i}`).join(',')}}`);
      break;
    case 'deep 10,000':
      raw(`${'['.repeat(10_000)}${']'.repeat(10_000)}`);
      break;
    case 'over 1 MiB':
      raw(`{"text":"${'a'.repeat(1024 * 1024 + 10)}"}`);
      draft.chunked = rng.chance(0.5);
      break;
    case 'whitespace padded':
      raw(`${' '.repeat(rng.pick([1_000, 500_000]))}${valid}${'\n'.repeat(100)}`);
      break;
    case 'chunked':
      raw(valid);
      draft.chunked = true;
      break;
    case 'body on a bodiless method':
      raw(valid);
      if (!operation.body) draft.method = operation.method;
      break;
    case 'unknown field':
      raw(
        valid.replace(
          /^\{/,
          `{"${rng.pick(['unexpected', 'id', 'tenant_id', 'admin', '__proto__'])}":1${valid.length > 2 ? ',' : ''}`,
        ),
      );
      break;
  }
  return shape;
}

function mutateAuth(draft: Draft, plan: RequestPlan, rng: Rng): string {
  const choice = rng.pick([
    'none',
    'empty bearer',
    'unknown key',
    'malformed',
    'basic',
    'huge',
    'jwt garbage',
    'alg none',
    'lowercase scheme',
    'extra spaces',
    'limited scope',
    'duplicated',
    'stream token',
    'query access_token',
    'access token',
  ]);
  const key = plan.credentials.apiKey;
  const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
  const set = (value: string) => (draft.auth = value);
  switch (choice) {
    case 'none':
      set('none');
      break;
    case 'empty bearer':
      set('Bearer ');
      break;
    case 'unknown key':
      set(`Bearer nik_${'A'.repeat(43)}`);
      break;
    case 'malformed':
      set(rng.pick(['Bearer', 'Token abc', `Bearer ${key} extra`, 'Bearer ä', `${key}`, 'Bearer \t']));
      break;
    case 'basic':
      set(`Basic ${Buffer.from(`${plan.pools.credentials.clientId}:wrong`).toString('base64')}`);
      break;
    case 'huge':
      set(`Bearer ${'x'.repeat(rng.pick([4_000, 12_000]))}`);
      break;
    case 'jwt garbage':
      set(`Bearer ${b64({ alg: 'HS256', kid: 'k9' })}.${b64({ sub: 'x' })}.AAAA`);
      break;
    case 'alg none':
      set(
        `Bearer ${b64({ alg: 'none' })}.${b64({ client_id: 'x', tenant_id: 'y', scope: 'read:feeds', exp: 4e9 })}.`,
      );
      break;
    case 'lowercase scheme':
      set(`bearer ${key}`);
      break;
    case 'extra spaces':
      set(`Bearer   ${key}   `);
      break;
    case 'limited scope':
      set(`Bearer ${plan.credentials.limitedKey}`);
      break;
    case 'duplicated':
      draft.headers.push(['Authorization', `Bearer nik_${'B'.repeat(43)}`]);
      break;
    case 'stream token':
      set(`Bearer ${plan.pools.get('stream-token')[0] ?? 'a.b.c'}`);
      break;
    case 'query access_token':
      set('none');
      draft.query.push(['access_token', plan.pools.get('access-token')[0] ?? key]);
      break;
    case 'access token':
      draft.auth = 'token';
      break;
  }
  return choice;
}

const contentTypes = [
  'none',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=xyz',
  'application/json; charset=utf-16',
  'application/json;;;',
  'application/json; charset="',
  'APPLICATION/JSON',
  'application/jsonx',
  'application/vnd.api+json',
  '*/*',
  '',
  'json',
  'application/json, text/plain',
  'text/html; charset=utf-8',
  'huge',
  'duplicated',
];

function mutateContentType(draft: Draft, rng: Rng): string {
  const choice = rng.pick(contentTypes);
  if (!draft.hasBody) {
    draft.hasBody = true;
    draft.body ??= { unexpected: true };
  }
  if (choice === 'none') draft.contentType = undefined;
  else if (choice === 'huge') draft.contentType = `application/json; x=${'y'.repeat(8_000)}`;
  else if (choice === 'duplicated') {
    draft.contentType = 'application/json';
    draft.headers.push(['Content-Type', 'text/plain']);
  } else draft.contentType = choice;
  return `Content-Type ${choice === 'huge' ? 'of 8 kB' : JSON.stringify(choice)}`;
}

const oddHeaders: [string, (rng: Rng) => [string, string][]][] = [
  ['one huge header', () => [['X-Huge', 'h'.repeat(12_000)]]],
  ['headers over the limit', () => [['X-Huge', 'h'.repeat(20_000)]]],
  [
    '200 headers',
    () => Array.from({ length: 200 }, (_, i): [string, string] => [`X-Many-${i}`, 'v'.repeat(50)]),
  ],
  ['2,500 headers', () => Array.from({ length: 2_500 }, (_, i): [string, string] => [`X-${i}`, '1'])],
  [
    'odd request id',
    (rng) => [
      ['X-Request-Id', rng.pick(['../../etc', 'é'.repeat(10), 'x'.repeat(200), '', ' ', '<script>'])],
    ],
  ],
  [
    'odd Accept',
    (rng) => [
      ['Accept', rng.pick(['audio/*', '*/*;q=0', 'text/event-stream', 'garbage', 'application/xml', ';;;'])],
    ],
  ],
  [
    'odd Accept-Encoding',
    (rng) => [['Accept-Encoding', rng.pick(['gzip, br, zstd', 'identity;q=0', '*;q=0', 'x'.repeat(500)])]],
  ],
  [
    'Range on anything',
    (rng) => [
      ['Range', rng.pick(['bytes=0-0', 'bytes=999999999-', 'items=0-1', 'bytes=-0', 'bytes=1-0,2-3'])],
    ],
  ],
  ['If-None-Match', () => [['If-None-Match', '*']]],
  ['huge Cookie', () => [['Cookie', `a=${'c'.repeat(8_000)}`]]],
  ['no Host', () => [['__drop__', 'host']]],
  ['two Hosts', () => [['Host', 'evil.example']]],
  [
    'odd Host',
    (rng) => [['__host__', rng.pick(['evil.example', '127.0.0.1:99999', '[::1', 'a b', '', 'é.example'])]],
  ],
  ['Expect 100-continue', () => [['Expect', '100-continue']]],
  ['odd Expect', () => [['Expect', 'the-unexpected']]],
  [
    'Upgrade',
    () => [
      ['Connection', 'Upgrade'],
      ['Upgrade', 'websocket'],
    ],
  ],
  ['Content-Encoding gzip', () => [['Content-Encoding', 'gzip']]],
  ['odd Transfer-Encoding', () => [['__framing__', 'Transfer-Encoding: gzip, chunked']]],
  ['two Content-Lengths', () => [['__framing__', 'Content-Length: 2\r\nContent-Length: 3']]],
  [
    'Transfer-Encoding with Content-Length',
    () => [['__framing__', 'Transfer-Encoding: chunked\r\nContent-Length: 3']],
  ],
  [
    'X-Forwarded-For',
    () => [
      ['X-Forwarded-For', '127.0.0.1, ::1, <script>'],
      ['X-Forwarded-Proto', 'gopher'],
    ],
  ],
  ['latin-1 bytes', () => [['X-Latin', '\u00ff\u00fe\u00e9']]],
  ['control byte', (rng) => [['X-Control', `a${rng.pick(['\u0000', '\u0001', '\u007f'])}b`]]],
  ['folded line', () => [['X-Folded', 'a\r\n  continued']]],
  ['empty name', () => [['', 'x']]],
  ['name with a space', () => [['X Bad', 'x']]],
  ['huge name', () => [[`X-${'n'.repeat(8_000)}`, 'x']]],
];

function mutateHeaders(draft: Draft, rng: Rng): string {
  const [name, make] = rng.pick(oddHeaders);
  for (const [header, value] of make(rng)) {
    if (header === '__drop__') draft.headers.push(['__drop__', value]);
    else if (header === '__host__') draft.headers.push(['__host__', value]);
    else if (header === '__framing__') {
      draft.headers.push(['__framing__', value]);
      draft.ownFraming = true;
      draft.rawBody ??= Buffer.from('{}');
      draft.hasBody = true;
    } else draft.headers.push([header, value]);
  }
  return name;
}

function mutateMethod(draft: Draft, rng: Rng): string {
  draft.method = rng.pick([
    'PUT',
    'PATCH',
    'TRACE',
    'OPTIONS',
    'HEAD',
    'DELETE',
    'POST',
    'GET',
    'FOO',
    'get',
    'M-SEARCH',
    'PROPFIND',
    'G(T',
  ]);
  return `method ${draft.method}`;
}

function mutatePath(draft: Draft, operation: Operation, rng: Rng): string {
  const path = fillPath(operation.path, draft.pathValues);
  const choice = rng.pick([
    'trailing slash',
    'double slash',
    'upper case',
    'dot segments',
    'encoded slash',
    'encoded prefix',
    'matrix parameter',
    'long path',
    'over-long path',
    'extra segment',
    'fragment',
    'absolute form',
    'raw bytes',
    'backslash',
  ]);
  const override: Record<typeof choice, string> = {
    'trailing slash': `${path}/`,
    'double slash': path.replace(/\//g, '//'),
    'upper case': path.toUpperCase(),
    'dot segments': `/v1/../${path.slice(1)}`,
    'encoded slash': path.replace(/\/([^/]*)$/, '%2F$1'),
    'encoded prefix': path.replace(/^\/v1/, '/%76%31').replace(/^\/api/, '/%61pi'),
    'matrix parameter': `${path};jsessionid=1`,
    'long path': `${path}/${'a'.repeat(4_000)}`,
    'over-long path': `${path}/${'a'.repeat(20_000)}`,
    'extra segment': `${path}/x/y`,
    fragment: `${path}#frag`,
    'absolute form': `http://evil.example${path}`,
    'raw bytes': `${path}/\u00e9\u00ff`,
    backslash: path.replace(/\//g, '\\'),
  };
  draft.pathOverride = override[choice];
  return choice;
}

function mutateQueryString(draft: Draft, rng: Rng): string {
  const base = queryText(draft.query);
  const join = (extra: string) => (base ? `${base}&${extra}` : extra);
  const choice = rng.pick([
    'unknown parameter',
    '1,000 parameters',
    'no value',
    'empty name',
    'ampersands',
    'brackets',
    'encoded name',
    'semicolons',
    'over-long query',
    'bad escape in a name',
    'prototype names',
    'everything twice',
    'lone question mark',
  ]);
  const text: Record<typeof choice, string> = {
    'unknown parameter': join('fuzz=1'),
    '1,000 parameters': join(Array.from({ length: 1_000 }, (_, i) => `p${i}=${i}`).join('&')),
    'no value': join('limit'),
    'empty name': join('=x'),
    ampersands: `&&&${base}&&&`,
    brackets: join('limit[]=1&offset[a]=2'),
    'encoded name': join('%6Cimit=5'),
    semicolons: join('limit=1;offset=2'),
    'over-long query': join(`q=${'q'.repeat(12_000)}`),
    'bad escape in a name': join('%zz=1'),
    'prototype names': join('__proto__=x&constructor=y&hasOwnProperty=z&toString=1'),
    'everything twice': base ? `${base}&${base}` : 'limit=1&limit=2',
    'lone question mark': '',
  };
  draft.queryOverride = text[choice];
  return choice;
}

/** A header value's text (a percent-encoded value as written). */
function textOf(value: unknown): string {
  const text = asText(value);
  return text instanceof PercentEncoded ? text.raw : text;
}

function fillPath(template: string, values: Record<string, unknown>): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = asText(values[name] ?? '');
    return value instanceof PercentEncoded ? value.raw : encodeComponent(value);
  });
}

function queryText(query: [string, unknown][]): string {
  return query
    .map(([name, value]) => {
      const text = asText(value);
      return `${encodeComponent(name)}=${text instanceof PercentEncoded ? text.raw : encodeComponent(text)}`;
    })
    .join('&');
}

function assemble(
  draft: Draft,
  operation: Operation,
  plan: RequestPlan,
  what: { index: number; target: string; mutation: string },
): FuzzRequest {
  const path = draft.pathOverride ?? fillPath(operation.path, draft.pathValues);
  const query = draft.queryOverride ?? queryText(draft.query);
  const url = draft.queryOverride !== undefined || query ? `${path}?${query}` : path;
  let host = plan.host;
  let dropHost = false;
  const headers: [string, string][] = [];
  const framing: string[] = [];
  for (const [name, value] of draft.headers) {
    if (name === '__drop__') dropHost = true;
    else if (name === '__host__') host = value;
    else if (name === '__framing__') framing.push(value);
  }
  if (!dropHost) headers.push(['Host', host]);
  if (draft.auth === 'key') headers.push(['Authorization', `Bearer ${plan.credentials.apiKey}`]);
  else if (draft.auth === 'token')
    headers.push(['Authorization', `Bearer ${plan.pools.get('access-token')[0] ?? plan.credentials.apiKey}`]);
  else if (draft.auth !== 'none') headers.push(['Authorization', draft.auth]);
  headers.push(['X-Fuzz-Request', String(what.index)]);
  let body: Buffer | undefined;
  if (draft.hasBody) {
    if (draft.rawBody) body = draft.rawBody;
    else if (
      draft.contentType === 'application/x-www-form-urlencoded' &&
      draft.body &&
      typeof draft.body === 'object'
    )
      body = Buffer.from(queryText(Object.entries(draft.body as Record<string, unknown>)));
    else body = Buffer.from(toJson(draft.body ?? {}), 'utf8');
    if (draft.contentType !== undefined) headers.push(['Content-Type', draft.contentType]);
  }
  for (const [name, value] of draft.headers) if (!name.startsWith('__')) headers.push([name, value]);
  const request: FuzzRequest = {
    index: what.index,
    operation: operation.id,
    target: what.target,
    mutation: what.mutation,
    method: draft.method,
    url,
    headers,
    ...(body !== undefined ? { body } : {}),
    ...(draft.chunked ? { chunked: true } : {}),
    ...(operation.path === '/v1/stream' ? { stream: true } : {}),
  };
  if (framing.length) {
    request.ownFraming = true;
    for (const line of framing.join('\r\n').split('\r\n')) {
      const at = line.indexOf(':');
      headers.push([line.slice(0, at), line.slice(at + 1).trim()]);
    }
  }
  return request;
}
