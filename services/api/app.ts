// The Koa application: request id, metrics and access log, one error renderer,
// the authentication slot, then the routes built from their descriptions.
// Dependencies come in; main.ts wires the real ones, tests can wire others.
import { insufficientScope } from './auth/scopes.ts';
import { randomUUID } from 'node:crypto';
import cors from '@koa/cors';
import Router from '@koa/router';
import Koa, { type Context, type Next } from 'koa';
import compress from 'koa-compress';
import { Counter, Histogram, type Registry } from 'prom-client';
import { ClickHouseUnavailableError } from '../runtime/clickhouse/client.ts';
import { DependencyUnavailableError } from '../runtime/kafka/errors.ts';
import type { Logger } from '../runtime/logger.ts';
import { ApiError, type ErrorBody } from '../runtime/api-error.ts';
import { requireHost } from './http/host-header.ts';
import type { Authenticate, Principal } from './http/principal.ts';
import { koaPath, readInput, type RequestLimits, type RouteSpec } from './http/route.ts';
import { requestDeadline } from './limits/request-deadline.ts';
import { limitInFlight, type InFlightRequests } from './limits/in-flight.ts';
import { answerApiError } from './http/error-answer.ts';
import { conditionalGet } from './http/conditional-get.ts';
import { requireAcceptable } from './http/negotiation.ts';
import {
  readIdempotencyKey,
  requestFingerprint,
  IDEMPOTENCY_KEY_HEADER,
} from './idempotency/idempotency-key.ts';
import type { IdempotentRequests } from './idempotency/idempotent-requests.ts';

export interface ReadinessCheck {
  name: string;
  check: () => Promise<boolean>;
  /**
   * False for a dependency the API answers without (Redis: rate limits fail open, Idempotency-Key
   * requests answer 503): /readyz reports it, `degraded`, and stays 200.
   */
  gates?: boolean;
}

export interface AppDependencies {
  routes: readonly RouteSpec[];
  /** Served without credentials: health, metrics, the OpenAPI document and its docs page. */
  publicRoutes: (router: Router) => void;
  authenticate: Authenticate;
  /**
   * Run before every route, the token endpoint's too (auth/credential-guessing.ts: the credentials of an
   * address that tried too many failing ones are refused).
   */
  beforeAuthentication?: (ctx: Context, next: Next) => Promise<void>;
  /** Run after authentication on every authenticated route (rate limits). */
  afterAuthentication?: readonly ((ctx: Context, next: Next) => Promise<void>)[];
  limits: RequestLimits;
  /** Time an authenticated route has to answer (API_REQUEST_DEADLINE_MS); none when left out. */
  deadlineMs?: number;
  /** Requests in progress per client (API_MAX_IN_FLIGHT_PER_CLIENT); unlimited when left out. */
  inFlight?: InFlightRequests;
  /** Idempotency-Key on the routes marked idempotent; the header is ignored when left out. */
  idempotency?: IdempotentRequests;
  logger: Logger;
  metrics: Registry;
}

const requestIdPattern = /^[A-Za-z0-9._-]{1,100}$/;

export function createApp(deps: AppDependencies): Koa {
  const app = new Koa();
  app.proxy = false;
  const duration = new Histogram({
    name: 'api_request_duration_seconds',
    help: 'Time to answer a request, by route template and status',
    labelNames: ['method', 'route', 'status'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10],
    registers: [deps.metrics],
  });
  const failures = new Counter({
    name: 'api_internal_errors_total',
    help: "Requests answered 5xx (not /readyz's 503: that is its answer, not a failure)",
    labelNames: ['route'],
    registers: [deps.metrics],
  });

  app.use(async (ctx: Context, next: Next) => {
    const incoming = ctx.get('x-request-id');
    const requestId = requestIdPattern.test(incoming) ? incoming : randomUUID();
    ctx.state.requestId = requestId;
    ctx.set('X-Request-Id', requestId);
    const started = process.hrtime.bigint();
    try {
      await next();
    } catch (error) {
      render(ctx, error, requestId, deps.logger);
    } finally {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const route = (ctx as Context & { _matchedRoute?: string })._matchedRoute ?? 'unmatched';
      duration.observe({ method: ctx.method, route, status: String(ctx.status) }, seconds);
      if (ctx.status >= 500 && route !== '/readyz') failures.inc({ route });
      // Query strings are left out of the log: they are the caller's business (and may carry search terms).
      deps.logger.debug(
        { requestId, method: ctx.method, path: ctx.path, status: ctx.status, ms: Math.round(seconds * 1000) },
        'request',
      );
    }
  });

  // JSON answers compressed for clients that ask (Accept-Encoding): a page of 100 articles is ~135 KB,
  // a fifth of that gzipped. Only JSON: an event stream must go out event by event as it is written, and
  // audio is compressed already. Errors are rendered outside this (small, and never worth it).
  // A request that accepts no encoding at all (`identity;q=0`, `*;q=0`) is answered as it is: koa-compress
  // would set an undefined Content-Encoding and fail the answer (the fuzzer found it).
  const compressJson = compress({
    filter: (type) => /^application\/([\w.-]+\+)?json\b/i.test(type),
    threshold: 1024,
  });
  app.use(async (ctx: Context, next: Next) => {
    if (ctx.acceptsEncodings('br', 'gzip', 'deflate', 'identity') === false) {
      // Still an answer chosen by Accept-Encoding (koa-compress says so on every other one).
      ctx.vary('Accept-Encoding');
      await next();
    } else if (ctx.method !== 'HEAD') await compressJson(ctx, next);
    else {
      // koa-compress leaves HEAD alone, which then said Content-Length of the JSON as it is while GET
      // sends it gzipped: decided as for GET, so HEAD has GET's Content-Encoding and no length (GET sends
      // it chunked). Koa ends a HEAD answer without reading the body, and destroys the stream.
      await compressJson(ctx, async () => {
        await next();
        ctx.method = 'GET';
      });
      ctx.method = 'HEAD';
    }
  });
  // Inside compression: a JSON answer's weak ETag is computed on its JSON as it is, and a 304 has no body
  // to compress (http/conditional-get.ts).
  app.use(conditionalGet);
  app.use(requireHost);
  app.use(crossOrigin);
  if (deps.beforeAuthentication) app.use(deps.beforeAuthentication);
  const router = new Router();
  deps.publicRoutes(router);
  for (const route of deps.routes) {
    // An event stream is answered for as long as it lives: it has its own limits (live connections).
    const stream = isEventStream(route);
    const deadline =
      deps.deadlineMs !== undefined && !stream ? [requestDeadline(deps.deadlineMs, deps.logger)] : [];
    const inFlight = deps.inFlight && !stream ? [limitInFlight(deps.inFlight)] : [];
    const acceptable = requireAcceptable(route);
    router[route.method](
      koaPath(route.path),
      ...deadline,
      deps.authenticate,
      privateAnswer,
      // Before the hourly allowance: a request refused for concurrency is not counted against it (and
      // costs no Redis round trip, which matters most when a client floods).
      ...inFlight,
      ...(deps.afterAuthentication ?? []),
      requireScope(route.scope),
      // After authentication and scope, so a request without credentials learns nothing new; before the
      // input is read: a 406 is decided by the headers alone.
      ...(acceptable ? [acceptable] : []),
      async (ctx: Context) => {
        // The key is checked before the body is read, and claimed after the input is valid (idempotent-requests.ts).
        const key =
          route.idempotent && deps.idempotency
            ? readIdempotencyKey(ctx.req.headersDistinct[IDEMPOTENCY_KEY_HEADER.toLowerCase()])
            : undefined;
        const { input, suppliedBody } = await readInput(ctx, route, deps.limits);
        const handle = () => route.handler(ctx, input as never);
        if (key === undefined || !deps.idempotency) return handle();
        const fingerprint = requestFingerprint({
          method: ctx.method,
          path: ctx.path,
          query: ctx.query,
          body: suppliedBody,
        });
        const successes = Object.keys(route.responses)
          .map(Number)
          .filter((status) => status < 300);
        const successStatus = successes.length === 1 ? successes[0] : undefined;
        await deps.idempotency.run(ctx, { key, route: route.path, fingerprint, successStatus }, handle);
      },
    );
  }
  app.use(router.routes());
  app.use(unanswered);
  app.use(router.allowedMethods());
  return app;
}

/**
 * An authenticated answer is the caller's: no shared cache (a CDN, a company proxy) may keep it for
 * another, even when the credential came in X-API-Key, which caches do not know as one (they keep an
 * answer to Authorization private by themselves). The caller's own cache may keep it and revalidate by
 * ETag (conditional-get.ts). A route that says otherwise (no-store for a secret) sets its own.
 */
async function privateAnswer(ctx: Context, next: Next): Promise<void> {
  ctx.set('Cache-Control', 'private, no-cache');
  ctx.vary('Authorization');
  ctx.vary('X-API-Key');
  await next();
}

/**
 * CORS, so that a page on another origin (a dashboard, a notebook) can call the API with its key. Any
 * origin: the credentials are a header the page must hold (an API key or token), never a cookie, so
 * allowing an origin grants it nothing it does not already have. The answer's own headers a client
 * reads (request id, rate limits, Retry-After, Location, the audio's voice, ETag) are exposed. A
 * preflight is answered here, before authentication (browsers send it without credentials).
 */
const crossOrigin = cors({
  origin: '*',
  allowMethods: ['GET', 'HEAD', 'POST', 'PATCH', 'DELETE'],
  exposeHeaders: [
    'X-Request-Id',
    'RateLimit-Limit',
    'RateLimit-Remaining',
    'RateLimit-Reset',
    'Retry-After',
    'Location',
    'WWW-Authenticate',
    'Content-Disposition',
    'Content-Range',
    'Audio-Voice',
    'Audio-Duration-Ms',
    'Idempotent-Replayed',
    'ETag',
  ],
  maxAge: 600,
});

const isEventStream = (route: RouteSpec) =>
  Object.values(route.responses).some((response) => response.contentType === 'text/event-stream');

/**
 * A request no route answered. On a path that some route serves, @koa/router's allowedMethods (next in
 * line) answers OPTIONS with 200 and the `Allow` header, and sets `Allow` for any other method: that is
 * a 405 in the API's error body. Any other path is a 404.
 */
async function unanswered(ctx: Context, next: Next): Promise<void> {
  await next();
  const allow = ctx.response.get('Allow');
  if (ctx.method === 'OPTIONS' && allow) return;
  if (allow) {
    const message = `${ctx.method} is not supported on ${ctx.path}; it accepts ${allow}`;
    throw new ApiError('method_not_allowed', message, { Allow: allow });
  }
  throw new ApiError('not_found', `no endpoint at ${ctx.path}; see /openapi.json or /docs`);
}

function requireScope(scope: string | undefined) {
  return async (ctx: Context, next: Next) => {
    const principal = ctx.state.principal as Principal | undefined;
    if (scope && !principal?.scopes.has(scope)) {
      throw insufficientScope(scope, `this endpoint needs the scope ${scope}`);
    }
    await next();
  };
}

function render(ctx: Context, error: unknown, requestId: string, logger: Logger): void {
  if (error instanceof ApiError) {
    if (error.cause !== undefined)
      logger.warn({ requestId, err: error.cause, code: error.code }, `answered: ${error.message}`);
    answerApiError(ctx, error, requestId);
    return;
  }
  let body: ErrorBody;
  if (error instanceof ClickHouseUnavailableError || error instanceof DependencyUnavailableError) {
    logger.warn({ requestId, err: error }, 'a dependency is unavailable');
    ctx.status = 503;
    ctx.set('Retry-After', '5');
    body = {
      error: {
        code: 'service_unavailable',
        message: 'the service cannot reach its data store right now; retry shortly',
        request_id: requestId,
      },
    };
  } else {
    // Whatever it was (a ClickHouse error included), its text stays in the log, keyed by the request id.
    logger.error({ requestId, err: error, method: ctx.method, path: ctx.path }, 'request failed');
    ctx.status = 500;
    body = {
      error: {
        code: 'internal_error',
        message: `internal error; request id ${requestId}`,
        request_id: requestId,
      },
    };
  }
  ctx.body = body;
}
