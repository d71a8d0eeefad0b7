// The time the API gives itself to answer (OWASP API4): a handler that has not
// answered within the deadline (a stuck query, a slow provider) gets 503
// deadline_exceeded, so the client is not left waiting on a connection the
// server has forgotten. The work itself is not cancelled (ClickHouse queries and
// Kafka appends have no cancel here): a command past its deadline may still
// complete, as with service_unavailable. What can stop does: the request's
// signal (requestSignal) aborts at the deadline, or when the client closes the
// connection before its answer, and the analyses take it (a text waiting for an
// analysis worker leaves the queue, one under way is stopped; a provider's call
// is cancelled), so abandoned requests do not keep the workers from the next ones.
import type { Context, Next } from 'koa';
import { ApiError } from '../../runtime/api-error.ts';
import type { Logger } from '../../runtime/logger.ts';

const signals = new WeakMap<Context, AbortSignal>();

/** Aborts once the request's answer is no longer wanted (see the top); undefined without a deadline. */
export function requestSignal(ctx: Context): AbortSignal | undefined {
  return signals.get(ctx);
}

export function requestDeadline(ms: number, logger: Logger) {
  return async (ctx: Context, next: Next) => {
    let timer: NodeJS.Timeout | undefined;
    let expired = false;
    const wanted = new AbortController();
    signals.set(ctx, wanted.signal);
    ctx.res.once('close', () => {
      if (!ctx.res.writableFinished) wanted.abort(new Error('the client closed the connection'));
    });
    const work = next();
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        expired = true;
        const error = new ApiError(
          'deadline_exceeded',
          `no answer within ${ms} ms; the request may still take effect, retry later`,
          { 'Retry-After': '5' },
        );
        wanted.abort(error);
        reject(error);
      }, ms);
    });
    try {
      await Promise.race([work, deadline]);
    } catch (error) {
      if (expired) {
        // The abandoned handler's own outcome goes to the log, never to an unhandled rejection.
        work.catch((late: unknown) =>
          logger.warn(
            { requestId: ctx.state.requestId as string, err: late },
            'a request failed after its deadline',
          ),
        );
      }
      throw error;
    } finally {
      clearTimeout(timer);
    }
  };
}
