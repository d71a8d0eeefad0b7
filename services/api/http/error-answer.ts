// An ApiError as the answer it makes: its status, its headers and the error body. The error renderer
// uses it, and so does Idempotency-Key, which stores the answer a handler's error made byte for byte.
import type { Context } from 'koa';
import type { ApiError, ErrorBody } from '../../runtime/api-error.ts';

export function answerApiError(ctx: Context, error: ApiError, requestId: string): void {
  ctx.status = error.status;
  // Vary adds to what the answer varies by already (the credential headers, Accept-Encoding): CORS
  // hands its `Vary: Origin` over through the error's headers.
  for (const [name, value] of Object.entries(error.headers))
    if (name.toLowerCase() === 'vary') ctx.vary(value);
    else ctx.set(name, value);
  const body: ErrorBody = { error: { code: error.code, message: error.message } };
  if (error.status >= 500) body.error.request_id = requestId;
  ctx.body = body;
}
