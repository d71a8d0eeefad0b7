// Standard Webhooks signing (https://www.standardwebhooks.com): what lets a receiver check that a
// delivery came from us, unchanged, and recently. Pure functions: no clock, no I/O, no state.
//
// A secret is `whsec_` + base64 of 24–64 random bytes; the HMAC key is those bytes, not the text.
// The signed content is `${id}.${unix seconds}.${body}`, where body is the exact string sent: a
// re-serialised JSON would differ by a space and break every signature.
import { createHmac, randomBytes } from 'node:crypto';

export const SECRET_PREFIX = 'whsec_';
/**
 * The HMAC key of a secret the client chose may be as short as 8 bytes (the interface has the client
 * choose it, and many choose words); the ones this service makes have 24 to 64, as the standard says.
 */
const minSecretBytes = 8;
const minGeneratedBytes = 24;
const maxGeneratedBytes = 64;
/**
 * The longest key taken: a client's text secret may be 128 characters, and its bytes are the key. (At 64
 * such a secret was registered, shown back as whsec_, and then refused by the signer at every delivery.)
 */
export const maxSecretBytes = 128;

export interface SignedMessage {
  /** Stable across retries of the same event, so that receivers can dedupe. */
  id: string;
  timestamp: Date;
  /** The exact bytes sent as the request body. */
  body: string;
}

// A type alias, not an interface, so that it passes where a plain header record is expected.
export type SignatureHeaders = {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
};

export function generateWebhookSecret(bytes = 32): string {
  if (!Number.isInteger(bytes) || bytes < minGeneratedBytes || bytes > maxGeneratedBytes) {
    throw new RangeError(
      `a webhook secret has ${minGeneratedBytes} to ${maxGeneratedBytes} bytes, not ${bytes}`,
    );
  }
  return `${SECRET_PREFIX}${randomBytes(bytes).toString('base64')}`;
}

/** The HMAC key inside a secret. Errors never repeat the secret: they end up in logs. */
export function webhookSecretKey(secret: string): Buffer {
  if (!secret.startsWith(SECRET_PREFIX)) {
    throw new Error(`a webhook secret must start with "${SECRET_PREFIX}"`);
  }
  const encoded = secret.slice(SECRET_PREFIX.length);
  // Buffer.from(…, 'base64') skips characters it does not know, so check the alphabet first.
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(encoded) || encoded.length % 4 !== 0) {
    throw new Error(`a webhook secret must be "${SECRET_PREFIX}" followed by base64`);
  }
  const key = Buffer.from(encoded, 'base64');
  if (key.length < minSecretBytes || key.length > maxSecretBytes) {
    throw new Error(
      `a webhook secret must hold ${minSecretBytes} to ${maxSecretBytes} bytes, not ${key.length}`,
    );
  }
  return key;
}

export function unixSeconds(timestamp: Date): number {
  const ms = timestamp.getTime();
  if (!Number.isFinite(ms)) throw new RangeError('webhook timestamp is not a valid date');
  return Math.floor(ms / 1000);
}

function hmac(key: Buffer, id: string, seconds: number, body: string): Buffer {
  return createHmac('sha256', key).update(`${id}.${seconds}.${body}`, 'utf8').digest();
}

/**
 * The three headers of one delivery. Several secrets (during a rotation) give several space-separated
 * signatures, so a receiver holding either the old or the new secret accepts the delivery.
 */
export function signatureHeaders(
  message: SignedMessage,
  secret: string | readonly string[],
): SignatureHeaders {
  const secrets = typeof secret === 'string' ? [secret] : secret;
  return signatureHeadersWithKeys(message, secrets.map(webhookSecretKey));
}

/**
 * signatureHeaders with the HMAC keys already taken out of their secrets (webhookSecretKey): what a
 * sender signing many deliveries for the same webhooks keeps, instead of parsing each secret again.
 */
export function signatureHeadersWithKeys(message: SignedMessage, keys: readonly Buffer[]): SignatureHeaders {
  if (keys.length === 0) throw new Error('at least one webhook secret is needed to sign');
  // The spec uses the id as a header value and a delimiter-separated field: keep it to safe characters.
  if (!/^[A-Za-z0-9_.:-]{1,255}$/.test(message.id)) {
    throw new Error(`webhook id ${JSON.stringify(message.id)} must be 1-255 of A-Z a-z 0-9 _ . : -`);
  }
  const seconds = unixSeconds(message.timestamp);
  const signatures = keys.map(
    (key) => `v1,${hmac(key, message.id, seconds, message.body).toString('base64')}`,
  );
  return {
    'webhook-id': message.id,
    'webhook-timestamp': String(seconds),
    'webhook-signature': signatures.join(' '),
  };
}
