// Gathering: the articles a documentary may draw on, from the read models. Those of the period (by
// publication time), in the documentary's language, from the kinds of sources asked for, and mentioning
// at least one word of the topic (in the headline, the summaries or the text) or, for a topic that names
// a category, of that category; the newest first, at most
// `limit`. Ranking them and folding duplicates is the stories' business (documentaries/stories.ts).
import { parseSentences } from '../intelligence/embedded/sentences.ts';
import { socialCategories, type DocumentarySource } from '../documentaries/documentary-request.ts';
import { acronymStopWords, topicCategory, type CandidateArticle } from '../documentaries/stories.ts';
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

/** A form a topic word is looked for in: a substring of the lowercased text, or a whole capitalised word. */
export interface TopicForm {
  form: string;
  /** An acronym ("US", "WHO", "IT"): matched as a whole word, in capitals, in the text as written. */
  acronym: boolean;
}

/**
 * The words of a topic worth looking for: its words and numbers that are not stop words, at least 3
 * characters (or 2 in capitals, such as "EU"), at most 8, each in its dictionary form ("semiconductors"
 * → "semiconductor", which finds the plural too, since matching is on substrings) and as written where
 * the dictionary form is no part of it: "women" (woman), "data" (datum), and the British spellings,
 * whose dictionary form is the American one ("Labour" → "labor", "defence" → "defense"). A stop word
 * written as an acronym in a topic not written all in capitals ("US", "WHO", "IT") is a word of the
 * topic. The stories module weighs the articles properly; this only narrows what is read, so it errs on
 * the side of letting articles through.
 */
export function topicForms(topic: string): TopicForm[] {
  const tokens = parseSentences(topic).flatMap((s) => s.tokens);
  const acronyms = acronymStopWords(tokens);
  const forms = new Map<string, TopicForm>();
  let words = 0;
  for (const t of tokens) {
    if (words === 8) break;
    if (acronyms.has(t)) {
      if (forms.has(`A:${t.text}`)) continue;
      forms.set(`A:${t.text}`, { form: t.text, acronym: true });
      words++;
      continue;
    }
    if ((t.kind !== 'word' && t.kind !== 'number') || t.stopWord) continue;
    if (t.normal.length < 3 && !(t.text.length === 2 && t.text === t.text.toUpperCase())) continue;
    const dictionary = (t.lemma || t.normal).toLowerCase();
    const written = t.text.toLowerCase();
    // "women" is not found by "woman", nor "Labour" by "labor": then the form as written too.
    const spellings = written.includes(dictionary) ? [dictionary] : [written, dictionary];
    if (spellings.every((f) => forms.has(`w:${f}`))) continue;
    for (const form of spellings) forms.set(`w:${form}`, { form, acronym: false });
    words++;
  }
  return [...forms.values()];
}

/** The forms topicForms looks for, as text (acronyms as written). */
export const topicWords = (topic: string): string[] => topicForms(topic).map((f) => f.form);

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
  const forms = topicForms(request.topic);
  if (forms.length === 0) return [];
  const language = request.language.split(/[-_]/)[0]!.toLowerCase();
  const text = "concat(title, ' ', summary, ' ', content)";
  const mentions = forms
    .map(({ form, acronym }) =>
      acronym
        ? sql`match(${raw(text)}, ${`\\b${form}\\b`})`
        : sql`position(lowerUTF8(${raw(text)}), ${form}) > 0`,
    )
    .join(' OR ');
  // A topic that names a category ("business") is about that category's news too (stories.ts).
  const category = topicCategory(request.topic);
  const about = category === null ? mentions : sql`${raw(mentions)} OR category = ${category}`;
  return readCandidates(
    clickhouse,
    [
      sql`published_at >= toDateTime(${Math.floor(request.from.getTime() / 1000)})`,
      sql`published_at < toDateTime(${Math.ceil(request.to.getTime() / 1000)})`,
      sql`language = ${language}`,
    ],
    `(${about}) AND ${sourceCondition(request.sources, request.tenantId)}`,
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
