// Guessing credentials from one address: the distinct credentials (API keys, access tokens, client
// secrets) that failed to authenticate from it in the last minute, counted in Redis so that every API
// instance shares the count. Once an address has tried API_AUTH_FAILURES_PER_MINUTE of them, every
// credential it presents is refused (429, Retry-After) until fewer than that have failed within the last
// minute, a valid one too: answering a valid key with 200 while refusing the others would tell a guesser
// which one it found.
//
// A sliding minute, estimated as the hourly rate limit estimates its hour (limits/rate-limiter.ts): the
// credentials of this clock minute's set, plus the previous minute's weighted by how much of it is still
// within the last 60 s. A fixed clock minute let a guesser try the whole allowance at 10:00:59 and again at
// 10:01:00, twice it in two seconds, and then as many again every minute.
//
// Distinct credentials, not failures: a client left with a revoked key that retries it in a loop is one
// credential, however often it fails, and must not lock out the other clients behind the same address
// (a company's NAT, a shared proxy). Only the hash of a credential is kept, never the credential.
//
// Redis is asked only about an address this instance saw a credential fail from in the last two minutes:
// the clients whose credentials work cost no round trip. An address blocked through the other instances
// gets one more guess checked here before this instance asks about it too.
//
// If Redis cannot be reached, nothing is refused (fail-open, as the hourly rate limit): authentication
// itself does not need Redis, and the API keeps serving. The outage is logged once a minute.
import { createHash } from 'node:crypto';
import type { Context, Next } from 'koa';
import { Counter, type Registry } from 'prom-client';
import { ApiError } from '../../runtime/api-error.ts';
import type { Logger } from '../../runtime/logger.ts';
import { clientAddress, type TrustedProxies } from '../http/client-address.ts';
import { slidingWindow, weightedCount } from '../limits/rate-limiter.ts';

export const guessingWindowSeconds = 60;
/** How long an address stays one whose credentials are checked after one failed here. */
const suspectMs = 2 * guessingWindowSeconds * 1000;
const maxSuspects = 100_000;

export interface CredentialGuessingOptions {
  /** Redis, or anything that runs its scripts (ioredis's `eval`). */
  redis: { eval(script: string, numkeys: number, ...keysAndArgs: string[]): Promise<unknown> };
  /** Prefix of the Redis keys (REDIS_KEY_PREFIX + "auth-failures:"). */
  prefix: string;
  /** Distinct failed credentials an address may present within a minute; 0: no limit. */
  perMinute: number;
  logger: Logger;
  metrics?: Registry;
  clock?: () => number;
}

// KEYS[1] = the address's set of this minute, KEYS[2] = of the previous minute; ARGV[1] = the credential's
// hash, ARGV[2] = seconds to keep the set (two minutes: it is the previous one for the second). Returns
// {1 if the credential was new this minute, else 0; the previous minute's count; this minute's, after}.
const addScript = `
local added = redis.call('SADD', KEYS[1], ARGV[1])
if added == 1 and redis.call('TTL', KEYS[1]) < 0 then redis.call('EXPIRE', KEYS[1], ARGV[2]) end
return {added, redis.call('SCARD', KEYS[2]), redis.call('SCARD', KEYS[1])}`;

// KEYS as above. Returns {the previous minute's count, this minute's}: one round trip.
const countScript = `return {redis.call('SCARD', KEYS[2]), redis.call('SCARD', KEYS[1])}`;

export class CredentialGuessing {
  private readonly clock: () => number;
  private readonly refusals: Counter | null;
  private lastOutageLog = -Infinity;
  /** When this instance last saw a credential fail from each address (ms). */
  private readonly suspects = new Map<string, number>();

  constructor(private readonly options: CredentialGuessingOptions) {
    this.clock = options.clock ?? Date.now;
    this.refusals = options.metrics
      ? new Counter({
          name: 'api_credential_guessing_refusals_total',
          help: 'Credentials refused unchecked because their address tried too many that failed within a minute',
          registers: [options.metrics],
        })
      : null;
  }

  get enabled(): boolean {
    return this.options.perMinute > 0;
  }

  get perMinute(): number {
    return this.options.perMinute;
  }

  /** Seconds until the address may present credentials again; 0 when it may now. */
  async refusedFor(address: string): Promise<number> {
    if (!this.enabled) return 0;
    const seen = this.suspects.get(address);
    if (seen === undefined) return 0;
    if (this.clock() - seen > suspectMs) {
      this.suspects.delete(address);
      return 0;
    }
    const window = this.window(address);
    try {
      const [previous, current] = (await this.options.redis.eval(
        countScript,
        2,
        window.key,
        window.previousKey,
      )) as [number, number];
      const counts = { previous, current, elapsed: window.elapsed, window: guessingWindowSeconds };
      if (weightedCount(counts) < this.options.perMinute) return 0;
      this.refusals?.inc();
      return slidingWindow({ ...counts, limit: this.options.perMinute, admitted: false }).resetSeconds;
    } catch (error) {
      this.outage(error);
      return 0;
    }
  }

  /** A credential presented from the address failed to authenticate. */
  async failed(address: string, credential: string): Promise<void> {
    if (!this.enabled) return;
    this.suspect(address);
    const window = this.window(address);
    const hash = createHash('sha256').update(credential).digest('base64url').slice(0, 22);
    try {
      const [added, previous, current] = (await this.options.redis.eval(
        addScript,
        2,
        window.key,
        window.previousKey,
        hash,
        String(2 * guessingWindowSeconds),
      )) as [number, number, number];
      const counts = { previous, elapsed: window.elapsed, window: guessingWindowSeconds };
      const limit = this.options.perMinute;
      // Said by the failure that takes the address to the limit, not by every one that fails past it.
      if (
        added === 1 &&
        weightedCount({ ...counts, current: current - 1 }) < limit &&
        weightedCount({ ...counts, current }) >= limit
      )
        this.options.logger.warn(
          { address, credentials: current, previousMinute: previous, windowSeconds: guessingWindowSeconds },
          'an address presented too many credentials that failed within a minute; refusing its credentials',
        );
    } catch (error) {
      this.outage(error);
    }
  }

  private suspect(address: string): void {
    const now = this.clock();
    if (this.suspects.size >= maxSuspects) {
      for (const [known, at] of this.suspects) if (now - at > suspectMs) this.suspects.delete(known);
      // A flood from more addresses than that: forget them all rather than grow (they are asked again
      // after their next failure).
      if (this.suspects.size >= maxSuspects) this.suspects.clear();
    }
    this.suspects.delete(address); // re-inserted: the map stays in order of the last failure
    this.suspects.set(address, now);
  }

  /** The Redis keys of the address's sets of this clock minute and the previous, and how far into this one. */
  private window(address: string): { key: string; previousKey: string; elapsed: number } {
    const now = this.clock() / 1000;
    const minute = Math.floor(now / guessingWindowSeconds);
    return {
      key: `${this.options.prefix}${address}:${minute}`,
      previousKey: `${this.options.prefix}${address}:${minute - 1}`,
      elapsed: now - minute * guessingWindowSeconds,
    };
  }

  private outage(error: unknown): void {
    const now = this.clock();
    if (now - this.lastOutageLog < 60_000) return;
    this.lastOutageLog = now;
    this.options.logger.warn(
      { err: error },
      'Redis unreachable: failed credentials are not counted, and no address is refused for them',
    );
  }
}

/** The credential a request presents in its headers or URL (the token endpoint adds a body's). */
function headerCredential(ctx: Context): string | undefined {
  const token = ctx.query.access_token;
  return ctx.get('authorization') || ctx.get('x-api-key') || (typeof token === 'string' ? token : undefined);
}

/**
 * Whether the router would answer `path` with the route at `route`: @koa/router's defaults match paths in
 * any case and with or without one trailing slash, so "/OAuth/Token/" is the token endpoint too, and a
 * guard that knew only its own spelling let secrets sent there go uncounted.
 */
export const routerMatches = (path: string, route: string): boolean => {
  const given = path.toLowerCase();
  const own = route.toLowerCase();
  return given === own || given === `${own}/`;
};

/**
 * In front of every route: refuses the credentials of an address that tried too many failing ones within
 * a minute (429 with Retry-After), and counts each credential that a route answered 401 for. Requests
 * without a credential pass: they guess nothing. The token endpoint's client credentials come in its
 * body, which it reads itself: it puts them in `ctx.state.presentedCredential`, and its token requests
 * are checked whatever they carry.
 */
export function credentialGuard(guessing: CredentialGuessing, trusted: TrustedProxies, tokenPath: string) {
  return async (ctx: Context, next: Next): Promise<void> => {
    if (!guessing.enabled) {
      await next();
      return;
    }
    const tokenRequest = ctx.method === 'POST' && routerMatches(ctx.path, tokenPath);
    const credential = headerCredential(ctx);
    if (!tokenRequest && credential === undefined) {
      await next();
      return;
    }
    const address = clientAddress(ctx.req.socket.remoteAddress, ctx.req.headers['x-forwarded-for'], trusted);
    const wait = await guessing.refusedFor(address);
    if (wait > 0) {
      const message =
        `too many credentials that failed to authenticate from ${address} within a minute ` +
        `(${guessing.perMinute} at most): its credentials are refused for ${wait} s`;
      if (!tokenRequest)
        throw new ApiError('too_many_failed_credentials', message, { 'Retry-After': String(wait) });
      // The token endpoint answers in OAuth's shape (RFC 6749 5.2), as its other errors.
      ctx.status = 429;
      ctx.set('Retry-After', String(wait));
      ctx.set('Cache-Control', 'no-store');
      ctx.body = { error: 'too_many_failed_credentials', error_description: message };
      return;
    }
    let failed = false;
    try {
      await next();
      failed = ctx.status === 401;
    } catch (error) {
      failed = (error as { status?: unknown }).status === 401;
      throw error;
    } finally {
      const presented = (ctx.state.presentedCredential as string | undefined) ?? credential;
      if (failed && presented !== undefined) await guessing.failed(address, presented);
    }
  };
}
