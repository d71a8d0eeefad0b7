// Webhook signing secrets travel through Kafka (news.webhooks.v1 `secret_ref`), which every consumer,
// replay and DLQ can read; so they are sealed there and only the API (which seals) and the dispatcher
// (which opens) hold the keys. Envelope: AES-256-GCM under a key named by a kid; the ref carries the kid,
// so a new key can be put first (it seals from then on) while the old ones still open what they sealed.
//
//   sb1:<kid>:<base64url iv>:<base64url ciphertext+tag>
//
// The version and kid are authenticated data: moving a ciphertext under another kid fails to open.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/** The setting holding `kid:base64url-32-byte-key[,kid:key…]`; the first key seals, all open. */
export const SECRET_KEYS_SETTING = 'WEBHOOK_SECRET_KEYS';

const version = 'sb1';
const ivBytes = 12;
const tagBytes = 16;
const keyBytes = 32;
const kidPattern = /^[A-Za-z0-9_-]{1,32}$/;
const base64urlPattern = /^[A-Za-z0-9_-]*$/;

/**
 * Used when WEBHOOK_SECRET_KEYS is empty, so the API and the dispatcher agree on a dev machine without
 * configuration. It is public (it is in this file): anything sealed with it is as good as plain text,
 * which is why callers log a warning whenever it is in use.
 */
export const DEVELOPMENT_KEY = { kid: 'dev', key: 'hI7Wf3gpzOl64gHeIXregeV4Ig9PyWEsmr2vbRlFUy8' } as const;

export interface SecretBoxKey {
  kid: string;
  key: Buffer;
}

export interface SecretBox {
  seal(secret: string): string;
  open(ref: string): string;
  /** The kid new secrets are sealed with. */
  readonly sealingKid: string;
  /** True when sealing with the public development key: the caller should log a warning. */
  readonly usesDevelopmentKey: boolean;
}

export type SecretBoxErrorKind = 'malformed' | 'unknown-kid' | 'tampered';

/** Never carries the secret, the key or the ref's ciphertext: it ends up in logs and delivery records. */
export class SecretBoxError extends Error {
  constructor(
    readonly kind: SecretBoxErrorKind,
    message: string,
  ) {
    super(message);
    this.name = 'SecretBoxError';
  }
}

/** Parses the setting; a typo must stop the process at start rather than seal with nothing. */
export function parseSecretBoxKeys(text: string): SecretBoxKey[] {
  const entries = text
    .split(',')
    .map((e) => e.trim())
    .filter((e) => e !== '');
  if (entries.length === 0) throw new Error(`${SECRET_KEYS_SETTING}: no keys given`);
  const keys: SecretBoxKey[] = [];
  entries.forEach((entry, index) => {
    const where = `${SECRET_KEYS_SETTING}: entry ${index + 1}`;
    const colon = entry.indexOf(':');
    if (colon < 0) throw new Error(`${where} is not kid:base64url-key`);
    const kid = entry.slice(0, colon);
    if (!kidPattern.test(kid)) throw new Error(`${where}: the kid must be 1-32 of A-Z a-z 0-9 _ -`);
    if (keys.some((k) => k.kid === kid)) throw new Error(`${where}: kid "${kid}" is used twice`);
    const key = decodeBase64url(entry.slice(colon + 1).replace(/=+$/, ''));
    if (key === null || key.length !== keyBytes) {
      throw new Error(`${where} (kid "${kid}"): the key must be ${keyBytes} bytes of base64url`);
    }
    keys.push({ kid, key });
  });
  return keys;
}

export function createSecretBox(
  keys: readonly SecretBoxKey[],
  options?: { development?: boolean },
): SecretBox {
  const sealing = keys[0];
  if (sealing === undefined) throw new Error('a secret box needs at least one key');
  for (const { kid, key } of keys) {
    if (!kidPattern.test(kid)) throw new Error(`secret box kid "${kid}" must be 1-32 of A-Z a-z 0-9 _ -`);
    if (key.length !== keyBytes) throw new Error(`secret box key "${kid}" must be ${keyBytes} bytes`);
  }
  const byKid = new Map(keys.map((k) => [k.kid, k.key]));

  return {
    sealingKid: sealing.kid,
    usesDevelopmentKey: options?.development ?? false,

    seal(secret) {
      // A fresh random iv per seal: GCM under one key must never reuse an iv.
      const iv = randomBytes(ivBytes);
      const cipher = createCipheriv('aes-256-gcm', sealing.key, iv);
      cipher.setAAD(associatedData(sealing.kid));
      const sealed = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final(), cipher.getAuthTag()]);
      return `${version}:${sealing.kid}:${iv.toString('base64url')}:${sealed.toString('base64url')}`;
    },

    open(ref) {
      const parts = ref.split(':');
      if (parts.length !== 4 || parts[0] !== version) {
        throw new SecretBoxError('malformed', `secret reference is not ${version}:<kid>:<iv>:<ciphertext>`);
      }
      const [, kid, ivText, sealedText] = parts as [string, string, string, string];
      if (!kidPattern.test(kid)) throw new SecretBoxError('malformed', 'secret reference has an invalid kid');
      const key = byKid.get(kid);
      if (key === undefined) {
        throw new SecretBoxError(
          'unknown-kid',
          `secret reference was sealed with key "${kid}", which is not in ${SECRET_KEYS_SETTING}`,
        );
      }
      const iv = decodeBase64url(ivText);
      const sealed = decodeBase64url(sealedText);
      if (iv === null || iv.length !== ivBytes || sealed === null || sealed.length < tagBytes) {
        throw new SecretBoxError(
          'malformed',
          `secret reference (key "${kid}") has a malformed iv or ciphertext`,
        );
      }
      const decipher = createDecipheriv('aes-256-gcm', key, iv);
      decipher.setAAD(associatedData(kid));
      decipher.setAuthTag(sealed.subarray(sealed.length - tagBytes));
      try {
        const plain = Buffer.concat([
          decipher.update(sealed.subarray(0, sealed.length - tagBytes)),
          decipher.final(),
        ]);
        return plain.toString('utf8');
      } catch {
        throw new SecretBoxError(
          'tampered',
          `secret reference (key "${kid}") failed authentication: altered, or sealed with a different key`,
        );
      }
    },
  };
}

/** The box sealing with the public development key; see DEVELOPMENT_KEY. */
export function developmentSecretBox(): SecretBox {
  const key = decodeBase64url(DEVELOPMENT_KEY.key);
  if (key === null) throw new Error('the development key is not base64url');
  return createSecretBox([{ kid: DEVELOPMENT_KEY.kid, key }], { development: true });
}

/**
 * The box for a WEBHOOK_SECRET_KEYS value: the configured keys, or the development box when the setting
 * is empty. Check `usesDevelopmentKey` on the result to warn.
 */
export function secretBoxFromSetting(text: string | undefined): SecretBox {
  if (text === undefined || text.trim() === '') return developmentSecretBox();
  return createSecretBox(parseSecretBoxKeys(text));
}

function associatedData(kid: string): Buffer {
  return Buffer.from(`${version}:${kid}`, 'utf8');
}

// Buffer.from(…, 'base64url') silently drops characters outside the alphabet; refuse them instead.
function decodeBase64url(text: string): Buffer | null {
  if (!base64urlPattern.test(text) || text.length % 4 === 1) return null;
  return Buffer.from(text, 'base64url');
}
