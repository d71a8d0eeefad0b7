import { describe, expect, it } from 'vitest';
import {
  carriedSecrets,
  MAX_PREVIOUS_SECRET_SECONDS,
  rotatedSecrets,
  signingSecretRefs,
} from './secret-rotation.ts';

const now = Date.UTC(2026, 0, 5, 10, 0, 0, 250);

describe('signingSecretRefs', () => {
  it('signs with the current secret alone when no rotation left a previous one', () => {
    expect(
      signingSecretRefs(
        { secret_ref: 'sb1:new', previous_secret_ref: null, previous_secret_expires_at: null },
        now,
      ),
    ).toEqual(['sb1:new']);
  });

  it('signs with the current secret first, then the previous one, until the grace period ends (exclusive)', () => {
    const rotated = {
      secret_ref: 'sb1:new',
      previous_secret_ref: 'sb1:old',
      previous_secret_expires_at: now + 1_000,
    };
    expect(signingSecretRefs(rotated, now)).toEqual(['sb1:new', 'sb1:old']);
    expect(signingSecretRefs(rotated, now + 999)).toEqual(['sb1:new', 'sb1:old']);
    expect(signingSecretRefs(rotated, now + 1_000)).toEqual(['sb1:new']);
    expect(signingSecretRefs(rotated, now + 86_400_000)).toEqual(['sb1:new']);
  });

  it('never signs twice with one secret, nor with a previous secret that has no expiry', () => {
    expect(
      signingSecretRefs(
        { secret_ref: 'sb1:same', previous_secret_ref: 'sb1:same', previous_secret_expires_at: now + 5_000 },
        now,
      ),
    ).toEqual(['sb1:same']);
    expect(
      signingSecretRefs(
        { secret_ref: 'sb1:new', previous_secret_ref: 'sb1:old', previous_secret_expires_at: null },
        now,
      ),
    ).toEqual(['sb1:new']);
  });
});

describe('rotatedSecrets', () => {
  it('keeps the secret in use as the previous one, until now + the grace period rounded up to a second', () => {
    const rotated = rotatedSecrets({ secret_ref: 'sb1:old' }, 'sb1:new', 60, now);
    expect(rotated).toEqual({
      secret_ref: 'sb1:new',
      previous_secret_ref: 'sb1:old',
      previous_secret_expires_at: Date.UTC(2026, 0, 5, 10, 1, 1),
    });
    // Never shorter than asked, and what the read model (whole seconds) gives back unchanged.
    expect(rotated.previous_secret_expires_at! - now).toBeGreaterThanOrEqual(60_000);
    expect(rotated.previous_secret_expires_at! % 1000).toBe(0);
  });

  it('keeps no previous secret with a grace period of 0: the new one alone signs from now', () => {
    const rotated = rotatedSecrets({ secret_ref: 'sb1:old' }, 'sb1:new', 0, now);
    expect(rotated).toEqual({
      secret_ref: 'sb1:new',
      previous_secret_ref: null,
      previous_secret_expires_at: null,
    });
    expect(signingSecretRefs(rotated, now)).toEqual(['sb1:new']);
  });

  it('keeps only the immediately previous secret when rotated again within the grace period', () => {
    const first = rotatedSecrets({ secret_ref: 'sb1:a' }, 'sb1:b', 3_600, now);
    const second = rotatedSecrets(first, 'sb1:c', 3_600, now + 10_000);
    expect(signingSecretRefs(second, now + 10_000)).toEqual(['sb1:c', 'sb1:b']);
  });

  it('refuses a grace period outside 0 to 7 days', () => {
    for (const bad of [-1, 1.5, MAX_PREVIOUS_SECRET_SECONDS + 1, Number.NaN])
      expect(() => rotatedSecrets({ secret_ref: 'sb1:a' }, 'sb1:b', bad, now), String(bad)).toThrow(
        RangeError,
      );
  });
});

describe('carriedSecrets', () => {
  const rotated = {
    secret_ref: 'sb1:new',
    previous_secret_ref: 'sb1:old',
    previous_secret_expires_at: now + 1_000,
  };

  it('carries a previous secret that still signs, so a change does not end the grace period early', () => {
    expect(carriedSecrets(rotated, now)).toEqual(rotated);
  });

  it('drops a previous secret whose grace period is over', () => {
    expect(carriedSecrets(rotated, now + 1_000)).toEqual({
      secret_ref: 'sb1:new',
      previous_secret_ref: null,
      previous_secret_expires_at: null,
    });
  });
});
