// Reads a JSON request body with a size cap and a nesting cap. Koa leaves body
// parsing to us; doing it here keeps the ways a body can be wrong (too big, not
// JSON by its Content-Type, not JSON by its bytes, nested too deep) mapped to
// the API's error codes.
import type { Context } from 'koa';
import { ApiError } from '../../runtime/api-error.ts';

export interface BodyOptions {
  maxBodyBytes: number;
  /** Deepest nesting of arrays and objects accepted (a top-level object is depth 1). */
  maxJsonDepth: number;
}

/**
 * Whether JSON text nests arrays and objects deeper than `max`, by one pass over its characters
 * (brackets inside strings do not count). It runs before JSON.parse, so a body of a million `[` costs a
 * scan of its bytes, not a million-level structure for the validators to recurse through.
 */
export function nestsDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // a backslash: the next character is escaped
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

export const tooDeep = (max: number) =>
  new ApiError('invalid_json', `request body nests arrays and objects deeper than ${max} levels`);

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
  // A UTF-8 byte order mark, which some Windows and .NET clients put first, is not part of the JSON
  // (RFC 8259, 8.1, lets a parser ignore it).
  const text = Buffer.concat(chunks)
    .toString('utf8')
    .replace(/^\uFEFF/, '');
  if (text.trim() === '') return undefined;
  if (nestsDeeperThan(text, options.maxJsonDepth)) throw tooDeep(options.maxJsonDepth);
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new ApiError('invalid_json', `request body is not valid JSON: ${(error as Error).message}`);
  }
}
