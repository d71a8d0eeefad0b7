// GET and HEAD /v1/audio/{key}: a stored audio file, for whoever holds a signed URL (services/audio/
// signed-url.ts) and no API key, so an <audio> element or a podcast player can fetch it. The signature is
// checked before anything else, so an unsigned request learns nothing, not even whether a key exists.
//
// Files are content-addressed and never change, so the answer is `immutable` and the key is a strong
// ETag; but a cache may keep it only until the URL expires, which is what ends a leaked URL's use. Range requests get 206 with exactly the bytes asked for (one range;
// range-header.ts says what is refused). It is not an authenticated route: no scope, no plan limit.
import type Router from '@koa/router';
import type { Context } from 'koa';
import type { AudioStore, StoredAudio } from '../../audio/audio-store.ts';
import type { AudioUrlKeys } from '../../audio/signed-url.ts';
import { AudioRangeError } from '../../audio/store-checks.ts';
import { ApiError, notFound } from '../../runtime/api-error.ts';
import { parseRangeHeader } from './range-header.ts';
import { requireSignature } from './url-signature.ts';

export const audioPath = '/v1/audio/{key}';

export interface AudioRouteDependencies {
  store: AudioStore;
  keys: AudioUrlKeys;
  now?: () => Date;
}

export function audioRoutes(router: Router, deps: AudioRouteDependencies): void {
  const now = deps.now ?? (() => new Date());
  // @koa/router answers HEAD with every GET route; the handler tells them apart.
  router.get('/v1/audio/:key', async (ctx) => {
    const key = ctx.params.key!;
    const expires = requireSignature(ctx, { key }, deps.keys, now());
    // Served as stored, never compressed on the way (a transcript's JSON would be, by the app's JSON
    // compression): one representation, so the strong ETag, the byte ranges and HEAD's Content-Length
    // all describe the bytes a GET sends.
    ctx.compress = false;

    const audio = await deps.store.head(key);
    if (!audio) throw notFound(`no audio file ${key}`);
    const etag = `"${key}"`;
    const cacheable = {
      ETag: etag,
      'Cache-Control': `public, max-age=${cacheSeconds(expires, now())}, immutable`,
      'Accept-Ranges': 'bytes',
      'Access-Control-Allow-Origin': '*',
      'X-Content-Type-Options': 'nosniff',
    };
    // If-Match before If-None-Match (RFC 9110, 13.2.2): compared strongly, and a file is never replaced,
    // so only its own tag (or `*`) matches; a client editing a copy is told it has another.
    const ifMatch = ctx.get('If-Match');
    if (
      ifMatch.trim() !== '' &&
      ifMatch.trim() !== '*' &&
      !ifMatch.split(',').some((tag) => tag.trim() === etag)
    )
      throw new ApiError(
        'precondition_failed',
        `If-Match ${JSON.stringify(ifMatch.slice(0, 100))} does not name this file's ETag ${etag}`,
        { ETag: etag }, // the file's own tag, so the client learns it
      );
    if (matchesAny(ctx.get('If-None-Match'), key)) {
      ctx.set(cacheable);
      ctx.status = 304;
      return;
    }

    // A Range whose If-Range names another version (or a date: there is no Last-Modified) gets the
    // whole file, as RFC 9110 says; with content-addressed files that only happens to a confused client.
    const ifRange = ctx.get('If-Range');
    const rangeHeader = ifRange === '' || ifRange === etag ? ctx.get('Range') : undefined;
    const wanted = parseRangeHeader(rangeHeader, audio.size);
    if (wanted.kind === 'unsatisfiable') throw unsatisfiable(rangeHeader ?? '', audio);

    const range = wanted.kind === 'part' ? wanted.range : undefined;
    const length = range ? range.end - range.start + 1 : audio.size;
    if (ctx.method === 'HEAD') {
      answer(ctx, audio, cacheable, range, length);
      return;
    }
    let read;
    try {
      read = await deps.store.read(key, range);
    } catch (error) {
      if (error instanceof AudioRangeError) throw unsatisfiable(rangeHeader ?? '', audio);
      throw error;
    }
    if (!read) throw notFound(`no audio file ${key}`);
    ctx.body = read.body;
    answer(ctx, read.audio, cacheable, range, length);
  });
}

/** Until the URL expires, at most a year. */
const cacheSeconds = (expires: number, at: Date) =>
  Math.max(0, Math.min(31_536_000, Math.floor(expires - at.getTime() / 1000)));

function answer(
  ctx: Context,
  audio: StoredAudio,
  headers: Record<string, string>,
  range: { start: number; end: number } | undefined,
  length: number,
): void {
  ctx.status = range ? 206 : 200;
  ctx.set(headers);
  ctx.set('Content-Type', audio.contentType);
  if (range) ctx.set('Content-Range', `bytes ${range.start}-${range.end}/${audio.size}`);
  // After the body: Koa drops a Content-Length set before a stream body replaces none.
  ctx.length = length;
}

function unsatisfiable(header: string, audio: StoredAudio): ApiError {
  return new ApiError(
    'range_not_satisfiable',
    `Range ${JSON.stringify(header.slice(0, 100))} does not fit a file of ${audio.size} bytes (one range, bytes=START-END, bytes=START- or bytes=-LENGTH)`,
    { 'Content-Range': `bytes */${audio.size}`, 'Accept-Ranges': 'bytes' },
  );
}

/** If-None-Match: `*`, or a list of entity tags (weak ones compared weakly, as RFC 9110 says for it). */
function matchesAny(header: string, key: string): boolean {
  if (header.trim() === '') return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === `"${key}"`);
}
