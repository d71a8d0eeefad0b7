import { describe, expect, it } from 'vitest';
import {
  decodeRankPosition,
  distinctTopics,
  encodeRankPosition,
  topicsKey,
  personalizedQuery,
  rankNewestFirst,
  wholeWords,
  type RankedRow,
} from './personalized.ts';

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

  it('finds a topic as a whole word or phrase, its characters taken literally', () => {
    // What ClickHouse runs (re2), read by JavaScript: its `u` regexps spell re2's \pL as \p{L}.
    const finds = (topic: string, text: string) =>
      new RegExp(wholeWords(topic).replace(/\\p([LN])/g, '\\p{$1}'), 'u').test(text.toLowerCase());
    expect(finds('AI', 'AI rules')).toBe(true);
    expect(finds('AI', 'the rise of ai.')).toBe(true);
    expect(finds('AI', 'Blair rejects')).toBe(false);
    expect(finds('AI', 'aiming high')).toBe(false);
    expect(finds('EU', 'Peugeot deal')).toBe(false);
    expect(finds('climate change', 'Climate\n change talks')).toBe(true);
    expect(finds('climate change', 'climate-change talks')).toBe(false);
    expect(finds('économie', "l'économie")).toBe(true);
    expect(finds('économie', 'économies')).toBe(false);
    expect(finds('c++', 'why c++ matters')).toBe(true);
    expect(finds('a.i', 'axi')).toBe(false);
    expect(finds('(x', 'a (x b')).toBe(true);
  });

  it('takes topics that differ only in case or spacing as one, the first spelling kept', () => {
    expect(distinctTopics(['AI', 'ai', 'Climate  change', 'climate change', 'EU'])).toEqual([
      'AI',
      'Climate  change',
      'EU',
    ]);
  });

  it('checks the category by the word clients use for it', () => {
    expect(personalizedQuery(['Economy'], 10, now)).toContain("category = 'business'");
  });

  it("pages after a cursor's article, scoring the page at the walk's start", () => {
    const position = {
      asOf: nowSeconds - 600,
      match: 2,
      publishedAt: nowSeconds - 7_200,
      id: "art_x'1",
      topics: topicsKey(['ai']),
    };
    expect(decodeRankPosition(encodeRankPosition(position))).toEqual(position);
    const query = personalizedQuery(['ai'], 10, now, -Infinity, position);
    // The last article's score by the very expression of the rows' own, at asOf, not now.
    expect(query).toContain(
      `score < 2 * pow(0.5, greatest(0, ${nowSeconds - 600} - ${nowSeconds - 7_200}) / 86400)`,
    );
    expect(query).toContain(`${nowSeconds - 600} - toUnixTimestamp(published_at)`);
    expect(query).toContain(
      `(published_at, article_id) < (toDateTime(${nowSeconds - 7_200}, 'UTC'), 'art_x\\'1')`,
    );
    expect(query).toContain(`published_at >= toDateTime(${nowSeconds - 600 - 30 * 86_400}, 'UTC')`);
    expect(personalizedQuery(['ai'], 10, now)).not.toContain('score <');
  });

  it('refuses cursors it did not issue', () => {
    for (const text of [
      'abc',
      '',
      Buffer.from('["rank",1,0,1,"a","k"]').toString('base64url'),
      Buffer.from('[1,"a"]').toString('base64url'),
      Buffer.from('["rank",1.5,1,1,"a","k"]').toString('base64url'),
    ])
      expect(decodeRankPosition(text), text).toBeNull();
  });

  it('binds a cursor to its topics in any order, case or spacing, and to no others', () => {
    expect(topicsKey(['AI', 'climate  change'])).toBe(topicsKey(['Climate change', 'ai', 'AI']));
    expect(topicsKey(['ai'])).not.toBe(topicsKey(['ai', 'economy']));
  });
});
