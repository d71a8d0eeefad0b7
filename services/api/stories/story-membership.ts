// Which story each article is in. An article's story is the newest row of story_articles for it: a
// merge writes the moved articles again under the surviving story, with a higher version
// (projections/migrations/0009_stories.sql).
import { latestVersions } from '../../runtime/clickhouse/latest-versions.ts';
import { inList, raw, sql, type RawSql } from '../../runtime/clickhouse/literal.ts';

/** (article_id, story_id) for every article with a story, narrowed by `where` on story_articles. */
export function storyMembership(where: readonly string[] = []): RawSql {
  return latestVersions({ table: 'story_articles', key: 'article_id', columns: ['story_id'], where });
}

/** The articles now in these stories (their rows may be under an older story id until a merge moved them). */
export function membersOf(storyIds: readonly string[]): RawSql {
  return raw(
    sql`(SELECT article_id, story_id FROM ${storyMembership([
      sql`article_id IN (SELECT article_id FROM story_articles WHERE story_id IN ${inList(storyIds)})`,
    ])} WHERE story_id IN ${inList(storyIds)})`,
  );
}
