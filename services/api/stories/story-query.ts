// The SQL behind the stories (GET /v1/stories, GET /v1/stories/{id}, story_id and collapse=story on
// the articles). Pure, so it is unit tested; every value goes through sql``.
import { latestRows, latestVersions } from '../../runtime/clickhouse/latest-versions.ts';
import { inList, isDateTimeSeconds, raw, sql } from '../../runtime/clickhouse/literal.ts';
import {
  contentConditions,
  dateConditions,
  defaultSearchFields,
  type ArticleFilter,
} from '../articles/article-query.ts';
import { membersOf, storyMembership } from './story-membership.ts';

export interface StoryPage {
  limit: number;
  offset: number;
  /** true: only the stories that became breaking news; false: only those that did not; absent: both. */
  breaking?: boolean;
  /** Where a walk stands: the page starts after this story, ranked as the walk's first page ranked it. */
  after?: StoryCursor;
}

/**
 * A position in a walk of the stories. A story's rank (its newest matching article) moves as articles
 * join it, so a walk ranks every story as of its first page: only articles discovered by `asOf` count.
 * A story that gains an article during the walk keeps its place; one that begins during it is left to
 * the next walk. Without that, a story not listed yet that gained an article would jump above the
 * position and never be listed.
 */
export interface StoryCursor {
  /** Unix seconds: when the walk's first page was read. */
  asOf: number;
  /** Unix seconds: the newest matching article of the previous page's last story. */
  lastMatch: number;
  id: string;
}

export function encodeStoryCursor(cursor: StoryCursor): string {
  return Buffer.from(JSON.stringify([cursor.asOf, cursor.lastMatch, cursor.id]), 'utf8').toString(
    'base64url',
  );
}

/** Null when the text is not a story cursor this API issued (an article cursor is not one). */
export function decodeStoryCursor(text: string): StoryCursor | null {
  try {
    const value: unknown = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
    if (
      Array.isArray(value) &&
      value.length === 3 &&
      isDateTimeSeconds(value[0]) &&
      isDateTimeSeconds(value[1]) &&
      typeof value[2] === 'string' &&
      value[2].length > 0 &&
      value[2].length <= 200
    ) {
      return { asOf: value[0], lastMatch: value[1], id: value[2] };
    }
  } catch {
    // not base64url JSON: fall through
  }
  return null;
}

/**
 * The stories with an article matching `filter`, most recently active first (their newest matching
 * article), then by id; one more than `limit`, so the caller knows whether more follow.
 */
export function storyListQuery(filter: ArticleFilter, page: StoryPage): string {
  const { after } = page;
  const content = contentConditions(filter);
  const where = [...content, ...dateConditions(filter)];
  if (after) where.push(sql`discovered_at <= toDateTime(${after.asOf})`);
  const whereClause = where.length ? `WHERE ${where.join(' AND ')}` : '';
  const having = after
    ? sql`HAVING last_match < ${after.lastMatch} OR (last_match = ${after.lastMatch} AND story_id < ${after.id})`
    : '';
  const candidates = `SELECT article_id, published_at FROM articles ${whereClause} LIMIT 1 BY article_id`;
  return sql`SELECT story_id, toUnixTimestamp(max(published_at)) AS last_match
FROM (${raw(content.length === 0 ? candidates : onLatestRevision(filter, candidates))})
ANY INNER JOIN ${storyMembership()} USING article_id
${raw(page.breaking === undefined ? '' : `WHERE story_id ${page.breaking ? '' : 'NOT '}IN (SELECT story_id FROM breaking_stories)`)}
GROUP BY story_id
${raw(having)}
ORDER BY last_match DESC, story_id DESC
LIMIT ${page.offset}, ${page.limit + 1}`;
}

/**
 * The candidates that still match on their latest revision. Until a merge an article's earlier revisions
 * are rows too, and the candidates' conditions meet them: an article whose old title matched `q`, or which
 * a revision moved out of the category asked for, would count for its story (as the article list checks
 * its page again: article-query.ts, pageRows). Publication time is every revision's, so dates need no
 * second look.
 */
function onLatestRevision(filter: ArticleFilter, candidates: string): string {
  const fields = filter.search ? (filter.searchIn ?? defaultSearchFields) : [];
  const latest = latestRows({
    table: 'articles',
    key: ['published_at', 'article_id'],
    columns: [
      'title',
      'summary',
      'source_id',
      'source_name',
      'language',
      'category',
      ...(fields.includes('content') ? ['content'] : []),
    ],
    where: [`(published_at, article_id) IN (SELECT published_at, article_id FROM (${candidates}))`],
  });
  return `SELECT article_id, published_at FROM ${latest.text} WHERE ${contentConditions(filter, true).join(' AND ')}`;
}

/** For each story: its size, first and last article, first headline and lead, and its sources. */
export function storySummaryQuery(storyIds: readonly string[]): string {
  return sql`SELECT story_id, count() AS article_count,
  toUnixTimestamp(min(published_at)) AS first_seen, toUnixTimestamp(max(published_at)) AS last_seen,
  argMin(article_id, published_at) AS first_article_id, argMin(title, published_at) AS headline,
  argMin(summary, published_at) AS lead_summary,
  groupUniqArray((source_id, source_name)) AS sources
FROM ${membersOf(storyIds)}
ANY INNER JOIN (
  SELECT article_id, title, summary, source_id, source_name, published_at FROM articles
  WHERE article_id IN (SELECT article_id FROM story_articles WHERE story_id IN ${inList(storyIds)})
  -- The latest revision's headline and lead: until a merge, an article's earlier revisions are rows too.
  ORDER BY version DESC
  LIMIT 1 BY article_id
) USING article_id
GROUP BY story_id`;
}

/** The five entities most articles of each story name, with how many name them. */
export function storyEntitiesQuery(storyIds: readonly string[]): string {
  const enrichments = latestVersions({
    table: 'article_enrichments',
    key: 'article_id',
    columns: ['entity_names', 'entity_types'],
    where: [
      sql`status = 'succeeded' AND article_id IN (SELECT article_id FROM story_articles WHERE story_id IN ${inList(storyIds)})`,
    ],
  });
  return sql`SELECT story_id, entity_name AS name, any(entity_type) AS kind, count() AS articles
FROM (
  SELECT story_id, entity_names, entity_types FROM ${membersOf(storyIds)}
  ANY INNER JOIN ${enrichments} USING article_id
)
ARRAY JOIN entity_names AS entity_name, entity_types AS entity_type
GROUP BY story_id, entity_name
ORDER BY story_id, articles DESC, entity_name
LIMIT 5 BY story_id`;
}

/** The state of each story (open, closed, merged and into which). */
export function storyStateQuery(storyIds: readonly string[]): string {
  return sql`SELECT story_id, status, merged_into FROM ${latestVersions({
    table: 'stories',
    key: 'story_id',
    columns: ['status', 'merged_into'],
    where: [sql`story_id IN ${inList(storyIds)}`],
  })}`;
}

/** When each of these stories became breaking news, for those that did. */
export function storyBreakingQuery(storyIds: readonly string[]): string {
  return sql`SELECT story_id, toUnixTimestamp(min(detected_at)) AS detected_at FROM breaking_stories
WHERE story_id IN ${inList(storyIds)} GROUP BY story_id`;
}

/** The story of each of these articles, where they have one. */
export function articleStoriesQuery(articleIds: readonly string[]): string {
  return sql`SELECT article_id, story_id FROM ${storyMembership([sql`article_id IN ${inList(articleIds)}`])}`;
}
