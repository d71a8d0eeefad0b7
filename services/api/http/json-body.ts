// Reads a JSON request body with a size cap and a nesting cap. Koa leaves body
// parsing to us; doing it here keeps the ways a body can be wrong (too big, not
// JSON by its Content-Type, not JSON by its bytes, nested too deep, a key given
// twice in one object) mapped to the API's error codes.
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

/**
 * Where valid JSON text first gives a key twice in one object, as a path (`$.filter.keywords`), or null.
 * JSON.parse keeps the last of the two silently, while another parser in front of us (a gateway, a WAF,
 * the client's own logs) may keep the first: the same bytes would then mean two things (RFC 8259 4 says
 * names SHOULD be unique; I-JSON, RFC 7493, says MUST). Keys are compared as decoded, so `"a"` and
 * `"\u0061"` are the same key. One pass over the characters, as nestsDeeperThan; meant for text that
 * JSON.parse accepted (on other text it ends without throwing, its answer meaningless).
 */
export function firstDuplicateKey(text: string): string | null {
  // One frame per open object or array: the keys seen (objects), the current key or index (for the path).
  const frames: { keys: Set<string> | null; at: string | number; expectKey: boolean }[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      const start = i + 1;
      let escaped = false;
      for (i = start; i < text.length; i++) {
        const d = text.charCodeAt(i);
        if (d === 0x5c) {
          escaped = true;
          i++;
        } else if (d === 0x22) break;
      }
      const top = frames.at(-1);
      if (top?.keys && top.expectKey) {
        const raw = text.slice(start, i);
        const key = escaped ? decodeKey(raw) : raw;
        if (top.keys.has(key)) {
          top.at = key;
          return pathOf(frames);
        }
        top.keys.add(key);
        top.at = key;
        top.expectKey = false;
      }
    } else if (c === 0x7b) frames.push({ keys: new Set(), at: '', expectKey: true });
    else if (c === 0x5b) frames.push({ keys: null, at: 0, expectKey: false });
    else if (c === 0x7d || c === 0x5d) frames.pop();
    else if (c === 0x2c) {
      const top = frames.at(-1);
      if (top?.keys) top.expectKey = true;
      else if (top) top.at = (top.at as number) + 1;
    }
  }
  return null;
}

function decodeKey(raw: string): string {
  try {
    return JSON.parse(`"${raw}"`) as string;
  } catch {
    return raw;
  }
}

const plainName = /^[A-Za-z_$][\w$]*$/;
function pathOf(frames: readonly { at: string | number }[]): string {
  let path = '$';
  for (const { at } of frames)
    path +=
      typeof at === 'number'
        ? `[${at}]`
        : plainName.test(at)
          ? `.${at}`
          : `[${JSON.stringify(at.slice(0, 60))}]`;
  return path;
}

/**
 * The path of the first string, key or value, holding a lone UTF-16 surrogate ("\ud800" without its
 * pair), or null. JSON's escapes can write one, UTF-8 cannot carry it: stored or sent on, it becomes
 * U+FFFD, so a contact id or a webhook secret would be kept changed without a word.
 */
/** With the u flag a surrogate pair is one code point, outside the range: only a lone half matches. */
const loneSurrogate = /[\uD800-\uDFFF]/u;

export function loneSurrogateAt(value: unknown, frames: { at: string | number }[] = []): string | null {
  if (typeof value === 'string') return loneSurrogate.test(value) ? pathOf(frames) : null;
  if (typeof value !== 'object' || value === null) return null;
  const entries: [string | number, unknown][] = Array.isArray(value)
    ? value.map((item, index) => [index, item])
    : Object.entries(value);
  for (const [at, item] of entries) {
    if (typeof at === 'string' && loneSurrogate.test(at)) return pathOf(frames);
    const found = loneSurrogateAt(item, [...frames, { at }]);
    if (found !== null) return found;
  }
  return null;
}

export const duplicateKey = (path: string) =>
  new ApiError('invalid_json', `request body gives the key at ${path} more than once in the same object`);

/** Decodes UTF-8 and throws on bytes that are not (Buffer's decoding would put U+FFFD in their place). */
export const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** Whether a Content-Type's charset parameter, when given, names UTF-8. */
export const isUtf8Charset = (charset: string | undefined) => !charset || /^utf-?8$/i.test(charset);

export const tooDeep = (max: number) =>
  new ApiError('invalid_json', `request body nests arrays and objects deeper than ${max} levels`);

/** Whether the request carries a body: a Content-Length over 0, or one sent in chunks. */
export function carriesBody(ctx: Context): boolean {
  const length = ctx.request.length;
  return (length !== undefined && length > 0) || ctx.get('transfer-encoding') !== '';
}

/** Undefined when the request has no body at all. */
export async function readJsonBody(ctx: Context, options: BodyOptions): Promise<unknown> {
  if (!carriesBody(ctx)) return undefined;
  if (!ctx.request.is('application/json', 'application/*+json')) {
    throw new ApiError(
      'unsupported_media_type',
      `request bodies must be JSON (Content-Type: application/json), got "${ctx.get('content-type') || 'none'}"`,
    );
  }
  // A compressed body would be read as its compressed bytes ("not valid UTF-8"), and one declared
  // compressed but sent plain accepted: neither is what the client meant (RFC 9110, 15.5.16).
  const coding = ctx.get('content-encoding').trim().toLowerCase();
  if (coding !== '' && coding !== 'identity') {
    throw new ApiError(
      'unsupported_media_type',
      `request bodies are read as sent, without a content coding; got Content-Encoding: ${coding.slice(0, 40)}`,
    );
  }
  // JSON exchanged between systems is UTF-8 (RFC 8259, 8.1): a body declared in another charset would be
  // read wrongly, so it is refused rather than guessed at.
  const charset = ctx.request.charset;
  if (!isUtf8Charset(charset)) {
    throw new ApiError(
      'unsupported_media_type',
      `request bodies must be UTF-8 JSON, got charset=${charset.slice(0, 40)}`,
    );
  }
  const tooLarge = () =>
    new ApiError('payload_too_large', `request body larger than ${options.maxBodyBytes} bytes`);
  const length = ctx.request.length;
  if (length !== undefined && length > options.maxBodyBytes) throw tooLarge();

  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > options.maxBodyBytes) throw tooLarge();
    chunks.push(chunk);
  }
  // Decoded strictly: Buffer's decoding turns bytes that are not UTF-8 (a Latin-1 "café") into U+FFFD,
  // so a client's text would be stored and answered changed, without a word. A UTF-8 byte order mark,
  // which some Windows and .NET clients put first, is not part of the JSON (RFC 8259, 8.1, lets a parser
  // ignore it): the decoder drops it.
  let text: string;
  try {
    text = strictUtf8.decode(Buffer.concat(chunks));
  } catch {
    throw new ApiError('invalid_json', 'request body is not valid UTF-8 (JSON is UTF-8: RFC 8259, 8.1)');
  }
  if (text.trim() === '') return undefined;
  if (nestsDeeperThan(text, options.maxJsonDepth)) throw tooDeep(options.maxJsonDepth);
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch (error) {
    throw new ApiError('invalid_json', `request body is not valid JSON: ${(error as Error).message}`);
  }
  const duplicate = firstDuplicateKey(text);
  if (duplicate !== null) throw duplicateKey(duplicate);
  const lone = loneSurrogateAt(value);
  if (lone !== null)
    throw new ApiError(
      'invalid_json',
      `request body's string at ${lone} holds a lone UTF-16 surrogate (an escape such as \\ud800 without ` +
        'its pair), which is no character',
    );
  return value;
}
