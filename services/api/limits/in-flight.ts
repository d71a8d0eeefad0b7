// Requests in progress per client on this API instance (OWASP API4: one
// credential must not take every worker of a process). Counted in memory, not in
// Redis: what it protects is this process, and a count that needs a network
// round trip on every request would cost more than it saves. The hourly
// allowance (rate-limiter.ts) and the live streams (live-connections.ts) are the
// limits shared across instances.
import type { Context, Next } from 'koa';
import { ApiError } from '../../runtime/api-error.ts';
import type { Principal } from '../http/principal.ts';

export class InFlightRequests {
  private readonly counts = new Map<string, number>();

  constructor(readonly max: number) {}

  /** A release function, or null when the holder already has `max` requests in progress. */
  tryEnter(holder: string): (() => void) | null {
    const count = this.counts.get(holder) ?? 0;
    if (count >= this.max) return null;
    this.counts.set(holder, count + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.counts.get(holder) ?? 1) - 1;
      if (left <= 0) this.counts.delete(holder);
      else this.counts.set(holder, left);
    };
  }

  inProgress(holder: string): number {
    return this.counts.get(holder) ?? 0;
  }
}

/**
 * Middleware after authentication (app.ts puts it on every route but the event stream, whose open
 * connections the live-connection limit counts): one request more than the holder's allowance answers 429.
 */
export function limitInFlight(requests: InFlightRequests) {
  return async (ctx: Context, next: Next) => {
    const principal = ctx.state.principal as Principal | undefined;
    if (!principal) throw new Error('the in-flight limit needs the principal: authentication must run first');
    const release = requests.tryEnter(principal.clientId);
    if (!release) {
      throw new ApiError(
        'concurrency_limit',
        `at most ${requests.max} requests of one client may be in progress at once; retry when one has been answered`,
        { 'Retry-After': '1' },
      );
    }
    try {
      await next();
    } finally {
      // The slot is held until the handler is done, even past the request deadline, so abandoned
      // work still counts and a client cannot pile it up by timing out.
      release();
    }
  };
}
