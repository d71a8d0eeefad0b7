// The keys access tokens are signed with. API_TOKEN_KEYS lists "kid:secret"
// pairs; the first signs new tokens, all of them verify, so a key is rotated
// by putting a new one first and dropping the old one an hour (one token
// lifetime) later. Every API instance must be given the same list.
import { randomBytes } from 'node:crypto';

export interface SigningKey {
  kid: string;
  secret: Uint8Array;
}

export interface SigningKeys {
  current: SigningKey;
  byKid: ReadonlyMap<string, SigningKey>;
  /** True when no keys were configured and a random one was made for this process alone. */
  ephemeral: boolean;
}

const kidPattern = /^[A-Za-z0-9._-]{1,64}$/;
/** HS256 wants at least as many key bits as the hash has. */
const minimumSecretBytes = 32;

/** Parses API_TOKEN_KEYS; throws a message naming the problem (never the secret). */
export function parseSigningKeys(text: string): SigningKeys {
  if (text.trim() === '') {
    const current = { kid: `ephemeral-${randomBytes(4).toString('hex')}`, secret: randomBytes(32) };
    return { current, byKid: new Map([[current.kid, current]]), ephemeral: true };
  }
  const keys = text.split(',').map((entry, i) => {
    const at = entry.indexOf(':');
    const kid = entry.slice(0, at).trim();
    const secret = Buffer.from(entry.slice(at + 1).trim(), 'base64url');
    if (at < 0 || !kidPattern.test(kid)) {
      throw new Error(
        `API_TOKEN_KEYS entry ${i + 1}: expected "<kid>:<base64url secret>" with a kid of [A-Za-z0-9._-]`,
      );
    }
    if (secret.length < minimumSecretBytes) {
      throw new Error(
        `API_TOKEN_KEYS key "${kid}": the secret must decode to at least ${minimumSecretBytes} bytes`,
      );
    }
    return { kid, secret: new Uint8Array(secret) };
  });
  const byKid = new Map(keys.map((k) => [k.kid, k]));
  if (byKid.size !== keys.length) throw new Error('API_TOKEN_KEYS: each kid may appear once');
  return { current: keys[0]!, byKid, ephemeral: false };
}
