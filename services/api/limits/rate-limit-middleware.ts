// Puts every authenticated request through the holder's hourly allowance and
// tells the client where it stands on every answer (RateLimit-* headers, as in
// the IETF RateLimit header fields draft); over the allowance: 429 with
// Retry-After.
import type { Context, Next } from 'koa';
import { ApiError } from '../../runtime/api-error.ts';
import type { Principal } from '../http/principal.ts';
import type { RateLimiter } from './rate-limiter.ts';

export function rateLimit(limiter: RateLimiter) {
  return async (ctx: Context, next: Next) => {
    const principal = ctx.state.principal as Principal | undefined;
    if (!principal) throw new Error('rate limiting needs the principal: authentication must run first');
    const decision = await limiter.hit(principal.clientId, principal.limits.callsPerHour);
    if (principal.limits.callsPerHour !== null) {
      ctx.set('RateLimit-Limit', String(decision.limit));
      ctx.set('RateLimit-Remaining', String(decision.remaining));
      ctx.set('RateLimit-Reset', String(decision.resetSeconds));
    }
    if (!decision.allowed) {
      throw new ApiError(
        'rate_limited',
        `the plan allows ${decision.limit} calls in any 60 minutes; the next call is admitted in ${decision.resetSeconds} s`,
        { 'Retry-After': String(decision.resetSeconds) },
      );
    }
    await next();
  };
}
