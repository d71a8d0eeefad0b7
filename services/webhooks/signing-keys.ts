// The HMAC key of each webhook's signing secret, opened from its sealed `secret_ref` once instead of on
// every attempt. Opening is an AES-GCM decryption and the secret's text must then be checked and
// base64-decoded: about 25 µs, a tenth of what a whole delivery cost the dispatcher, for the same answer
// every time. A new secret (a rotation) comes with a new ref, so the ref is the key of the cache and
// nothing held can go stale; a ref that cannot be opened is not kept, so it is tried again next time
// (a key added to WEBHOOK_SECRET_KEYS takes a restart anyway, but nothing here depends on that).
//
// The keys held are the secrets themselves, in the memory of the process that signs with them and
// already holds the keys that open every sealed ref; they are never logged or written anywhere.
import type { SecretBox } from './secret-box.ts';
import { webhookSecretKey } from './signing.ts';

export class SigningKeys {
  private readonly keys = new Map<string, Buffer>();

  constructor(
    private readonly box: Pick<SecretBox, 'open'>,
    /** Refs held at most; beyond it the oldest opened is forgotten (and opened again when used). */
    private readonly capacity = 10_000,
  ) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new Error(`capacity must be ≥ 1, got ${capacity}`);
  }

  /** The HMAC key sealed in `secretRef`; throws (naming the kid at most) if it cannot be opened. */
  keyOf(secretRef: string): Buffer {
    const held = this.keys.get(secretRef);
    if (held !== undefined) return held;
    const key = webhookSecretKey(this.box.open(secretRef));
    if (this.keys.size >= this.capacity) this.keys.delete(this.keys.keys().next().value!);
    this.keys.set(secretRef, key);
    return key;
  }

  /** Refs held now. */
  get size(): number {
    return this.keys.size;
  }
}
