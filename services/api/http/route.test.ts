import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ApiError } from '../../runtime/api-error.ts';
import {
  booleanParam,
  enumWithAliases,
  categoryParam,
  countryParam,
  languageParam,
  limitParam,
  offsetParam,
} from './params.ts';
import { validate } from './route.ts';

const query = z.object({
  limit: limitParam(100, 20),
  offset: offsetParam,
  category: categoryParam.optional(),
  language: languageParam.optional(),
  country: countryParam.optional(),
  active_only: booleanParam('').optional(),
});

function problem(input: Record<string, string>): string {
  try {
    validate(query, input, 'query');
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).code).toBe('invalid_parameter');
    expect((error as ApiError).status).toBe(400);
    return (error as ApiError).message;
  }
  throw new Error(`accepted ${JSON.stringify(input)}`);
}

describe('query validation', () => {
  it('reads the words clients use for a category, country or language as the vocabulary spells them', () => {
    expect(
      validate(
        query,
        { category: 'Sport,tech,sports', country: 'UK,us', language: 'en-US,pt_BR,de' },
        'query',
      ),
    ).toEqual({
      limit: 20,
      offset: 0,
      category: ['sports', 'technology'],
      country: ['gb', 'us'],
      language: ['en', 'pt', 'de'],
    });
  });

  it('reads whole numbers written in decimal, with spaces around', () => {
    expect(validate(query, { limit: ' 7 ', offset: '007' }, 'query')).toMatchObject({ limit: 7, offset: 7 });
    expect(validate(query, { limit: '0000000000000000005' }, 'query')).toMatchObject({ limit: 5 });
  });

  it('applies defaults and converts values', () => {
    expect(validate(query, { category: 'Technology,science', active_only: 'true' }, 'query')).toEqual({
      limit: 20,
      offset: 0,
      category: ['technology', 'science'],
      active_only: true,
    });
  });

  it.each([
    [{ limit: '0' }, /^limit: must be an integer from 1 to 100 \(got "0"\)$/],
    [{ limit: '101' }, /^limit: must be an integer from 1 to 100/],
    [{ limit: 'abc' }, /^limit: must be an integer from 1 to 100 \(got "abc"\)$/],
    [{ limit: '2.5' }, /^limit: /],
    [{ offset: '-1' }, /^offset: must be an integer of at least 0/],
    // Number() would read these as 16, 10, 5, 1 and 0: a typo must not page somewhere else.
    [{ limit: '0x10' }, /^limit: must be an integer from 1 to 100 \(got "0x10"\)$/],
    [{ limit: '1e1' }, /^limit: must be an integer from 1 to 100 \(got "1e1"\)$/],
    [{ offset: '+5' }, /^offset: must be an integer of at least 0 \(got "\+5"\)$/],
    [{ offset: '0b1' }, /^offset: must be an integer of at least 0/],
    [{ offset: '' }, /^offset: must be an integer of at least 0 \(got ""\)$/],
    // Long numbers fail on the bound they exceed, however many digits they have.
    [{ offset: '9999999999999999' }, /^offset: must be at most 1000000 \(got "9999999999999999"\)$/],
    [{ offset: '9'.repeat(400) }, /^offset: must be at most 1000000 \(got "9{40}/],
    [{ offset: '-' + '9'.repeat(400) }, /^offset: must be an integer of at least 0 \(got "-9/],
    [{ limit: '1'.repeat(20) }, /^limit: must be an integer from 1 to 100 \(got "1{20}"\)$/],
    [{ category: 'cooking' }, /^category: "cooking" is not a category/],
    [{ language: 'xx' }, /^language: "xx" is not an ISO 639-1 language code/],
    [{ country: 'zz' }, /^country: "zz" is not an ISO 3166-1 alpha-2 country code/],
    [{ language: 'en-XX-y' }, /^language: "en-xx-y" is not an ISO 639-1 language code/],
    [{ active_only: 'maybe' }, /^active_only: must be true, false, 1 or 0 \(got "maybe"\)$/],
    [
      { catgory: 'x' },
      /^catgory: unknown parameter \(accepted: limit, offset, category, language, country, active_only\)$/,
    ],
  ])('%j is refused with a message naming the parameter', (input, message) => {
    expect(problem(input)).toMatch(message);
  });
});

describe('an enumeration with aliases (the words clients guess for its values)', () => {
  const body = z.object({
    context_level: enumWithAliases(
      ['brief', 'standard', 'deep'] as const,
      { high: 'deep', low: 'brief' },
      'standard',
    ),
  });

  it('reads the values and the aliases in any case as the value, and is the fallback when absent', () => {
    expect(validate(body, { context_level: 'deep' }, 'body')).toEqual({ context_level: 'deep' });
    expect(validate(body, { context_level: ' High ' }, 'body')).toEqual({ context_level: 'deep' });
    expect(validate(body, { context_level: 'BRIEF' }, 'body')).toEqual({ context_level: 'brief' });
    expect(validate(body, {}, 'body')).toEqual({ context_level: 'standard' });
  });

  it('refuses anything else, naming the values and the aliases', () => {
    expect(() => validate(body, { context_level: 'extreme' }, 'body')).toThrow(
      'context_level: must be one of brief, standard, deep (or high, low)',
    );
    expect(() => validate(body, { context_level: 3 }, 'body')).toThrow(/^context_level: must be one of/);
  });

  it('is documented as the enumeration', () => {
    expect(z.toJSONSchema(body.shape.context_level, { io: 'input', unrepresentable: 'any' })).toMatchObject({
      type: 'string',
      enum: ['brief', 'standard', 'deep'],
    });
  });
});
