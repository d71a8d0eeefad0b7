// A receiver's check of a Standard Webhooks delivery, for the tests of what the dispatcher signs. It
// computes the HMAC itself instead of calling signing.ts, so a mistake there is not mirrored here; the
// npm reference verifier (standardwebhooks) checks the same headers in signing.test.ts. Customers get
// their own examples in docs/webhooks.md.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { unixSeconds, webhookSecretKey } from '../../services/webhooks/signing.ts';

/** Receivers reject older or newer timestamps, which bounds how long a captured delivery can be replayed. */
export const DEFAULT_TOLERANCE_SECONDS = 5 * 60;

export type Verification = { ok: true } | { ok: false; reason: string };

export interface VerifyOptions {
  now: Date;
  toleranceSeconds?: number;
}

/**
 * Checks headers + body against one or more secrets, as a receiver does. Header names are matched
 * case-insensitively (HTTP servers lower-case them, hand-written tests may not).
 */
export function verifySignature(
  request: { headers: Record<string, string | string[] | undefined>; body: string },
  secret: string | readonly string[],
  options: VerifyOptions,
): Verification {
  const headers = lowerCased(request.headers);
  const id = headers['webhook-id'];
  const timestamp = headers['webhook-timestamp'];
  const signature = headers['webhook-signature'];
  if (id === undefined || timestamp === undefined || signature === undefined) {
    return { ok: false, reason: 'missing webhook-id, webhook-timestamp or webhook-signature header' };
  }
  if (!/^\d{1,15}$/.test(timestamp)) return { ok: false, reason: 'webhook-timestamp is not unix seconds' };
  const seconds = Number(timestamp);
  const skew = unixSeconds(options.now) - seconds;
  const tolerance = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  if (skew > tolerance) return { ok: false, reason: 'webhook-timestamp is too old' };
  if (skew < -tolerance) return { ok: false, reason: 'webhook-timestamp is too far in the future' };

  const given = signature
    .split(' ')
    .filter((part) => part.startsWith('v1,'))
    .map((part) => Buffer.from(part.slice(3), 'base64'));
  const secrets = typeof secret === 'string' ? [secret] : secret;
  for (const s of secrets) {
    const expected = createHmac('sha256', webhookSecretKey(s))
      .update(`${id}.${seconds}.${request.body}`, 'utf8')
      .digest();
    // Constant time, as a receiver should compare: no hint of how many leading bytes of a guess were right.
    if (given.some((g) => g.length === expected.length && timingSafeEqual(g, expected))) return { ok: true };
  }
  return { ok: false, reason: 'no matching v1 signature' };
}

function lowerCased(
  headers: Record<string, string | string[] | undefined>,
): Record<string, string | undefined> {
  const result: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(headers)) {
    result[name.toLowerCase()] = Array.isArray(value) ? value.join(' ') : value;
  }
  return result;
}
