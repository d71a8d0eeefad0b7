import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ApiError } from '../../runtime/api-error.ts';
import {
  booleanParam,
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
    [{ category: 'cooking' }, /^category: "cooking" is not a category/],
    [{ language: 'xx' }, /^language: "xx" is not an ISO 639-1 language code/],
    [{ country: 'uk' }, /^country: "uk" is not a lowercase ISO 3166-1 alpha-2 country code/],
    [{ active_only: 'maybe' }, /^active_only: must be true, false, 1 or 0 \(got "maybe"\)$/],
    [
      { catgory: 'x' },
      /^catgory: unknown parameter \(accepted: limit, offset, category, language, country, active_only\)$/,
    ],
  ])('%j is refused with a message naming the parameter', (input, message) => {
    expect(problem(input)).toMatch(message);
  });
});
