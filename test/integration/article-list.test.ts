// The article list (article_list, read newest window first) gives the same pages as the straightforward
// SQL over `articles FINAL`: for each filter set, by offset and by cursor, with `q`, while revisions and a
// replay have left several rows per article (before the merges) and after them. Among the revisions, two
// move an article to another category, which leaves a row under the old category's facet behind.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ArticleStore } from '../../services/api/articles/article-store.ts';
import {
  dateConditions,
  decodeCursor,
  searchCondition,
  type Cursor,
  type ArticleFilter,
} from '../../services/api/articles/article-query.ts';
import { parseSearch } from '../../services/api/articles/search-expression.ts';
import { readCorpus } from '../../services/demo/corpus.ts';
import { projectBatch } from '../../services/projector/projector.ts';
import type { ClickHouse } from '../../services/runtime/clickhouse/client.ts';
import { inList, sql } from '../../services/runtime/clickhouse/literal.ts';
import type { ArticleDiscovered } from '../../services/runtime/events/types.generated.ts';
import { topicNames } from '../../services/runtime/kafka/topics.ts';
import { discoveredArticle } from '../support/discovered-article.ts';
import { testClickHouse } from './support/stack.ts';

const run = randomUUID().slice(0, 8);
const database = `article_list_test_${run}`;
const hour = 3_600_000;
const now = Date.UTC(2026, 5, 15, 12);

const sources = [
  'BBC News',
  'The Guardian',
  'Le Monde',
  'Der Spiegel',
  'El País',
  'Ünterwegs Zeitung',
  'NHK',
];
const languages = ['en', 'en', 'fr', 'de', 'es', 'de', 'ja'];

// How long before `now` each article was published: some in each of the windows the list reads
// (6 hours, 2 days, 14 days, 90 days, 2 years) and some older, with ties on the second.
const age = (i: number): number => {
  if (i < 8) return (i + 1) * 0.5 * hour;
  if (i < 12) return 5 * hour; // four at the same second
  if (i < 30) return (i - 6) * 2 * hour;
  if (i < 55) return (i - 25) * 12 * hour;
  if (i < 85) return (i - 50) * 60 * hour;
  return (i - 80) * 400 * 24 * hour;
};

const corpus = readCorpus();
const events: ArticleDiscovered[] = corpus.map((a, i) => {
  const at = now - age(i);
  const s = i % sources.length;
  return discoveredArticle(`list_${i.toString().padStart(3, '0')}`, at, {
    source_id: `src_${s}`,
    source_name: sources[s]!,
    guid: `g${i}`,
    url: `https://list.example/${i}`,
    original_url: `https://list.example/${i}`,
    title: a.title,
    summary: a.paragraphs[0] ?? '',
    content: a.paragraphs.slice(1).join('\n\n'),
    language: languages[s]!,
    category: a.category === 'tech' ? 'technology' : a.category,
  });
});
// Revisions of every seventh article: a new title (so `q` finds it by other words) and, for two, a new
// category; revision 1's publication time stays the article's key.
const revisions: ArticleDiscovered[] = events
  .filter((_, i) => i % 7 === 3)
  .map((a, j) => ({
    ...a,
    title: `Revised: ${j % 2 ? 'markets rally' : 'election called'} (${a.title})`,
    category: j < 2 ? 'science' : a.category,
    revision: 2,
    changed_fields: ['title'],
    first_published_at: a.published_at,
    first_discovered_at: a.discovered_at,
    published_at: a.published_at + hour,
    discovered_at: a.discovered_at + hour,
  }));
const moved = revisions.slice(0, 2).map((r) => ({
  id: r.article_id,
  from: events.find((e) => e.article_id === r.article_id)!.category ?? '',
}));

describe('article list', () => {
  let clickhouse: ClickHouse;
  let store: ArticleStore;

  // What the projector writes for these events (services/projector/projector.ts).
  const project = (offsets: number) =>
    projectBatch(
      clickhouse,
      [...events, ...revisions].map((a, i) => ({
        topic: topicNames.articlesDiscovered,
        partition: 0,
        offset: String(offsets + i),
        key: a.article_id,
        value: a,
        headers: {},
        timestamp: '0',
      })),
    );

  beforeAll(async () => {
    clickhouse = await testClickHouse(database, { migrated: true });
    // Projected, then replayed: every row twice, with the same versions (offsets).
    await project(0);
    await project(0);
    store = new ArticleStore(
      clickhouse,
      { urlFor: (key) => key, urlForArticle: (id) => `article:${id}` },
      () => now,
    );
  }, 120_000);

  afterAll(async () => {
    await clickhouse?.command(`DROP DATABASE IF EXISTS ${database}`);
    await clickhouse?.close();
  });

  /** The straightforward answer: the latest revision of every article (FINAL), filtered, sorted. */
  const reference = async (filter: ArticleFilter): Promise<string[]> => {
    const where = [...dateConditions(filter)];
    if (filter.categories) where.push(sql`category IN ${inList(filter.categories)}`);
    if (filter.languages) where.push(sql`language IN ${inList(filter.languages)}`);
    if (filter.sources) {
      const names = filter.sources.map((s) => s.toLowerCase());
      where.push(sql`(source_id IN ${inList(filter.sources)} OR lowerUTF8(source_name) IN ${inList(names)})`);
    }
    if (filter.search) where.push(searchCondition(filter.search, filter.searchIn ?? ['title', 'summary']));
    const rows = await clickhouse.query<{ article_id: string }>(
      `SELECT article_id FROM articles FINAL ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
       ORDER BY published_at DESC, article_id DESC`,
    );
    return rows.map((r) => r.article_id);
  };

  const filters: Record<string, ArticleFilter> = {
    newest: {},
    category: { categories: ['business'] },
    'the category two revisions left': { categories: [moved[0]!.from, moved[1]!.from] },
    'the category they moved to': { categories: ['science'] },
    'two categories': { categories: ['sport', 'politics'] },
    language: { languages: ['de'] },
    'language + 7 days': { languages: ['en'], dateRange: { from: new Date(now - 7 * 24 * hour), to: null } },
    'source by id': { sources: ['src_2'] },
    'source by name, any case': { sources: ['ünterwegs zeitung'] },
    'source + category': { sources: ['BBC News'], categories: ['entertainment'] },
    'date range in the past': {
      dateRange: { from: new Date(now - 80 * 24 * hour), to: new Date(now - 20 * 24 * hour) },
    },
    q: { search: parseSearch('said') },
    'q, a revised title': { search: parseSearch('"election called"') },
    'q + source': { search: parseSearch('year OR people'), sources: ['src_0'] },
    'q in the content': { search: parseSearch('government'), searchIn: ['content'] },
  };

  const byOffset = async (filter: ArticleFilter, limit: number, offset: number) =>
    (await store.list(filter, { limit, offset })).items.map((a) => a.id);

  const byCursor = async (filter: ArticleFilter, limit: number) => {
    const ids: string[] = [];
    let after: Cursor | undefined;
    for (let pages = 0; pages < 100; pages++) {
      const page = await store.list(filter, { limit, offset: 0, after });
      ids.push(...page.items.map((a) => a.id));
      if (!page.nextCursor) return ids;
      after = decodeCursor(page.nextCursor) ?? undefined;
    }
    throw new Error('more than 100 pages');
  };

  /**
   * Every filter against the reference: a few hundred lists and queries, 60-70 s on two cores with the suite's
   * other file beside it, and past 120 s once in CI at a load average of 5. The timeouts below are a
   * backstop against a hang, not a measure of speed.
   */
  const sameTimeoutMs = 600_000;
  const same = async () => {
    let nonEmpty = 0;
    for (const [name, filter] of Object.entries(filters)) {
      const expected = await reference(filter);
      if (expected.length > 0) nonEmpty += 1;
      for (const [limit, offset] of [
        [5, 0],
        [5, 5],
        [20, 0],
        [7, 14],
      ] as const) {
        const page = await store.list(filter, { limit, offset });
        expect(
          page.items.map((a) => a.id),
          `${name}, limit ${limit}, offset ${offset}`,
        ).toEqual(expected.slice(offset, offset + limit));
        expect(page.hasMore, `${name}, limit ${limit}, offset ${offset}: more?`).toBe(
          expected.length > offset + limit,
        );
      }
      expect(await byCursor(filter, 6), `${name}, by cursor`).toEqual(expected);
      expect(await byOffset(filter, 200, 0), `${name}, all`).toEqual(expected);
    }
    // Comparing empty lists would prove nothing.
    expect(nonEmpty).toBe(Object.keys(filters).length);
  };

  it(
    'lists what the straightforward SQL lists while earlier revisions and a replay are unmerged',
    async () => {
      const [copies] = await clickhouse.query<{ n: string }>('SELECT count() AS n FROM article_list');
      expect(Number(copies!.n)).toBe(2 * 5 * (events.length + revisions.length));
      await same();
    },
    sameTimeoutMs,
  );

  it('shows each revised article as its latest revision, in its new category only', async () => {
    const page = await store.list({ categories: ['science'] }, { limit: 50, offset: 0 });
    expect(page.items.map((a) => a.id).sort()).toEqual(expect.arrayContaining(moved.map((m) => m.id).sort()));
    for (const item of page.items.filter((a) => moved.some((m) => m.id === a.id))) {
      expect(item.title).toMatch(/^Revised: /);
      expect(item.revision).toBe(2);
    }
  });

  it(
    'still lists the same after the merges',
    async () => {
      for (const table of ['articles', 'article_list', 'article_postings'])
        await clickhouse.command(`OPTIMIZE TABLE ${table} FINAL`);
      await same();
    },
    sameTimeoutMs,
  );
});
