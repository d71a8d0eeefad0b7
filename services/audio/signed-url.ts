// `audio_url`s: absolute URLs a browser's <audio> element or a podcast player fetches without an API key.
//
//   <base>/v1/audio/<key>?expires=<unix seconds>&signature=<kid>.<base64url HMAC-SHA256>
//   <base>/v1/articles/<article id>/audio?expires=<unix seconds>&signature=<kid>.<base64url HMAC-SHA256>
//
// The first names one stored file. The second names an article's narration, whichever file that is when
// the URL is fetched (the API redirects to the file's URL): a payload built before the narrator has
// finished (a webhook alert on a loaded machine) can still carry audio that plays once it exists.
//
// The HMAC covers the subject (the key, or the article id) and the expiry, under a label saying which
// kind of subject it is, so no other message signed with the same secret can pass for one, and a file's
// signature never opens an article's URL nor the other way round. A URL is signed when an answer is built
// and never stored signed: what is stored is the key (or nothing but the article's id), so rotating keys
// or changing the TTL never leaves dead URLs in a read model.
//
// Keys come from AUDIO_URL_KEYS, `kid:base64url-secret` pairs: the first signs, all verify, so a key is
// rotated by putting a new one first and dropping the old one once the URLs it signed have expired (one
// TTL later). Every API instance needs the same list. Empty: a public development key, with a warning.
//
// The expiry is rounded up (to a tenth of the TTL, at most an hour), so answers built within that step
// hand out the same URL and a player's cache keeps hitting; a URL therefore lives between one TTL and one
// TTL plus that step.
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { z } from 'zod';
import { integer, text } from '../runtime/config.ts';
import { isAudioKey } from './audio-key.ts';

export const AUDIO_URL_KEYS_SETTING = 'AUDIO_URL_KEYS';

/**
 * Used when AUDIO_URL_KEYS is empty, so a development machine needs no configuration and several
 * processes agree. It is public (it is in this file): anyone can sign URLs with it, which is why callers
 * log a warning whenever it is in use.
 */
export const DEVELOPMENT_AUDIO_URL_KEY = {
  kid: 'dev',
  secret: 'Qjh0GgL3DSTmWPzu9negSi-GFBb3n3OHVmPMeI34J0k',
} as const;

export const audioUrlEnv = {
  AUDIO_URL_KEYS: text('').meta({
    accepted: '`kid:base64url-secret` pairs, comma-separated; each secret at least 32 bytes',
    description:
      'Keys signing `audio_url`s (HMAC-SHA256): the first signs, all verify, so a key is rotated by putting a new one first and dropping the old one a TTL later. Every API instance needs the same list. Empty: a public development key, with a warning.',
  }),
  AUDIO_URL_TTL_SECONDS: integer(86_400, 60, 30 * 86_400).describe(
    'How long an `audio_url` handed out in an answer can be fetched (rounded up by a tenth of it, at most an hour, so repeated answers give the same URL).',
  ),
} satisfies Record<string, z.ZodType>;

export interface AudioUrlKey {
  kid: string;
  secret: Buffer;
}

export interface AudioUrlKeys {
  /** The key new URLs are signed with. */
  signing: AudioUrlKey;
  byKid: ReadonlyMap<string, AudioUrlKey>;
  /** True when signing with the public development key: the caller should log a warning. */
  development: boolean;
}

export interface AudioUrlSigning {
  /** The API's public base URL (scheme, host and any path prefix): the URL is `<base>/v1/…`. */
  baseUrl: string;
  keys: AudioUrlKeys;
  ttlSeconds: number;
}

/**
 * What a signed URL opens: one stored file (`key`), or the narration an article has when the URL is
 * fetched (`articleId`).
 */
export type AudioUrlSubject = { key: string } | { articleId: string };

/**
 * What a request to /v1/audio/<key> or /v1/articles/<id>/audio brings: the subject its path names and
 * the query's parameters as given.
 */
export type AudioUrlRequest = AudioUrlSubject & {
  expires: string | undefined;
  signature: string | undefined;
};

export type AudioUrlRefusal = 'unsigned' | 'malformed' | 'unknown-kid' | 'tampered' | 'expired';
export type AudioUrlVerdict = { ok: true; expires: number } | { ok: false; reason: AudioUrlRefusal };

// Each kind of subject has its own label, the first line of the signed message. Neither label holds a
// line break, so messages under different labels differ in their first line: a file's signature is no
// article's, whatever the key and the id. The file label is the one URLs have always been signed
// under, so URLs already handed out (a webhook's live for days) keep working.
const fileLabel = 'audio-url-v1';
const articleLabel = 'article-audio-url-v1';
const kidPattern = /^[A-Za-z0-9_-]{1,32}$/;
const macPattern = /^[A-Za-z0-9_-]{43}$/;
const minimumSecretBytes = 32;
const maximumStepSeconds = 3_600;

/** Parses AUDIO_URL_KEYS; throws a message naming the problem (never the secret). */
export function parseAudioUrlKeys(text: string | undefined): AudioUrlKeys {
  if (text === undefined || text.trim() === '') {
    const key = {
      kid: DEVELOPMENT_AUDIO_URL_KEY.kid,
      secret: Buffer.from(DEVELOPMENT_AUDIO_URL_KEY.secret, 'base64url'),
    };
    return { signing: key, byKid: new Map([[key.kid, key]]), development: true };
  }
  const keys: AudioUrlKey[] = [];
  text
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '')
    .forEach((entry, index) => {
      const where = `${AUDIO_URL_KEYS_SETTING}: entry ${index + 1}`;
      const colon = entry.indexOf(':');
      const kid = entry.slice(0, Math.max(colon, 0));
      if (colon < 0 || !kidPattern.test(kid)) {
        throw new Error(
          `${where}: expected "<kid>:<base64url secret>" with a kid of 1-32 of A-Z a-z 0-9 _ -`,
        );
      }
      if (keys.some((k) => k.kid === kid)) throw new Error(`${where}: kid "${kid}" is used twice`);
      const encoded = entry.slice(colon + 1).replace(/=+$/, '');
      const secret = /^[A-Za-z0-9_-]+$/.test(encoded) ? Buffer.from(encoded, 'base64url') : Buffer.alloc(0);
      if (secret.length < minimumSecretBytes) {
        throw new Error(
          `${where} (kid "${kid}"): the secret must be at least ${minimumSecretBytes} bytes of base64url`,
        );
      }
      keys.push({ kid, secret });
    });
  if (keys.length === 0) throw new Error(`${AUDIO_URL_KEYS_SETTING}: no keys given`);
  return { signing: keys[0]!, byKid: new Map(keys.map((k) => [k.kid, k])), development: false };
}

/** The expiry a URL signed at `now` gets: now + TTL, rounded up to the step (see the top of the file). */
export function audioUrlExpiry(now: Date, ttlSeconds: number): number {
  const step = Math.max(1, Math.min(maximumStepSeconds, Math.floor(ttlSeconds / 10)));
  const at = Math.floor(now.getTime() / 1000) + ttlSeconds;
  return Math.ceil(at / step) * step;
}

/**
 * Whether an article id can be named by a signed URL: characters a URL path carries as they are (RFC
 * 3986's unreserved), starting with a letter or digit (no `.` or `..` segment a client would resolve
 * away), so the path needs no escaping and has one spelling. Every id the service makes is `art_` and
 * hexadecimal.
 */
export const isSignableArticleId = (id: string): boolean => /^[A-Za-z0-9][A-Za-z0-9._~-]{0,199}$/.test(id);

/** The absolute, signed URL of a stored audio file. */
export function signAudioUrl(key: string, now: Date, signing: AudioUrlSigning): string {
  if (!isAudioKey(key)) throw new Error(`not an audio key: ${JSON.stringify(key.slice(0, 80))}`);
  return `${baseOf(signing)}/v1/audio/${key}?${signedQuery({ key }, now, signing)}`;
}

/**
 * The absolute, signed URL of an article's narration: the API answers it with a redirect to the signed
 * URL of the file the article's narration is stored in, once there is one.
 */
export function signArticleAudioUrl(articleId: string, now: Date, signing: AudioUrlSigning): string {
  if (!isSignableArticleId(articleId))
    throw new Error(`not an article id a URL can name: ${JSON.stringify(articleId.slice(0, 80))}`);
  return `${baseOf(signing)}/v1/articles/${articleId}/audio?${signedQuery({ articleId }, now, signing)}`;
}

const baseOf = (signing: AudioUrlSigning) => signing.baseUrl.replace(/\/+$/, '');

function signedQuery(subject: AudioUrlSubject, now: Date, signing: AudioUrlSigning): string {
  const expires = audioUrlExpiry(now, signing.ttlSeconds);
  const { kid, secret } = signing.keys.signing;
  return `expires=${expires}&signature=${kid}.${mac(secret, subject, expires).toString('base64url')}`;
}

/**
 * Whether a request may have the file (or the article's narration) its path names. The signature is
 * checked before the expiry, so "expired" is only ever said of a URL this service really signed.
 */
export function verifyAudioUrl(request: AudioUrlRequest, now: Date, keys: AudioUrlKeys): AudioUrlVerdict {
  const { expires, signature } = request;
  if (expires === undefined || signature === undefined) return { ok: false, reason: 'unsigned' };
  const dot = signature.indexOf('.');
  const kid = signature.slice(0, Math.max(dot, 0));
  const macText = signature.slice(dot + 1);
  const subject: AudioUrlSubject = 'key' in request ? { key: request.key } : { articleId: request.articleId };
  if (
    !('key' in subject ? isAudioKey(subject.key) : isSignableArticleId(subject.articleId)) ||
    // Canonical digits only ("0017…" would name the same instant): a URL has one spelling.
    !/^[1-9]\d{0,11}$/.test(expires) ||
    dot < 0 ||
    !kidPattern.test(kid) ||
    !macPattern.test(macText)
  ) {
    return { ok: false, reason: 'malformed' };
  }
  const verifying = keys.byKid.get(kid);
  if (!verifying) return { ok: false, reason: 'unknown-kid' };
  const expiresAt = Number(expires);
  const given = Buffer.from(macText, 'base64url');
  // 43 characters carry 258 bits for 256: only the canonical spelling is accepted, so a URL has one form.
  if (given.toString('base64url') !== macText) return { ok: false, reason: 'malformed' };
  const expected = mac(verifying.secret, subject, expiresAt);
  if (given.length !== expected.length || !timingSafeEqual(given, expected))
    return { ok: false, reason: 'tampered' };
  if (now.getTime() >= expiresAt * 1000) return { ok: false, reason: 'expired' };
  return { ok: true, expires: expiresAt };
}

function mac(secret: Buffer, subject: AudioUrlSubject, expires: number): Buffer {
  const [label, name] = 'key' in subject ? [fileLabel, subject.key] : [articleLabel, subject.articleId];
  return createHmac('sha256', secret).update(`${label}\n${name}\n${expires}`, 'utf8').digest();
}
