// Conditional GET for JSON answers (RFC 9110, 8.8.3 and 13.1.2): a 200 JSON answer to GET or HEAD
// carries a weak ETag, a hash of its JSON, and a request whose If-None-Match names it (or is `*`) is
// answered 304 Not Modified, without a body and with the headers the 200 would have had (ETag,
// Cache-Control, Vary, rate limits, request id).
//
// The tag is weak because the same JSON goes out gzipped, deflated, brotli'd or as it is (app.ts
// compresses after this runs): those are different representations byte for byte, and one strong tag
// for all of them would be a lie; a weak one says "the same content", which is what If-None-Match
// compares (weakly, always). Left alone: errors and every other status, other methods, streams (an
// event stream is written as it happens; audio has its own ETag, Range and caching), bodies that are
// not JSON (/docs, /metrics), and answers marked `Cache-Control: no-store` (they hold a secret and are
// never stored, so there is nothing to revalidate).
//
// Not koa-etag with koa-conditional-get: koa-etag tags every 2xx of every method (a POST's 201) and a
// file stream by its size and date (audio), ignores no-store, and koa-conditional-get (through `fresh`)
// answers `If-None-Match: *` with 304 for answers that have no ETag at all and never answers 304 to a
// request with `Cache-Control: no-cache` (a proxy revalidating). What is left is a hash and a list match.
import { createHash } from 'node:crypto';
import { Stream } from 'node:stream';
import type { Context, Next } from 'koa';

/** A JSON media type: application/json, or application/<something>+json. */
export const jsonType = /^application\/([\w.-]+\+)?json$/i;
const noStore = /(?:^|,)\s*no-store\s*(?:,|$)/i;

/** The weak entity tag of a representation: a SHA-256 of its bytes (132 bits of it, base64url). */
export function weakETag(bytes: string | Buffer): string {
  return `W/"${createHash('sha256').update(bytes).digest('base64url').slice(0, 22)}"`;
}

/**
 * Whether an If-None-Match field value matches the entity tag: `*` matches any current
 * representation, and a list of entity tags matches when one of them is the same tag compared weakly
 * (the opaque tags are equal, W/ or not). A value that holds no entity tag matches nothing.
 */
export function ifNoneMatchMatches(header: string, etag: string): boolean {
  const value = header.trim();
  if (value === '') return false;
  if (value === '*') return true;
  const opaque = (tag: string) => tag.replace(/^W\//, '');
  const wanted = opaque(etag);
  for (const [tag] of value.matchAll(/(?:W\/)?"[^"]*"/g)) if (opaque(tag) === wanted) return true;
  return false;
}

/** What Koa streams rather than sends whole: never buffered here, never tagged. */
const streamed = (body: object) =>
  body instanceof Stream ||
  body instanceof ReadableStream ||
  body instanceof Blob ||
  body instanceof Response;

/** The JSON a body goes out as, or undefined when the answer is not one to tag. */
function jsonRepresentation(ctx: Context): string | Buffer | undefined {
  const body: unknown = ctx.body;
  if (body === null || body === undefined) return undefined;
  if (!jsonType.test(ctx.response.type)) return undefined;
  if (typeof body === 'string' || Buffer.isBuffer(body)) return body;
  if (typeof body !== 'object' || streamed(body)) return undefined;
  // What Koa would send (it serialises an object body with JSON.stringify). The text replaces the
  // object, so it is serialised once; the Content-Type stays the JSON one already set.
  const text = JSON.stringify(body);
  ctx.body = text;
  return text;
}

export async function conditionalGet(ctx: Context, next: Next): Promise<void> {
  await next();
  if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return;
  if (ctx.status !== 200 || ctx.respond === false || ctx.res.headersSent) return;
  if (ctx.response.get('ETag') || noStore.test(ctx.response.get('Cache-Control'))) return;
  const representation = jsonRepresentation(ctx);
  if (representation === undefined) return;
  const etag = weakETag(representation);
  ctx.set('ETag', etag);
  const ifNoneMatch = ctx.get('If-None-Match');
  // Without If-None-Match there is If-Modified-Since at most, and these answers have no Last-Modified.
  if (ifNoneMatch && ifNoneMatchMatches(ifNoneMatch, etag)) {
    ctx.status = 304; // Koa drops the body and its Content-Type and Content-Length
  }
}
