import { describe, expect, it } from 'vitest';
import type { ClickHouse } from '../../runtime/clickhouse/client.ts';
import { ArticleStore, listItem, type ListRow } from './article-store.ts';

/** Audio URLs that say what they lead to: a file by key, or an article's narration by id. */
const fakeAudio = { urlFor: (key: string) => `file:${key}`, urlForArticle: (id: string) => `article:${id}` };

const now = Date.UTC(2026, 10, 25, 12);
const row = (i: number): ListRow => ({
  article_id: `a${i}`,
  title: 't',
  summary: 's',
  source_id: 'src',
  source_name: 'Source',
  url: 'https://news.example/a',
  published_at: now / 1000 - i * 60,
  language: 'en',
  category: 'general',
  revision: 1,
  updated_at: null,
  publisher_name: '',
  publisher_url: '',
});

/**
 * A read model that holds `matching` rows for the list query in any window, and records the queries;
 * the rows of the first query numbered in `stale` read as no longer matching their latest revision.
 */
function fakeClickHouse(matchingPerWindow: number[], stale: number[] = []) {
  const lists: string[] = [];
  const clickhouse = {
    query: async (statement: string) => {
      if (statement.includes("'summary' AS kind")) return []; // the extras
      const n = matchingPerWindow[lists.length] ?? 0;
      const first = lists.length === 0;
      lists.push(statement);
      return Array.from({ length: n }, (_, i) => ({
        ...row(i),
        matches: first && stale.includes(i) ? 0 : 1,
      }));
    },
  } as unknown as ClickHouse;
  return { clickhouse, lists };
}

const lowerBound = (statement: string) =>
  Number(/published_at >= toDateTime\((\d+), 'UTC'\)/.exec(statement)?.[1] ?? NaN) * 1000;

describe('the article list, newest window first', () => {
  it('reads the newest six hours first, and stops there when they fill the page', async () => {
    const { clickhouse, lists } = fakeClickHouse([21]);
    const store = new ArticleStore(clickhouse, fakeAudio, () => now);
    const page = await store.list({}, { limit: 20, offset: 0 });
    expect(page.items).toHaveLength(20);
    expect(page.hasMore).toBe(true);
    expect(lists).toHaveLength(1);
    expect(lowerBound(lists[0]!)).toBe(now - 6 * 3_600_000);
  });

  it('drops the rows the offset skips, and reads a window again, exactly, when a row no longer matches', async () => {
    const skipped = fakeClickHouse([26]);
    const store = new ArticleStore(skipped.clickhouse, fakeAudio, () => now);
    const page = await store.list({}, { limit: 20, offset: 5 });
    expect(page.items.map((a) => a.id)).toEqual(Array.from({ length: 20 }, (_, i) => `a${i + 5}`));
    expect(skipped.lists[0]).toMatch(/LIMIT 26\)/);

    // The row that no longer matches is among those the offset skips: it must not count.
    const { clickhouse, lists } = fakeClickHouse([26, 21], [2]);
    const again = new ArticleStore(clickhouse, fakeAudio, () => now);
    const exact = await again.list({ categories: ['science'] }, { limit: 20, offset: 5 });
    expect(lists).toHaveLength(2);
    expect(lowerBound(lists[1]!)).toBe(lowerBound(lists[0]!));
    expect(lists[1]).toMatch(/WHERE matches\)[\s\S]*LIMIT 5, 21$/);
    expect(exact.items).toHaveLength(20);
  });

  it('widens a window that falls short, up to the whole archive', async () => {
    const { clickhouse, lists } = fakeClickHouse([3, 7, 12, 15, 19, 19]);
    const store = new ArticleStore(clickhouse, fakeAudio, () => now);
    const page = await store.list({ categories: ['science'] }, { limit: 20, offset: 0 });
    expect(page.items).toHaveLength(19);
    expect(page.hasMore).toBe(false);
    expect(lists.map(lowerBound).slice(0, -1)).toEqual(
      [...lists.map(lowerBound).slice(0, -1)].sort((a, b) => b - a),
    );
    expect(lists.at(-1)).not.toMatch(/published_at >=/);
  });

  it('reads the articles of a source from 90 days back first: a source is too sparse for narrow windows', async () => {
    const { clickhouse, lists } = fakeClickHouse([4, 9, 9]);
    const store = new ArticleStore(clickhouse, fakeAudio, () => now);
    const page = await store.list({ sources: ['bbc'] }, { limit: 20, offset: 0 });
    expect(page.items).toHaveLength(9);
    expect(lists.map(lowerBound)).toEqual([now - 90 * 86_400_000, now - 730 * 86_400_000, NaN]);
  });

  it('anchors the windows at a cursor, and never reaches below the date range', async () => {
    const { clickhouse, lists } = fakeClickHouse([0, 0]);
    const store = new ArticleStore(clickhouse, fakeAudio, () => now);
    const cursorTime = now / 1000 - 86_400 * 30;
    const from = new Date(now - 86_400_000 * 31);
    await store.list(
      { dateRange: { from, to: null } },
      { limit: 20, offset: 0, after: { publishedAt: cursorTime, id: 'x' } },
    );
    expect(lists).toHaveLength(2);
    expect(lowerBound(lists[0]!)).toBe((cursorTime + 1) * 1000 - 6 * 3_600_000);
    expect(lowerBound(lists[1]!)).toBe(from.getTime());
  });

  it('lets overlapping identical requests share one read, unless told not to', async () => {
    const shared = fakeClickHouse([21, 21]);
    const store = new ArticleStore(shared.clickhouse, fakeAudio, () => now);
    const [a, b] = await Promise.all([
      store.list({ categories: ['science'] }, { limit: 20, offset: 0 }),
      store.list({ categories: ['science'] }, { limit: 20, offset: 0 }),
    ]);
    expect(shared.lists).toHaveLength(1);
    expect(b).toEqual(a);
    await store.list({ categories: ['science'] }, { limit: 20, offset: 0 });
    expect(shared.lists).toHaveLength(2);

    const apart = fakeClickHouse([21, 21]);
    const own = new ArticleStore(apart.clickhouse, fakeAudio, () => now, { shareReads: false });
    await Promise.all([
      own.list({ categories: ['science'] }, { limit: 20, offset: 0 }),
      own.list({ categories: ['science'] }, { limit: 20, offset: 0 }),
    ]);
    expect(apart.lists).toHaveLength(2);
  });
});

describe('a list item', () => {
  it("names an aggregator's outlet, and none for an article its source published ('' on the list, null on articles)", () => {
    const item = (r: Partial<ListRow>) => listItem({ ...row(0), ...r }, null, 'audio', null).publisher;
    expect(item({})).toBeNull();
    expect(item({ publisher_name: null, publisher_url: null })).toBeNull();
    expect(item({ publisher_name: 'Reuters', publisher_url: 'https://www.reuters.com/' })).toEqual({
      name: 'Reuters',
      url: 'https://www.reuters.com/',
    });
    expect(item({ publisher_name: 'Reuters' })).toEqual({ name: 'Reuters', url: null });
  });
});

describe("an article's narration, for its signed audio URL", () => {
  /** A read model answering the narration read with `narrations` and the article read with `articles`. */
  function readModel(narrations: { kind: string; value: string | null }[], articles: string[]) {
    const reads: string[] = [];
    const clickhouse = {
      query: async (statement: string) => {
        reads.push(statement);
        if (statement.includes("'outcome' AS kind")) return narrations;
        return articles.map((article_id) => ({ article_id, discovered: '1700000000' }));
      },
    } as unknown as ClickHouse;
    return { store: new ArticleStore(clickhouse, fakeAudio, () => now), reads };
  }

  it('is the key of the latest successful narration, read by key alone', async () => {
    const { store, reads } = readModel(
      [
        { kind: 'audio', value: 'abc.mp3' },
        { kind: 'outcome', value: 'failed' },
      ],
      ['art_1'],
    );
    expect(await store.narration('art_1')).toEqual({ state: 'narrated', audioKey: 'abc.mp3' });
    expect(reads).toHaveLength(1);
    expect(reads[0]).toMatch(/FROM article_narrations WHERE \(article_id = 'art_1' AND status = 'succeeded'/);
  });

  it('is final without a file once the narrator answered, pending before, unknown without the article', async () => {
    expect(
      await readModel([{ kind: 'outcome', value: 'skipped' }], ['art_1']).store.narration('art_1'),
    ).toEqual({ state: 'none', status: 'skipped' });
    const pending = readModel([], ['art_1']);
    expect(await pending.store.narration('art_1')).toEqual({
      state: 'pending',
      discoveredAt: 1_700_000_000_000,
    });
    expect(pending.reads[1]).toMatch(/FROM articles WHERE article_id = 'art_1' LIMIT 1/);
    expect(await readModel([], []).store.narration('art_x')).toEqual({ state: 'unknown' });
  });
});
