import { describe, expect, it } from 'vitest';
import { parseRetryAfter } from './retry-after.ts';

describe('parseRetryAfter', () => {
  const now = Date.parse('2026-03-01T12:00:00Z');

  it('reads delta-seconds', () => {
    expect(parseRetryAfter('120', now)).toBe(120_000);
    expect(parseRetryAfter(' 0 ', now)).toBe(0);
  });

  it('reads an HTTP-date relative to the clock, never negative', () => {
    expect(parseRetryAfter('Sun, 01 Mar 2026 12:01:30 GMT', now)).toBe(90_000);
    expect(parseRetryAfter('Sun, 01 Mar 2026 11:00:00 GMT', now)).toBe(0);
  });

  it('ignores what it cannot read', () => {
    for (const value of [null, undefined, '', '-5', '1.5', 'soon', '12 34']) {
      expect(parseRetryAfter(value, now)).toBeNull();
    }
  });
});
