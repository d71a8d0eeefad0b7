import { describe, expect, it } from 'vitest';
import { ApiError } from '../../runtime/api-error.ts';
import { apiMaxCharacters } from '../../speech/synthesizer.ts';
import { narratableSummary } from './summary-narration.ts';

describe('narratableSummary', () => {
  it('passes a summary up to the synthesis limit, counted in code points', () => {
    const atLimit = '𝄞'.repeat(apiMaxCharacters); // 10,000 UTF-16 units, 5,000 characters
    expect(narratableSummary(atLimit)).toBe(atLimit);
    expect(narratableSummary('A short summary.')).toBe('A short summary.');
  });

  it('refuses a longer one with 400 invalid_parameter, naming its length, the limit and the ways out', () => {
    const summary = 'ab '.repeat(32_768).trim(); // what the fuzzer sent: one 98,303-character "sentence"
    let error: unknown;
    try {
      narratableSummary(summary);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).code).toBe('invalid_parameter');
    expect((error as ApiError).status).toBe(400);
    expect((error as ApiError).message).toMatch(
      /^voice_enabled: the summary is 98,303 characters .* at most 5,000; ask for a shorter length/,
    );
  });
});
