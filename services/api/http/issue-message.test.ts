import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { plainIssue } from './issue-message.ts';

const said = (schema: z.ZodType, value: unknown) => {
  const issue = plainIssue(schema.safeParse(value).error!.issues[0]!);
  return `${issue.path.join('.')}: ${issue.message}`;
};

describe("zod's messages in the API's words", () => {
  it('says what type was expected and what came', () => {
    const body = z.object({ voice: z.string(), sources: z.array(z.string()), n: z.number() });
    expect(said(body, { voice: null, sources: [], n: 1 })).toBe('voice: must be a string, not null');
    expect(said(body, { voice: 'x', sources: 'a,b', n: 1 })).toBe('sources: must be an array, not string');
    expect(said(body, { voice: 'x', sources: [], n: '1' })).toBe('n: must be a number, not string');
  });

  it('says how long or how many', () => {
    const body = z.object({
      a: z.string().min(1).max(5).optional(),
      b: z.array(z.string()).max(2).optional(),
    });
    expect(said(body, { a: '' })).toBe('a: must not be empty');
    expect(said(body, { a: 'toolong' })).toBe('a: must be at most 5 characters');
    expect(said(body, { b: ['x', 'y', 'z'] })).toBe('b: must have at most 2 items');
  });

  it('names an unknown field of a strict object inside the body by its whole path', () => {
    const body = z.object({ filter: z.object({ categories: z.array(z.string()) }).strict() });
    expect(said(body, { filter: { categories: [], monitor_ids: ['m'] } })).toBe(
      'filter.monitor_ids: unknown field',
    );
  });

  it('explains a failed union by the alternative that got furthest', () => {
    const topics = z.object({ topics: z.union([z.array(z.string().min(1)), z.string()]) });
    expect(said(topics, { topics: [5] })).toBe('topics.0: must be a string, not number');
  });

  it("keeps a schema's own message", () => {
    expect(
      said(z.object({ limit: z.number({ error: 'must be an integer from 1 to 100' }) }), { limit: 'x' }),
    ).toBe('limit: must be an integer from 1 to 100');
  });
});
