import { describe, expect, it } from 'vitest';
import {
  apiKeyPrefixOf,
  generateApiKey,
  generateClientId,
  generateClientSecret,
  generateTenantId,
  hashCredential,
  verifyCredential,
} from './credentials.ts';
import {
  isStoredHash,
  looksLikeApiKey,
  looksLikeClientSecret,
} from '../../test/support/credential-shapes.ts';

describe('generated credentials', () => {
  it('are a recognisable prefix and 256 random bits in base64url', () => {
    const key = generateApiKey();
    const secret = generateClientSecret();
    expect(key).toMatch(/^nik_[A-Za-z0-9_-]{43}$/);
    expect(secret).toMatch(/^nis_[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(key.slice(4), 'base64url')).toHaveLength(32);
    expect(Buffer.from(secret.slice(4), 'base64url')).toHaveLength(32);
    expect(looksLikeApiKey(key)).toBe(true);
    expect(looksLikeClientSecret(secret)).toBe(true);
    expect(looksLikeApiKey(secret)).toBe(false);
    expect(looksLikeApiKey(`${key}x`)).toBe(false);
    expect(looksLikeApiKey('eyJhbGciOiJIUzI1NiJ9.e30.sig')).toBe(false);
  });

  it('never repeat', () => {
    const keys = new Set(Array.from({ length: 1000 }, generateApiKey));
    const ids = new Set(Array.from({ length: 1000 }, generateClientId));
    expect(keys.size).toBe(1000);
    expect(ids.size).toBe(1000);
  });

  it('gives ids a prefix that says what they are', () => {
    expect(generateClientId()).toMatch(/^cli_[0-9a-f]{20}$/);
    expect(generateTenantId()).toMatch(/^ten_[0-9a-f]{20}$/);
  });

  it('keeps a prefix of the key that recognises it without revealing it', () => {
    const key = generateApiKey();
    const prefix = apiKeyPrefixOf(key);
    expect(prefix).toBe(key.slice(0, 12));
    expect(verifyCredential(prefix, hashCredential(key))).toBe(false);
  });

  it('shows an eighth of a key chosen outside, at most 4 characters, however it starts', () => {
    expect(apiKeyPrefixOf('demo_audit_key_x')).toBe('de');
    expect(apiKeyPrefixOf('demo_audit_key_2026_12_08_abcdefghijkl')).toBe('demo');
    // looks like ours, but is not one: too short
    expect(apiKeyPrefixOf('nik_short_chosen_key')).toBe('ni');
  });
});

describe('hashCredential and verifyCredential', () => {
  it('stores "sha256$<64 hex>", the SHA-256 of the credential', () => {
    // SHA-256("abc"), FIPS 180-2 test vector.
    expect(hashCredential('abc')).toBe(
      'sha256$ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    );
    const key = generateApiKey();
    const hash = hashCredential(key);
    expect(isStoredHash(hash)).toBe(true);
    expect(hash).not.toContain(key.slice(4));
  });

  it('accepts the credential and nothing else', () => {
    const key = generateApiKey();
    const hash = hashCredential(key);
    expect(verifyCredential(key, hash)).toBe(true);
    expect(verifyCredential(generateApiKey(), hash)).toBe(false);
    expect(verifyCredential(`${key.slice(0, -1)}${key.endsWith('A') ? 'B' : 'A'}`, hash)).toBe(false);
    expect(verifyCredential('', hash)).toBe(false);
  });

  it('never matches a missing, malformed or foreign stored hash', () => {
    const key = generateApiKey();
    const hex = hashCredential(key).slice('sha256$'.length);
    expect(verifyCredential(key, null)).toBe(false);
    expect(verifyCredential(key, undefined)).toBe(false);
    expect(verifyCredential(key, '')).toBe(false);
    expect(verifyCredential(key, hex)).toBe(false);
    expect(verifyCredential(key, `sha256$${hex.slice(2)}`)).toBe(false);
    expect(verifyCredential(key, `md5$${hex}`)).toBe(false);
    expect(verifyCredential(key, `sha256$${hex.toUpperCase()}`)).toBe(false);
    // The key itself in the hash field (a broken writer) must not authenticate it.
    expect(verifyCredential(key, key)).toBe(false);
  });
});
