// The check every signed audio URL goes through before anything is read (audio-route.ts for a file,
// article-audio-route.ts for an article's narration): the signature is the credential, so a request
// without a valid one learns nothing, not even whether what it names exists.
import type { Context } from 'koa';
import { verifyAudioUrl, type AudioUrlKeys, type AudioUrlSubject } from '../../audio/signed-url.ts';
import { ApiError } from '../../runtime/api-error.ts';

const fresh = 'take a fresh audio_url from an API answer';

/**
 * Throws the answer to a request whose URL is not signed for `subject`, or has expired; else returns when
 * it expires (Unix seconds).
 */
export function requireSignature(
  ctx: Context,
  subject: AudioUrlSubject,
  keys: AudioUrlKeys,
  at: Date,
): number {
  for (const name of ['expires', 'signature'] as const)
    if (Array.isArray(ctx.query[name]))
      throw new ApiError('forbidden', `this audio URL gives ${name} more than once; ${fresh}`);
  const expires = single(ctx.query.expires);
  const verdict = verifyAudioUrl({ ...subject, expires, signature: single(ctx.query.signature) }, at, keys);
  if (verdict.ok) return verdict.expires;
  switch (verdict.reason) {
    case 'unsigned':
      throw new ApiError(
        'forbidden',
        `audio URLs are signed and this one has no expires or signature; ${fresh}`,
      );
    case 'expired':
      throw new ApiError(
        'url_expired',
        `this audio URL expired at ${new Date(Number(expires) * 1000).toISOString()}; ${fresh}`,
      );
    default:
      // Malformed, altered, or signed with a key no longer held: one answer, so a forger learns nothing.
      throw new ApiError(
        'forbidden',
        `this audio URL's signature is not valid (altered, or signed with a key this service no longer holds); ${fresh}`,
      );
  }
}

/** A query parameter given once; given twice it counts as missing. */
const single = (value: string | string[] | undefined) => (typeof value === 'string' ? value : undefined);
