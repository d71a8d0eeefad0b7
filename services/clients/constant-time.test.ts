// Key and secret comparison must not stop at the first differing byte: every
// check goes through crypto.timingSafeEqual on equal-length digests, whether
// the guess is right, wrong at its first character or wrong at its last.
import type * as crypto from 'node:crypto';
import { beforeEach, describe, expect, it, vi } from 'vitest';

const calls = vi.hoisted(() => ({ lengths: [] as [number, number][] }));

vi.mock('node:crypto', async (importOriginal) => {
  const actual = await importOriginal<typeof crypto>();
  return {
    ...actual,
    timingSafeEqual: (a: NodeJS.ArrayBufferView, b: NodeJS.ArrayBufferView) => {
      calls.lengths.push([a.byteLength, b.byteLength]);
      return actual.timingSafeEqual(a, b);
    },
  };
});

const { generateApiKey, hashCredential, verifyCredential } = await import('./credentials.ts');

describe('credential comparison', () => {
  beforeEach(() => (calls.lengths = []));

  it('compares digests of equal length in constant time, for right and wrong guesses alike', () => {
    const key = generateApiKey();
    const stored = hashCredential(key);
    const firstWrong = `${key[0] === 'a' ? 'b' : 'a'}${key.slice(1)}`;
    const lastWrong = `${key.slice(0, -1)}${key.endsWith('a') ? 'b' : 'a'}`;
    expect(verifyCredential(key, stored)).toBe(true);
    expect(verifyCredential(firstWrong, stored)).toBe(false);
    expect(verifyCredential(lastWrong, stored)).toBe(false);
    expect(verifyCredential('short', stored)).toBe(false);
    expect(calls.lengths).toEqual([
      [32, 32],
      [32, 32],
      [32, 32],
      [32, 32],
    ]);
  });
});
