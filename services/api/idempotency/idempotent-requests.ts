// Idempotency-Key on the routes that create or change something (RouteSpec.idempotent): the first
// request with a key claims it in Redis and runs; its answer is stored (sealed) for
// API_IDEMPOTENCY_KEY_TTL_SECONDS; a retry with the same key and the same request gets that answer again,
// byte for byte, with `Idempotent-Replayed: true`, and the handler does not run. The key is the client's
// (tenant and credential holder) on one method and route, so two clients never see each other's keys.
//
// It runs after authentication, the scope check and the validation of the input: a request refused
// before its handler ran did nothing, so there is nothing to protect and nothing is stored (as Stripe).
import { createHash } from 'node:crypto';
import type { Context } from 'koa';
import { Counter, type Registry } from 'prom-client';
import { ApiError } from '../../runtime/api-error.ts';
import type { Logger } from '../../runtime/logger.ts';
import { answerApiError } from '../http/error-answer.ts';
import type { Principal } from '../http/principal.ts';
import { REPLAYED_HEADER, isStoredStatus, replayedHeaders } from './idempotency-key.ts';
import { UnreadableRecordError, type DoneRecord, type IdempotencyRecords } from './idempotency-records.ts';

export interface IdempotentRequest {
  /** The Idempotency-Key header, validated. */
  key: string;
  /** The route's template (`/api/v1/webhooks/{id}`): keys are scoped per method and route. */
  route: string;
  /** requestFingerprint() of the request. */
  fingerprint: string;
  /** The route's one 2xx status, if it has one: what a handler that ends after the deadline answered. */
  successStatus?: number;
}

export interface IdempotencySettings {
  /** How long an answer is kept for retries (API_IDEMPOTENCY_KEY_TTL_SECONDS). */
  retentionSeconds: number;
  /**
   * How long a claim outlives a process that died holding it. The claim is renewed while its handler
   * runs (also past the request deadline: the work is not cancelled then), so this only bounds how long
   * a crash blocks the key.
   */
  claimMs: number;
}

type Outcome = 'stored' | 'replayed' | 'reused' | 'in_progress' | 'released' | 'unavailable';

/** Seconds a client is asked to wait before retrying a request whose first run is still under way. */
const inProgressRetryAfter = '1';

export class IdempotentRequests {
  private readonly outcomes: Counter<'outcome'>;
  private lastFailureLog = 0;

  constructor(
    private readonly deps: {
      records: IdempotencyRecords;
      /** Namespace of the keys (REDIS_KEY_PREFIX + `idempotency:`). */
      prefix: string;
      settings: IdempotencySettings;
      logger: Logger;
      metrics: Registry;
      clock?: () => number;
    },
  ) {
    this.outcomes = new Counter({
      name: 'api_idempotency_requests_total',
      help: 'Requests with an Idempotency-Key, by what became of them',
      labelNames: ['outcome'],
      registers: [deps.metrics],
    });
  }

  /** Runs `handle` once per key, or answers what its first run answered. */
  async run(ctx: Context, request: IdempotentRequest, handle: () => Promise<void>): Promise<void> {
    const principal = ctx.state.principal as Principal | undefined;
    if (!principal) throw new Error('Idempotency-Key needs the principal: authentication must run first');
    const key = this.redisKey(principal, ctx.method, request);
    const requestId = String(ctx.state.requestId ?? '');
    const { claimMs, retentionSeconds } = this.deps.settings;

    const outcome = await this.redis(() =>
      this.deps.records.claim(
        key,
        { v: 1, state: 'running', fingerprint: request.fingerprint, requestId },
        claimMs,
      ),
    );
    if (!outcome.claimed) {
      const existing = outcome.existing;
      if (existing.fingerprint !== request.fingerprint) {
        this.count('reused');
        throw new ApiError(
          'idempotency_key_reused',
          `Idempotency-Key was used for a different request to ${ctx.method} ${request.route} ` +
            '(another path, query or body); use a new key for a new request',
        );
      }
      if (existing.state === 'running') {
        this.count('in_progress');
        throw new ApiError(
          'idempotency_key_in_progress',
          'a request with this Idempotency-Key is still being processed; retry after it is done',
          { 'Retry-After': inProgressRetryAfter },
        );
      }
      this.count('replayed');
      replay(ctx, existing);
      return;
    }

    const claim = outcome.claim;
    const renewal = setInterval(
      () => {
        this.deps.records.renew(key, claim, claimMs).catch((error: unknown) => {
          this.deps.logger.warn(
            { requestId, err: (error as Error).message },
            'an idempotency claim could not be renewed',
          );
        });
      },
      Math.max(100, Math.floor(claimMs / 3)),
    );
    renewal.unref();
    let answer: DoneRecord | null;
    try {
      await handle();
      answer = ctx.headerSent
        ? captureAbandoned(ctx, request.fingerprint, request.successStatus)
        : capture(ctx, request.fingerprint);
    } catch (error) {
      // A handler's ApiError that is a property of the request (a 404, a 400 it found) is stored like a
      // success: answered here, so the bytes stored are the bytes sent. One about what the request met
      // at the moment (ApiError.momentary: a feed not readable now) is not, like a 409 or a 5xx.
      if (!(error instanceof ApiError) || !isStoredStatus(error.status) || error.momentary) {
        clearInterval(renewal);
        await this.release(key, claim, requestId);
        throw error;
      }
      if (ctx.headerSent) {
        answer = captureAbandoned(ctx, request.fingerprint, undefined, error);
      } else {
        answerApiError(ctx, error, requestId);
        answer = capture(ctx, request.fingerprint);
      }
    } finally {
      clearInterval(renewal);
    }
    if (answer === null) {
      await this.release(key, claim, requestId);
      return;
    }
    // Sent as the bytes stored, not serialised by Koa again: the replay is these bytes too.
    if (!ctx.headerSent && isSerialisedByKoa(ctx.body)) ctx.body = Buffer.from(answer.body, 'base64');
    try {
      const stored = await this.deps.records.complete(key, claim, answer, retentionSeconds);
      if (stored) this.count('stored');
      else
        this.deps.logger.warn(
          { requestId },
          'an idempotent request outlived its claim and another request took the key: its answer is not stored',
        );
    } catch (error) {
      // The work is done and the client gets its answer; a retry within claimMs gets 409, after it the
      // request runs again (Redis lost it, as when Redis loses its data).
      this.unavailable(error);
    }
  }

  private count(outcome: Outcome): void {
    this.outcomes.inc({ outcome });
  }

  /** The record's Redis key: hashed, so a client's key (any printable text) never shapes Redis key names. */
  private redisKey(principal: Principal, method: string, request: IdempotentRequest): string {
    const scope = [principal.tenantId, principal.clientId, method.toUpperCase(), request.route, request.key];
    return `${this.deps.prefix}${createHash('sha256').update(scope.join('\n')).digest('base64url')}`;
  }

  private async release(key: string, claim: string, requestId: string): Promise<void> {
    this.count('released');
    try {
      await this.deps.records.release(key, claim);
    } catch (error) {
      // The claim expires within claimMs; until then a retry is told 409.
      this.deps.logger.warn(
        { requestId, err: (error as Error).message },
        'an idempotency claim could not be released',
      );
    }
  }

  /**
   * Redis could not be asked. Unlike the rate limiter, which lets requests through (an hourly allowance
   * overrun for a while costs little), this fails closed: the client sent the key because running its
   * request twice would cost it (two webhooks, two documentaries), and running it without the check is
   * exactly that. So 503 with Retry-After, as for any other store the service cannot reach; requests
   * without the key are served as usual.
   */
  private async redis<T>(operation: () => Promise<T>): Promise<T> {
    try {
      return await operation();
    } catch (error) {
      if (error instanceof ApiError || error instanceof UnreadableRecordError) throw error;
      this.unavailable(error);
      throw new ApiError(
        'service_unavailable',
        'Idempotency-Key cannot be checked right now (its store is unreachable); the request was not run, retry shortly',
        { 'Retry-After': '5' },
      );
    }
  }

  private unavailable(error: unknown): void {
    this.count('unavailable');
    const now = (this.deps.clock ?? Date.now)();
    if (now - this.lastFailureLog < 60_000) return;
    this.lastFailureLog = now;
    // The error's message only: never a record, which is sealed anyway.
    this.deps.logger.error(
      { err: (error as Error)?.message ?? String(error) },
      'Idempotency-Key cannot be checked (Redis unreachable): requests with the header answer 503 until it is back',
    );
  }
}

/** The answer as it will be sent, or null when it is not stored (its status, or a streamed body). */
function capture(ctx: Context, fingerprint: string): DoneRecord | null {
  if (!isStoredStatus(ctx.status)) return null;
  const body = bodyBytes(ctx.body);
  if (body === null) return null;
  const headers: Record<string, string> = {};
  for (const name of replayedHeaders) {
    const value = ctx.response.get(name);
    if (value) headers[name] = value;
  }
  return {
    v: 1,
    state: 'done',
    fingerprint,
    status: ctx.status,
    headers,
    body: body.toString('base64'),
  };
}

/**
 * The answer of a handler that ended after the request deadline had answered 503 for it
 * (request-deadline.ts does not cancel the work). The work is done, so a retry must get an answer rather
 * than run it again; but Koa drops the status and headers a handler sets once the response is sent, so
 * they are the route's success status (or the error's) and JSON, and a Location is lost. The body is the
 * handler's. Null when that cannot be told (a route with several 2xx statuses): the key is released.
 */
function captureAbandoned(
  ctx: Context,
  fingerprint: string,
  successStatus: number | undefined,
  error?: ApiError,
): DoneRecord | null {
  const status = error ? error.status : successStatus;
  if (status === undefined || !isStoredStatus(status)) return null;
  const body = error
    ? Buffer.from(JSON.stringify({ error: { code: error.code, message: error.message } }), 'utf8')
    : bodyBytes(ctx.body);
  if (body === null) return null;
  return {
    v: 1,
    state: 'done',
    fingerprint,
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', ...(error ? error.headers : {}) },
    body: body.toString('base64'),
  };
}

const isSerialisedByKoa = (body: unknown) =>
  body !== null &&
  typeof body === 'object' &&
  !Buffer.isBuffer(body) &&
  typeof (body as { pipe?: unknown }).pipe !== 'function';

/** The bytes Koa would send for a body; null for a stream, which cannot be kept whole. */
function bodyBytes(body: unknown): Buffer | null {
  if (body === null || body === undefined) return Buffer.alloc(0);
  if (Buffer.isBuffer(body)) return body;
  if (typeof body === 'string') return Buffer.from(body, 'utf8');
  if (!isSerialisedByKoa(body)) return null;
  // As Koa serialises it (application.js respond()).
  return Buffer.from(JSON.stringify(body), 'utf8');
}

function replay(ctx: Context, record: DoneRecord): void {
  ctx.status = record.status;
  for (const [name, value] of Object.entries(record.headers)) ctx.set(name, value);
  ctx.set(REPLAYED_HEADER, 'true');
  const body = Buffer.from(record.body, 'base64');
  if (body.length > 0 || ctx.status !== 204) ctx.body = body;
}
