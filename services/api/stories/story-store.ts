// Reads stories from the read model and shapes them for the API: one query for the page of story ids,
// then three small ones for the page (summaries, entities, states) and the lead articles' AI summaries.
import type { ClickHouse } from '../../runtime/clickhouse/client.ts';
import { isoTime } from '../../runtime/clickhouse/read-model.ts';
import type { ArticleFilter } from '../articles/article-query.ts';
import type { ArticleStore } from '../articles/article-store.ts';
import { inWindow, listWindows, readNewestFirst } from '../articles/time-windows.ts';
import {
  encodeStoryCursor,
  storyBreakingQuery,
  storyEntitiesQuery,
  storyListQuery,
  storyStateQuery,
  storySummaryQuery,
  type StoryPage,
} from './story-query.ts';

export interface Story {
  id: string;
  headline: string;
  summary: string;
  status: 'open' | 'closed';
  breaking_at: string | null;
  article_count: number;
  first_seen: string;
  last_seen: string;
  lead_article_id: string;
  sources: { id: string; name: string }[];
  top_entities: { name: string; type: string; articles: number }[];
}

interface SummaryRow {
  story_id: string;
  article_count: number | string;
  first_seen: number | string;
  last_seen: number | string;
  first_article_id: string;
  headline: string;
  lead_summary: string;
  /** (source id, source name) pairs */
  sources: [string, string][];
}

/** Merges are followed this many steps at most (a chain longer than this is a bug, not data). */
const maxMergeHops = 20;

export class StoryStore {
  constructor(
    private readonly clickhouse: ClickHouse,
    private readonly articles: ArticleStore,
    private readonly now: () => number = Date.now,
  ) {}

  async list(
    filter: ArticleFilter,
    page: StoryPage,
  ): Promise<{ items: Story[]; hasMore: boolean; nextCursor: string | null }> {
    const now = this.now();
    // Most recently active first: read from the newest window that holds the page (time-windows.ts).
    // A story's newest matching article in the window is its newest overall, so the order is exact.
    const before = page.after ? (page.after.lastMatch + 1) * 1000 : Infinity;
    const rows = await readNewestFirst(listWindows(filter.dateRange, now, before), page.limit, (start) =>
      this.clickhouse.query<{ story_id: string; last_match: number | string }>(
        storyListQuery(inWindow(filter, start), page),
      ),
    );
    const shown = rows.slice(0, page.limit);
    const ids = shown.map((r) => r.story_id);
    const stories = await this.describe(ids);
    const hasMore = rows.length > page.limit;
    const last = shown.at(-1);
    const nextCursor =
      hasMore && last
        ? encodeStoryCursor({
            asOf: page.after?.asOf ?? Math.floor(now / 1000),
            lastMatch: Number(last.last_match),
            id: last.story_id,
          })
        : null;
    return { items: ids.flatMap((id) => stories.get(id) ?? []), hasMore, nextCursor };
  }

  /** The story, following merges to the one that holds its articles now; null when there is none. */
  async get(id: string): Promise<Story | null> {
    const current = await this.currentId(id);
    return current === null ? null : ((await this.describe([current])).get(current) ?? null);
  }

  /**
   * The id of the story that holds `id`'s articles now: itself, or the story it was merged into (and so
   * on); null past maxMergeHops. An id the read model has no state for is itself.
   */
  async currentId(id: string): Promise<string | null> {
    let current = id;
    for (let hop = 0; hop < maxMergeHops; hop += 1) {
      const [state] = await this.clickhouse.query<{ status: string; merged_into: string | null }>(
        storyStateQuery([current]),
      );
      // No state row: the story was opened before this read model's history began (a projector that
      // started at the end of the topic); its articles still say what it is.
      if (state?.status === 'merged' && state.merged_into) {
        current = state.merged_into;
        continue;
      }
      return current;
    }
    return null;
  }

  private async describe(ids: readonly string[]): Promise<Map<string, Story>> {
    if (ids.length === 0) return new Map();
    const [summaries, entities, states, breaking] = await Promise.all([
      this.clickhouse.query<SummaryRow>(storySummaryQuery(ids)),
      this.clickhouse.query<{ story_id: string; name: string; kind: string; articles: number | string }>(
        storyEntitiesQuery(ids),
      ),
      this.clickhouse.query<{ story_id: string; status: string }>(storyStateQuery(ids)),
      this.clickhouse.query<{ story_id: string; detected_at: number | string }>(storyBreakingQuery(ids)),
    ]);
    const breakingAt = new Map(breaking.map((b) => [b.story_id, isoTime(b.detected_at)]));
    const { summaries: aiSummaries } = await this.articles.extras(summaries.map((s) => s.first_article_id));
    const status = new Map(states.map((s) => [s.story_id, s.status]));
    const named = new Map<string, Story['top_entities']>();
    for (const e of entities) {
      const list = named.get(e.story_id) ?? [];
      list.push({ name: e.name, type: e.kind, articles: Number(e.articles) });
      named.set(e.story_id, list);
    }
    return new Map(
      summaries.map((s) => [
        s.story_id,
        {
          id: s.story_id,
          headline: s.headline,
          summary: aiSummaries.get(s.first_article_id) ?? s.lead_summary,
          status: status.get(s.story_id) === 'closed' ? 'closed' : 'open',
          breaking_at: breakingAt.get(s.story_id) ?? null,
          article_count: Number(s.article_count),
          first_seen: isoTime(s.first_seen),
          last_seen: isoTime(s.last_seen),
          lead_article_id: s.first_article_id,
          sources: s.sources
            .map(([id, name]) => ({ id, name }))
            .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)),
          top_entities: named.get(s.story_id) ?? [],
        },
      ]),
    );
  }
}
