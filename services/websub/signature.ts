// The hub's proof that a notification is from the hub we subscribed with (WebSub §8): an
// X-Hub-Signature header "<method>=<hex>", the HMAC of the raw body under the subscription's
// hub.secret. Each subscription's secret is derived from the master key and the source id, so a
// signature valid for one source is worthless for another, and any poller can check any source.
import { createHmac, timingSafeEqual } from 'node:crypto';

const methods = new Set(['sha1', 'sha256', 'sha384', 'sha512']);

/** The hub.secret of a source's subscription (64 hex characters: under the 200 bytes WebSub allows). */
export const hubSecretFor = (masterSecret: string, sourceId: string) =>
  createHmac('sha256', masterSecret).update(`websub:${sourceId}`).digest('hex');

export type SignatureVerdict =
  | { ok: true; method: string }
  /** `reason` names what was wrong, never the expected value. */
  | { ok: false; outcome: 'unsigned' | 'bad_signature'; reason: string };

export function checkSignature(
  header: string | undefined | null,
  body: Uint8Array,
  secret: string,
): SignatureVerdict {
  if (header === undefined || header === null || header.trim() === '')
    return { ok: false, outcome: 'unsigned', reason: 'no X-Hub-Signature header' };
  const match = /^\s*([A-Za-z0-9]+)=([0-9A-Fa-f]+)\s*$/.exec(header);
  if (match === null)
    return { ok: false, outcome: 'bad_signature', reason: 'X-Hub-Signature is not <method>=<hex>' };
  const method = match[1]!.toLowerCase();
  if (!methods.has(method))
    return { ok: false, outcome: 'bad_signature', reason: `unsupported signature method ${method}` };
  const expected = createHmac(method, secret).update(body).digest();
  const hex = match[2]!;
  // Length first (in hex digits: Buffer.from would drop an odd last digit): timingSafeEqual throws on
  // unequal lengths, and the length of a digest is no secret.
  if (hex.length !== expected.length * 2 || !timingSafeEqual(Buffer.from(hex, 'hex'), expected))
    return { ok: false, outcome: 'bad_signature', reason: `${method} signature does not match the body` };
  return { ok: true, method };
}
