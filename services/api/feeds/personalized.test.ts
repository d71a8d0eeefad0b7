import { describe, expect, it } from 'vitest';
import { personalizedQuery, rankNewestFirst, type RankedRow } from './personalized.ts';

const now = new Date(Date.UTC(2026, 10, 25, 12));
const nowSeconds = now.getTime() / 1000;
const ranked = (...scores: number[]) => scores.map((score) => ({ score }) as RankedRow);

describe('the personalized feed', () => {
  it('stops at the newest span once nothing older can outrank its last place', async () => {
    const reads: number[] = [];
    // One topic: an article older than 6 hours scores at most 3 x 0.5^0.25 = 2.52.
    const rows = await rankNewestFirst(async (from) => (reads.push(from), ranked(2.9, 2.6)), ['ai'], 2, now);
    expect(reads).toEqual([nowSeconds - 6 * 3_600]);
    expect(rows).toHaveLength(2);
  });

  it('widens while an older article could still take a place, up to the whole lookback', async () => {
    const reads: number[] = [];
    // 0.5 is below what an article older than 6 hours (2.52) or 2 days (0.75) can score, not 7 days (0.02).
    await rankNewestFirst(async (from) => (reads.push(from), ranked(2.9, 0.5)), ['ai'], 2, now);
    expect(reads).toEqual([nowSeconds - 6 * 3_600, nowSeconds - 2 * 86_400, nowSeconds - 7 * 86_400]);
    const all: number[] = [];
    await rankNewestFirst(async (from) => (all.push(from), ranked(2.9, 0.01)), ['ai'], 2, now);
    expect(all.at(-1)).toBe(-Infinity);
    expect(all).toHaveLength(4);
    // A span that has fewer articles than the page widens too.
    const short: number[] = [];
    await rankNewestFirst(async (from) => (short.push(from), ranked(3)), ['ai'], 2, now);
    expect(short).toHaveLength(4);
  });

  it('reads the latest revision of each article from the list, within the lookback and the span', () => {
    const query = personalizedQuery(['ai'], 10, now, nowSeconds - 3_600);
    expect(query).toContain("FROM article_list WHERE (facet = '')");
    expect(query).toContain(`published_at >= toDateTime(${nowSeconds - 3_600}, 'UTC')`);
    expect(query).toContain('LIMIT 1 BY published_at, article_id');
    expect(personalizedQuery(['ai'], 10, now)).toContain(
      `published_at >= toDateTime(${nowSeconds - 30 * 86_400}, 'UTC')`,
    );
  });
});
