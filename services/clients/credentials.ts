// Credentials of an API client: generating them, hashing them for storage and
// checking a presented one against a stored hash. Keys and secrets exist in
// clear only in the caller's hands, once; everything else sees a hash.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** Recognisable prefixes: a key pasted into a chat or a repository is easy to spot (and to scan for). */
export const apiKeyPrefix = 'nik_';
export const clientSecretPrefix = 'nis_';
export const clientIdPrefix = 'cli_';
export const tenantIdPrefix = 'ten_';

/** 256 bits: far beyond guessing, so the hash below needs no slowness to protect it. */
const secretBytes = 32;

/** Characters of the key kept as `api_key_prefix`: the prefix and 8 of its 43 random characters. */
export const apiKeyPrefixLength = apiKeyPrefix.length + 8;

const randomPart = () => randomBytes(secretBytes).toString('base64url');

/** A new API key: `nik_` + 256 random bits, base64url. */
export const generateApiKey = (): string => `${apiKeyPrefix}${randomPart()}`;

/** A new OAuth client secret: `nis_` + 256 random bits, base64url. */
export const generateClientSecret = (): string => `${clientSecretPrefix}${randomPart()}`;

// Ids are not secrets (they travel in logs, URLs and Kafka keys); 80 random bits in
// lowercase hex keep them unique without coordination and easy to copy.
export const generateClientId = (): string => `${clientIdPrefix}${randomBytes(10).toString('hex')}`;
export const generateTenantId = (): string => `${tenantIdPrefix}${randomBytes(10).toString('hex')}`;

/** A key this module generated: `nik_` and 43 base64url characters. */
const generatedKey = /^nik_[A-Za-z0-9_-]{43}$/;

/**
 * What is shown to recognise a key ("nik_AbCdEfGh"): 48 of its 256 random bits,
 * leaving 208 unknown, so it narrows a look-up but cannot authenticate.
 *
 * A key chosen outside (the demo's DEMO_API_KEY, 16 characters or more) shows an eighth of itself, at
 * most 4 characters: its first 12 of 16 left 4 unknown, a few million guesses against the hash that
 * news.clients.v1 carries to every reader of the topic.
 */
export const apiKeyPrefixOf = (key: string): string =>
  generatedKey.test(key)
    ? key.slice(0, apiKeyPrefixLength)
    : key.slice(0, Math.min(4, Math.floor(key.length / 8)));

const hashAlgorithm = 'sha256';
const storedHashPattern = /^sha256\$([0-9a-f]{64})$/;

/**
 * The stored form of a key or secret: "sha256$<64 hex>" (self-describing, so the
 * algorithm can change later without ambiguity).
 *
 * A fast, unsalted hash is right here and would be wrong for passwords. Slow
 * hashes (scrypt, argon2) and salts exist because passwords are guessable: a
 * stolen hash can be attacked by trying likely passwords, so each try must be
 * expensive. Our keys and secrets are 256 random bits that nobody chose; there is
 * nothing likely to try, and 2^256 guesses stay out of reach at any hash speed.
 * A fast hash also keeps checking a key on every request cheap, and being
 * deterministic it lets the key's hash itself be the look-up index.
 */
export function hashCredential(credential: string): string {
  return `${hashAlgorithm}$${digest(credential).toString('hex')}`;
}

/**
 * Whether `presented` is the credential whose stored hash is `storedHash`.
 * Constant-time in the content: both sides are 32-byte digests compared with
 * timingSafeEqual, so response times reveal nothing about how close a guess was.
 * A missing or malformed stored hash never matches.
 */
export function verifyCredential(presented: string, storedHash: string | null | undefined): boolean {
  const match = storedHash ? storedHashPattern.exec(storedHash) : null;
  if (!match) return false;
  const expected = Buffer.from(match[1]!, 'hex');
  const actual = digest(presented);
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

const digest = (value: string): Buffer => createHash(hashAlgorithm).update(value, 'utf8').digest();
