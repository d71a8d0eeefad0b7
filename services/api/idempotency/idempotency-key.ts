// What an Idempotency-Key request means, without any storage (draft-ietf-httpapi-idempotency-key-header,
// and Stripe's practice): the key a client sends, the fingerprint of the request it sent it with, and
// which answers are worth replaying to a retry.
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { invalidParameter } from '../../runtime/api-error.ts';

export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';
/** Set on an answer that was stored for an earlier request with the same key, and is sent again. */
export const REPLAYED_HEADER = 'Idempotent-Replayed';

export const maxKeyLength = 255;

/**
 * The header's value. The draft makes it a Structured Field string (`"8e03978e-..."`, quoted), while
 * Stripe and most clients send it bare: both are accepted, a quoted one is unquoted first, so
 * `"abc"` and `abc` are the same key. Printable ASCII only: a key is an opaque token the client made
 * (a UUID, usually), and anything else is more likely a client bug than a key.
 */
export const idempotencyKeySchema = z
  .string()
  .transform(unquote)
  .pipe(
    z
      .string()
      .min(1, { error: 'must not be empty' })
      .max(maxKeyLength, { error: `must be at most ${maxKeyLength} characters` })
      .regex(/^[\x20-\x7e]+$/, { error: 'must be printable ASCII characters only (0x20 to 0x7E)' }),
  );

function unquote(value: string): string {
  if (value.length >= 2 && value.startsWith('"') && value.endsWith('"'))
    return value.slice(1, -1).replace(/\\(["\\])/g, '$1');
  return value;
}

/**
 * The key of a request, undefined when it sends none. `values` are the header's occurrences as received
 * (Node's headersDistinct): two of them would be joined with ", " into one plausible key, so they are
 * refused instead.
 */
export function readIdempotencyKey(values: readonly string[] | undefined): string | undefined {
  if (values === undefined || values.length === 0) return undefined;
  if (values.length > 1) throw invalidParameter(IDEMPOTENCY_KEY_HEADER, 'header given more than once');
  const result = idempotencyKeySchema.safeParse(values[0]);
  if (result.success) return result.data;
  throw invalidParameter(IDEMPOTENCY_KEY_HEADER, `header ${result.error.issues[0]!.message}`);
}

export interface RequestParts {
  method: string;
  /** The path as requested (ids included), not the route's template. */
  path: string;
  query: Record<string, string | string[] | undefined>;
  /** The body as parsed from JSON; undefined when the request had none. */
  body: unknown;
}

/**
 * What makes two requests "the same request" for a key: method, path, query and body. The body counts by
 * its parsed JSON written canonically (keys sorted, no whitespace) rather than by its bytes: a client
 * that serialises its object again on retry (another key order, other spacing, a byte order mark) sends
 * the same request, and that is the case a retry is. The parsed form is also what the route reads,
 * so two bodies with one fingerprint can never be handled differently. A SHA-256 of it is kept,
 * so the fingerprint holds nothing of the body (which may hold a webhook secret).
 */
export function requestFingerprint(request: RequestParts): string {
  const query = Object.keys(request.query)
    .filter((name) => request.query[name] !== undefined)
    .sort()
    .map((name) => [name, request.query[name]]);
  const canonical = [
    request.method.toUpperCase(),
    request.path,
    canonicalJson(query),
    request.body === undefined ? '' : canonicalJson(request.body),
  ].join('\n');
  return createHash('sha256').update(canonical).digest('base64url');
}

/** JSON with object keys sorted at every level. Written by hand: `__proto__` is a key like any other. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.keys(value)
      .sort()
      .filter((key) => (value as Record<string, unknown>)[key] !== undefined)
      .map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * Statuses that are a property of the request, so a retry of it would get them again: every 2xx, and
 * the 4xx about what was asked (400, 404, 422...). Not stored, so a retry runs again: 5xx (the service
 * failed, maybe before doing anything), and the 4xx about the moment rather than the request: 401 and
 * 403 (a credential or scope fixed, a plan limit freed), 408, 409 (the state the request met, which the
 * client may change: a paused webhook resumed), 425 and 429 (come back later).
 */
export function isStoredStatus(status: number): boolean {
  if (status >= 200 && status < 300) return true;
  if (status < 400 || status >= 500) return false;
  return ![401, 403, 408, 409, 425, 429].includes(status);
}

/** The response headers a replay repeats; the others belong to each answer (request id, rate limits, CORS). */
export const replayedHeaders = [
  'content-type',
  'location',
  'cache-control',
  'content-disposition',
  'content-language',
  'retry-after',
] as const;
