// HTTP/1.1 requires a Host header (RFC 9112, 3.2). Node refuses a request without one with a bare 400
// and no body; the server lets such requests through (client-errors.ts) so that this answers them in
// the API's error shape instead, like every other refusal.
import type { Context, Next } from 'koa';
import { ApiError } from '../../runtime/api-error.ts';

export async function requireHost(ctx: Context, next: Next): Promise<void> {
  if (ctx.req.httpVersion === '1.1' && ctx.req.headers.host === undefined) {
    throw new ApiError('malformed_request', 'an HTTP/1.1 request must send a Host header');
  }
  await next();
}
