import { describe, expect, it } from 'vitest';
import { decodeStoryCursor, encodeStoryCursor, storyListQuery } from './story-query.ts';

describe('story cursors', () => {
  it('round-trip, and refuse what this API did not issue', () => {
    const cursor = { asOf: 1_764_000_000, lastMatch: 1_763_990_000, id: 'sty_ab"c' };
    expect(decodeStoryCursor(encodeStoryCursor(cursor))).toEqual(cursor);
    const article = Buffer.from(JSON.stringify([1_763_990_000, 'art_1'])).toString('base64url');
    expect(decodeStoryCursor(article)).toBeNull();
    expect(decodeStoryCursor('not a cursor')).toBeNull();
    const negative = Buffer.from(JSON.stringify([-1, 5, 'sty_1'])).toString('base64url');
    expect(decodeStoryCursor(negative)).toBeNull();
    const beyond = Buffer.from(JSON.stringify([1, 2 ** 32, 'sty_1'])).toString('base64url');
    expect(decodeStoryCursor(beyond)).toBeNull();
    const empty = Buffer.from(JSON.stringify([1, 5, ''])).toString('base64url');
    expect(decodeStoryCursor(empty)).toBeNull();
  });
});

describe('storyListQuery', () => {
  it('ranks a walk as of its first page and resumes after the cursor', () => {
    const first = storyListQuery({}, { limit: 20, offset: 0 });
    expect(first).not.toMatch(/discovered_at|HAVING/);
    const next = storyListQuery(
      {},
      { limit: 20, offset: 0, after: { asOf: 1_764_000_000, lastMatch: 1_763_990_000, id: "sty_'x" } },
    );
    expect(next).toContain('discovered_at <= toDateTime(1764000000)');
    expect(next).toContain(
      "HAVING last_match < 1763990000 OR (last_match = 1763990000 AND story_id < 'sty_\\'x')",
    );
  });
});
