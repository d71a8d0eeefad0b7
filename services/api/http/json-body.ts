// Reads a JSON request body with a size cap. Koa leaves body parsing to us;
// doing it here keeps the three ways a body can be wrong (too big, not JSON by
// its Content-Type, not JSON by its bytes) mapped to the API's error codes.
import type { Context } from 'koa';
import { ApiError } from '../../runtime/api-error.ts';

export interface BodyOptions {
  maxBodyBytes: number;
}

/** Undefined when the request has no body at all. */
export async function readJsonBody(ctx: Context, options: BodyOptions): Promise<unknown> {
  const length = ctx.request.length;
  const hasBody = (length !== undefined && length > 0) || ctx.get('transfer-encoding') !== '';
  if (!hasBody) return undefined;
  if (!ctx.request.is('application/json', 'application/*+json')) {
    throw new ApiError(
      'unsupported_media_type',
      `request bodies must be JSON (Content-Type: application/json), got "${ctx.get('content-type') || 'none'}"`,
    );
  }
  const tooLarge = () =>
    new ApiError('payload_too_large', `request body larger than ${options.maxBodyBytes} bytes`);
  if (length !== undefined && length > options.maxBodyBytes) throw tooLarge();

  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > options.maxBodyBytes) throw tooLarge();
    chunks.push(chunk);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new ApiError('invalid_json', `request body is not valid JSON: ${(error as Error).message}`);
  }
}
