// Gathering: the articles a documentary may draw on, from the read models. Those of the period (by
// publication time), in the documentary's language, from the kinds of sources asked for, and mentioning
// at least one word of the topic (in the headline, the summaries or the text); the newest first, at most
// `limit`. Ranking them and folding duplicates is the stories' business (documentaries/stories.ts).
import { parseSentences } from '../intelligence/embedded/sentences.ts';
import { socialCategories, type DocumentarySource } from '../documentaries/documentary-request.ts';
import type { CandidateArticle } from '../documentaries/stories.ts';
import type { ClickHouse } from '../runtime/clickhouse/client.ts';
import { latestVersions } from '../runtime/clickhouse/latest-versions.ts';
import { inList, raw, sql } from '../runtime/clickhouse/literal.ts';

export interface GatheringRequest {
  tenantId: string;
  topic: string;
  sources: readonly string[];
  /** ISO 639-1, or a locale whose language counts (pt-BR: pt). */
  language: string;
  from: Date;
  to: Date;
  /** Most candidates read (the newest that mention the topic). */
  limit: number;
}

/**
 * The words of a topic worth looking for: its words and numbers that are not stop words, at least 3
 * characters (or 2 in capitals, such as "EU"), in their dictionary form ("semiconductors" →
 * "semiconductor", which finds the plural too, since matching is on substrings), at most 8. The stories
 * module weighs them properly; this only narrows what is read, so it errs on the side of letting
 * articles through.
 */
export function topicWords(topic: string): string[] {
  const tokens = parseSentences(topic).flatMap((s) => s.tokens);
  const kept = tokens
    .filter((t) => (t.kind === 'word' || t.kind === 'number') && !t.stopWord)
    .filter((t) => t.normal.length >= 3 || (t.text.length === 2 && t.text === t.text.toUpperCase()))
    .map((t) => (t.lemma || t.normal).toLowerCase());
  return [...new Set(kept)].slice(0, 8);
}

interface CandidateRow {
  article_id: string;
  title: string;
  summary: string;
  content: string;
  source_id: string;
  source_name: string;
  url: string;
  published: number | string;
  language: string;
  category: string;
  ai_summary: string | null;
  keywords: string[];
}

/** Which sources each kind means (documentary-request.ts says it in words). */
function sourceCondition(kinds: readonly string[], tenantId: string): string {
  const parts: string[] = [];
  const sources = latestVersions({
    table: 'sources',
    key: 'source_id',
    columns: ['category', 'created_by_tenant', 'deleted'],
  });
  if (kinds.includes('news' satisfies DocumentarySource))
    parts.push(
      sql`source_id IN (SELECT source_id FROM ${sources} WHERE deleted = 0 AND created_by_tenant IS NULL)`,
    );
  if (kinds.includes('internal' satisfies DocumentarySource)) {
    parts.push(
      sql`source_id IN (SELECT source_id FROM source_subscriptions FINAL WHERE tenant_id = ${tenantId} AND subscribed = 1)`,
      sql`source_id IN (SELECT source_id FROM ${sources} WHERE deleted = 0 AND created_by_tenant = ${tenantId})`,
    );
  }
  if (kinds.includes('social' satisfies DocumentarySource))
    parts.push(
      sql`source_id IN (SELECT source_id FROM ${sources} WHERE deleted = 0 AND category IN ${inList([...socialCategories])})`,
    );
  return parts.length === 0 ? '0' : `(${parts.join(' OR ')})`;
}

export async function gatherArticles(
  clickhouse: ClickHouse,
  request: GatheringRequest,
): Promise<CandidateArticle[]> {
  const words = topicWords(request.topic);
  if (words.length === 0) return [];
  const language = request.language.split(/[-_]/)[0]!.toLowerCase();
  const text = "lower(concat(title, ' ', summary, ' ', content))";
  const mentions = words.map((w) => sql`position(${raw(text)}, ${w}) > 0`).join(' OR ');
  return readCandidates(
    clickhouse,
    [
      sql`published_at >= toDateTime(${Math.floor(request.from.getTime() / 1000)})`,
      sql`published_at < toDateTime(${Math.ceil(request.to.getTime() / 1000)})`,
      sql`language = ${language}`,
    ],
    `(${mentions}) AND ${sourceCondition(request.sources, request.tenantId)}`,
    request.limit,
  );
}

/** Articles by id, as candidates (a documentary resumed at scripting reads its cited articles again). */
export async function readArticlesById(
  clickhouse: ClickHouse,
  ids: readonly string[],
): Promise<Map<string, CandidateArticle>> {
  if (ids.length === 0) return new Map();
  const found = await readCandidates(clickhouse, [sql`article_id IN ${inList(ids)}`], '1', ids.length);
  return new Map(found.map((a) => [a.id, a]));
}

/** Articles with their latest successful enrichment (AI summary, keywords), newest first. */
async function readCandidates(
  clickhouse: ClickHouse,
  versionConditions: string[],
  condition: string,
  limit: number,
): Promise<CandidateArticle[]> {
  const articles = latestVersions({
    table: 'articles',
    key: 'article_id',
    columns: [
      'title',
      'summary',
      'content',
      'source_id',
      'source_name',
      'url',
      'published_at',
      'language',
      'category',
    ],
    where: versionConditions,
  });
  const enrichments = latestVersions({
    table: 'article_enrichments',
    key: 'article_id',
    columns: ['summary', 'keywords'],
    where: ["status = 'succeeded'"],
  });
  // ANY LEFT JOIN: one enrichment (the latest successful one) per article, or none yet.
  const rows = await clickhouse.query<CandidateRow>(sql`
SELECT article_id, title, summary, content, source_id, source_name, url,
  toUnixTimestamp(published_at) AS published, language, category, ai_summary, keywords
FROM (SELECT * FROM ${articles} WHERE ${raw(condition)})
ANY LEFT JOIN (SELECT article_id, summary AS ai_summary, keywords FROM ${enrichments}) USING article_id
ORDER BY published DESC, article_id
LIMIT ${limit}`);
  return rows.map((r) => ({
    id: r.article_id,
    title: r.title,
    summary: r.ai_summary || r.summary,
    content: r.content,
    source: r.source_name,
    sourceId: r.source_id,
    url: r.url,
    publishedAt: new Date(Number(r.published) * 1000),
    language: r.language || null,
    category: r.category || null,
    keywords: r.keywords ?? [],
  }));
}
