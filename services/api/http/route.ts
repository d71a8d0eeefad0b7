// One description per endpoint: method, path, the zod schemas of its inputs
// and outputs, and its handler. The router is built from these descriptions
// and so is the OpenAPI document, so what is documented is what is validated.
import type { Context } from 'koa';
import { z } from 'zod';
import { invalidParameter, type ErrorCode } from '../../runtime/api-error.ts';
import type { Scope } from '../../clients/plans.ts';
import { carriesBody, readJsonBody } from './json-body.ts';
import { givenSeparator, keepsValuesWhole, quote, takesCommaList } from './params.ts';
import { plainIssue } from './issue-message.ts';

export type Method = 'get' | 'post' | 'patch' | 'delete';

export interface ResponseSpec {
  description: string;
  schema?: z.ZodType;
  /** Defaults to application/json. */
  contentType?: string;
  /** Binary media types the response may also be (audio), chosen by the request's Accept header. */
  binary?: string[];
  /** Headers of its own the answer carries (by name: what each says), for the OpenAPI document. */
  headers?: Record<string, string>;
}

export interface HandlerInput<Q, P, B> {
  query: Q;
  params: P;
  body: B;
}

type AnyObject = z.ZodObject<z.ZodRawShape>;

export interface RouteSpec<
  Q extends AnyObject = AnyObject,
  P extends AnyObject = AnyObject,
  B extends z.ZodType = z.ZodType,
> {
  method: Method;
  /** OpenAPI form: /v1/articles/{id}. */
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  tag: string;
  /**
   * The scope a credential needs (enforced by the access-control middleware): one the API knows, which the
   * OpenAPI document's OAuth 2.0 scheme lists.
   */
  scope?: Scope;
  query?: Q;
  params?: P;
  body?: B;
  /** The body may also come as query parameters (feeds/personalized), validated by the same schema. */
  bodyFromQuery?: boolean;
  responses: Record<number, ResponseSpec>;
  /** Error codes this endpoint can answer besides the ones every endpoint can. */
  errors?: ErrorCode[];
  /**
   * Takes an Idempotency-Key header (services/api/idempotency/): set on the POSTs and PATCHes that create
   * or change something, so a client's retry does not do it twice. Not on reads sent as POST.
   */
  idempotent?: boolean;
  /** Request headers the handler reads, besides the ones every endpoint does: the OpenAPI document lists them. */
  requestHeaders?: { name: string; description: string; example?: string }[];
  handler: (ctx: Context, input: HandlerInput<z.output<Q>, z.output<P>, z.output<B>>) => Promise<void>;
}

export const defineRoute = <Q extends AnyObject, P extends AnyObject, B extends z.ZodType>(
  spec: RouteSpec<Q, P, B>,
): RouteSpec => spec;

/** Koa path syntax for an OpenAPI path. */
export const koaPath = (path: string) => path.replace(/\{(\w+)\}/g, ':$1');

/**
 * A query string as an object of single values. A parameter given twice is an error, not a silent pick,
 * unless it takes a comma-separated list: then its values are joined (`category=world&category=science`,
 * OpenAPI's default form for arrays), and `name[]` (axios, PHP) is read as `name`.
 */
function singleValues(
  query: Record<string, string | string[] | undefined>,
  lists: { isList: (name: string) => boolean; keepsWhole: (name: string) => boolean },
): Record<string, string> {
  // No prototype: "?__proto__=1" is then a parameter like any other (unknown: a 400), where assigning it to
  // a plain object would set the object's prototype and drop it without a word.
  const out: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const [given, value] of Object.entries(query)) {
    if (value === undefined) continue;
    const bracketed = given.endsWith('[]') && lists.isList(given.slice(0, -2));
    const name = bracketed ? given.slice(0, -2) : given;
    if (!bracketed && Array.isArray(value) && !lists.isList(name))
      throw invalidParameter(name, 'given more than once');
    // A name may hold a comma ("Medium: Invironment, food"): each value of such a list stays one.
    const separator = lists.keepsWhole(name) ? givenSeparator : ',';
    const joined = Array.isArray(value) ? value.join(separator) : value;
    out[name] = Object.hasOwn(out, name) ? `${out[name]}${separator}${joined}` : joined;
  }
  return out;
}

/**
 * A GET's query string without `_`, the cache-buster that jQuery (`cache: false`), older EventSource
 * polyfills and some proxies add (`_=1764508800000`, given once or more): it asks for nothing, so it is
 * not the unknown parameter that a misspelt filter is. Any other method, or a route that reads `_`, keeps it.
 */
function withoutCacheBuster(
  route: RouteSpec,
  query: Record<string, string | string[] | undefined>,
): Record<string, string | string[] | undefined> {
  if (route.method !== 'get' || !Object.hasOwn(query, '_') || routeReads(route, '_')) return query;
  const { _: _ignored, ...rest } = query;
  return rest;
}

/** The schemas of what a route reads from the query string: its query, and its body if that may come there too. */
function queryShapes(route: RouteSpec): AnyObject['shape'][] {
  const shapes = [route.query?.shape, route.bodyFromQuery ? (route.body as AnyObject).shape : undefined];
  return shapes.filter((shape) => shape !== undefined);
}

/** Whether the route reads a parameter `name` from the query string. */
const routeReads = (route: RouteSpec, name: string) =>
  queryShapes(route).some((shape) => Object.hasOwn(shape, name));

/** Whether the route reads `name` from the query string as a comma-separated list. */
function listParameters(route: RouteSpec): {
  isList: (name: string) => boolean;
  keepsWhole: (name: string) => boolean;
} {
  const shapes = queryShapes(route);
  const any = (name: string, test: (schema: unknown) => boolean) =>
    shapes.some((shape) => Object.hasOwn(shape, name) && test(shape[name]!));
  return {
    isList: (name) => any(name, takesCommaList),
    keepsWhole: (name) => any(name, keepsValuesWhole),
  };
}

/** Validates against a schema; the first problem becomes a 400 naming the field. */
export function validate<S extends z.ZodType>(
  schema: S,
  value: unknown,
  where: 'query' | 'path' | 'body',
): z.output<S> {
  if (schema instanceof z.ZodObject && value && typeof value === 'object' && !Array.isArray(value)) {
    const known = Object.keys(schema.shape);
    const unknown = Object.keys(value).find((k) => !known.includes(k));
    if (unknown !== undefined) {
      const accepted = known.length > 0 ? `accepted: ${known.join(', ')}` : 'none are accepted';
      throw invalidParameter(
        unknown.slice(0, 60),
        `unknown ${where === 'body' ? 'field' : 'parameter'} (${accepted})`,
      );
    }
  }
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = plainIssue(result.error.issues[0]!);
  const name = issue.path.length > 0 ? issue.path.map(String).join('.') : where === 'body' ? 'body' : where;
  const supplied =
    issue.path.length === 1 && value && typeof value === 'object'
      ? (value as Record<string, unknown>)[String(issue.path[0])]
      : value;
  if (supplied === undefined) throw invalidParameter(name, 'is required');
  // A message that already quotes the offending value does not need it twice.
  const got =
    where !== 'body' && typeof supplied === 'string' && !issue.message.includes('"')
      ? ` (got ${quote(supplied)})`
      : '';
  throw invalidParameter(name, `${issue.message}${got}`);
}

export interface RequestLimits {
  maxBodyBytes: number;
  maxJsonDepth: number;
}

export interface RequestInput {
  /** What the handler gets: validated. */
  input: HandlerInput<unknown, unknown, unknown>;
  /** The JSON body as parsed, before validation (undefined without one): what a request fingerprint reads. */
  suppliedBody: unknown;
}

/**
 * Refuses a query string with a percent-escape that is not UTF-8 (`q=caf%E9`, Latin-1): the parser would
 * read it as U+FFFD and answer for another word than the client's, or for none.
 */
function checkPercentEncoding(querystring: string): void {
  if (!querystring.includes('%')) return;
  for (const part of querystring.split('&')) {
    const eq = part.indexOf('=');
    for (const piece of eq < 0 ? [part] : [part.slice(0, eq), part.slice(eq + 1)]) {
      try {
        decodeURIComponent(piece.replace(/\+/g, ' '));
      } catch {
        const name = eq < 0 ? part : part.slice(0, eq);
        throw invalidParameter(
          name.slice(0, 60),
          'is not valid percent-encoded UTF-8 (é is %C3%A9; a lone % is %25)',
        );
      }
    }
  }
}

/** Validated inputs of a request for its route. */
export async function readInput(
  ctx: Context,
  route: RouteSpec,
  limits: RequestLimits,
): Promise<RequestInput> {
  checkPercentEncoding(ctx.querystring);
  // A body on a GET that takes none would be ignored, and a client sending its filters that way would get
  // an unfiltered answer it takes for a filtered one. (A POST or DELETE that takes none may come with `{}`,
  // from a client that always sends JSON: below.)
  if (route.method === 'get' && !route.body && carriesBody(ctx))
    throw invalidParameter(
      'body',
      `${route.method.toUpperCase()} ${route.path} takes no request body: give its parameters in the query string`,
    );
  const rawQuery = singleValues(withoutCacheBuster(route, ctx.query), listParameters(route));
  const params = route.params ? validate(route.params, ctx.params ?? {}, 'path') : {};
  let body: unknown = undefined;
  let query: unknown = {};
  let supplied: unknown = undefined;
  if (route.body) {
    const fromBody = route.method === 'get' ? undefined : await readJsonBody(ctx, limits);
    const fromGetBody =
      route.method === 'get' && route.bodyFromQuery ? await readJsonBody(ctx, limits) : undefined;
    supplied = fromBody ?? fromGetBody;
    // `{}` gives no field: a client that sends one with every request (as the interface has every request
    // carry JSON) and the fields in the query asks for the query's.
    if (route.bodyFromQuery && isEmptyObject(supplied) && Object.keys(rawQuery).length > 0)
      supplied = undefined;
    if (route.bodyFromQuery) {
      if (supplied !== undefined && Object.keys(rawQuery).length > 0) {
        // Named by the first query parameter, as every invalid_parameter message starts with one.
        const [first] = Object.keys(rawQuery);
        throw invalidParameter(
          first!,
          'is a query parameter, and this request has a JSON body too: give the fields either as query parameters or as a JSON body, not both',
        );
      }
      body = validate(route.body, supplied ?? rawQuery, supplied === undefined ? 'query' : 'body');
    } else {
      body = validate(route.body, supplied ?? {}, 'body');
      if (route.query) query = validate(route.query, rawQuery, 'query');
      else if (Object.keys(rawQuery).length > 0) validate(z.object({}), rawQuery, 'query');
    }
  } else {
    // A POST or DELETE that takes no body may still come with `{}`; anything else in one (a field the
    // client expects to be honoured, text, broken JSON) is refused as it would be where a body is read.
    if (route.method !== 'get' && carriesBody(ctx)) {
      supplied = await readJsonBody(ctx, limits);
      if (supplied !== undefined) validate(z.object({}), supplied, 'body');
    }
    query = validate(route.query ?? z.object({}), rawQuery, 'query');
  }
  return { input: { query, params, body }, suppliedBody: supplied };
}

const isEmptyObject = (value: unknown) =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && Object.keys(value).length === 0;
