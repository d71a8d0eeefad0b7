// The story queries on the real ClickHouse, where an article's revisions are rows of their own until a
// merge: a story's headline and lead are its first article's latest revision, not whichever row a read
// meets first, and the list's filters count an article as its latest revision is.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ArticleFilter } from '../../services/api/articles/article-query.ts';
import { parseSearch } from '../../services/api/articles/search-expression.ts';
import { storyListQuery, storySummaryQuery } from '../../services/api/stories/story-query.ts';
import { projectBatch } from '../../services/projector/projector.ts';
import type { ClickHouse } from '../../services/runtime/clickhouse/client.ts';
import type { ArticleDiscovered } from '../../services/runtime/events/types.generated.ts';
import { topicNames } from '../../services/runtime/kafka/topics.ts';
import { discoveredArticle } from '../support/discovered-article.ts';
import { testClickHouse } from './support/stack.ts';

const database = `story_queries_test_${randomUUID().slice(0, 8)}`;
const at = Date.UTC(2026, 5, 15, 12);

describe('story queries', () => {
  let clickhouse: ClickHouse;

  const project = (events: ArticleDiscovered[], offset: number) =>
    projectBatch(
      clickhouse,
      events.map((value, i) => ({
        topic: topicNames.articlesDiscovered,
        partition: 0,
        offset: String(offset + i),
        key: value.article_id,
        value,
        headers: {},
        timestamp: '0',
      })),
    );

  beforeAll(async () => {
    clickhouse = await testClickHouse(database, { migrated: true });
    // The rows must stay apart for the test to mean anything: no background merge may join them.
    await clickhouse.command(`SYSTEM STOP MERGES ${database}.articles`);
    const first = discoveredArticle('story_first', at, { title: 'Old headline', summary: 'Old lead.' });
    const later = discoveredArticle('story_later', at + 60_000, {
      title: 'Later article',
      category: 'sport',
    });
    // Revisions 3, 2 and 1 of the first article, each projected alone (a part of its own, so unmerged),
    // the latest first: a read that takes the first row it meets takes an earlier one.
    const revision = (n: number, title: string): ArticleDiscovered => ({
      ...first,
      title,
      // The latest moves it to another category.
      category: n === 3 ? 'business' : 'world',
      summary: `${title} lead.`,
      revision: n,
      changed_fields: n === 1 ? [] : ['title', 'summary'],
      first_published_at: n === 1 ? null : first.published_at,
      first_discovered_at: n === 1 ? null : first.discovered_at,
    });
    await project([revision(3, 'Newest headline')], 30);
    await project([revision(2, 'Middle headline')], 20);
    await project([revision(1, 'Old headline'), later], 10);
    await clickhouse.insert('story_articles', [
      { article_id: 'story_first', story_id: 'sto_1', similarity: null, assigned_at: at / 1000, version: 1 },
      { article_id: 'story_later', story_id: 'sto_1', similarity: 0.8, assigned_at: at / 1000, version: 2 },
    ]);
  }, 60_000);

  afterAll(async () => {
    await clickhouse?.command(`DROP DATABASE IF EXISTS ${database}`);
    await clickhouse?.close();
  });

  it("heads a story with its first article's latest revision, before any merge", async () => {
    const parts = await clickhouse.query<{ n: string }>(
      `SELECT count() AS n FROM articles WHERE article_id = 'story_first'`,
    );
    expect(Number(parts[0]!.n)).toBe(3); // unmerged (merges stopped): otherwise it would prove nothing
    for (let i = 0; i < 5; i++) {
      const [story] = await clickhouse.query<{
        headline: string;
        lead_summary: string;
        article_count: string;
      }>(storySummaryQuery(['sto_1']));
      expect([story!.headline, story!.lead_summary, Number(story!.article_count)]).toEqual([
        'Newest headline',
        'Newest headline lead.',
        2,
      ]);
    }
  });

  it('lists a story by what its articles say now: an earlier revision matches no filter', async () => {
    const listed = async (filter: ArticleFilter) =>
      (await clickhouse.query<{ story_id: string }>(storyListQuery(filter, { limit: 10, offset: 0 }))).map(
        (r) => r.story_id,
      );
    expect(await listed({})).toEqual(['sto_1']);
    expect(await listed({ search: parseSearch('newest') })).toEqual(['sto_1']);
    expect(await listed({ search: parseSearch('old') })).toEqual([]);
    expect(await listed({ search: parseSearch('middle') })).toEqual([]);
    expect(await listed({ categories: ['business'] })).toEqual(['sto_1']);
    expect(await listed({ categories: ['world'] })).toEqual([]);
    expect(await listed({ categories: ['sport'] })).toEqual(['sto_1']);
  });
});
