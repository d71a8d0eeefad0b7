// The token endpoint's error_description as RFC 6749 5.2 allows it (the endpoint itself, against the real
// API process, is in test/integration/access-control.test.ts).
import { describe, expect, it } from 'vitest';
import { oauthDescription } from './token-endpoint.ts';

describe('an error_description', () => {
  it('keeps printable ASCII, and turns quotes, backslashes and every other character into allowed ones', () => {
    expect(oauthDescription('grant_type is required')).toBe('grant_type is required');
    expect(oauthDescription('the client may not have: "écrire"\\x')).toBe(
      "the client may not have: '?crire'/x",
    );
    expect(oauthDescription('a\tb\nc\u0000d😀e')).toBe('a?b?c?d?e');
  });

  it('is at most 200 characters', () => {
    const long = oauthDescription(`scope ${'x'.repeat(1_000)}`);
    expect(long).toHaveLength(200);
    expect(long.endsWith('...')).toBe(true);
    expect(oauthDescription('y'.repeat(200))).toBe('y'.repeat(200));
  });
});
