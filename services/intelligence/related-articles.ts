// Finds the articles a context is built from: other articles in the read model about the same event or
// its direct background, recent, from other sources. Shared by the enricher and the API, so a context
// cites the same kind of articles whichever of them asked.
//
// An article is cited only when it is in the same story (docs/stories.md), or names at least one of the
// same entities (a person, organisation or place) and shares one more term with it, another entity or a
// keyword (isCitable); for a posted text that names a single entity, that entity (loneEntity). Shared keywords rank candidates but never admit one alone:
// "attempt" alone once gave an article on Microsoft's anti-spyware software a Millennium Dome sale as its
// context. Same-story articles come first, then by shared entities, then shared keywords.
import type { ClickHouse } from '../runtime/clickhouse/client.ts';
import { latestVersions } from '../runtime/clickhouse/latest-versions.ts';
import { dateTimeText, inList, raw, sql } from '../runtime/clickhouse/literal.ts';
import type { RelatedArticle } from './provider.ts';

export interface RelatedQuery {
  /** Entity names and keywords, as the embedded extractor normalises them. */
  entities: readonly string[];
  keywords: readonly string[];
  /** The article the context is for: never its own context. */
  excludeArticleId?: string;
  /** Its source: context comes from other sources. */
  excludeSourceId?: string;
  /** Its story, when the clusterer has placed it: the story's other articles come first. */
  storyId?: string | null;
  /** Published in this window: for an article, the weeks before it (see relatedWindow). */
  from: Date;
  until: Date;
  limit: number;
  /**
   * Sharing the one entity of a text that names only one is enough (a posted text, /v1/analyze): such a
   * text has no second name to share, and "Sony announced a console" had no context at all while the
   * read model held Sony's news. An article (the enricher, /v1/enhance) still needs two shared terms.
   */
  loneEntity?: boolean;
}

/** How far back related coverage is looked for. */
export const relatedWindowDays = 30;

/**
 * The window before `at` (and up to `until`, later coverage included, when given), at most as long after
 * `at` as before it: an article from a feed's archive, found years after it was published, is not put in
 * context with what was written years later.
 */
export function relatedWindow(at: Date, until: Date = at): { from: Date; until: Date } {
  const span = relatedWindowDays * 86_400_000;
  return {
    from: new Date(at.getTime() - span),
    until: new Date(Math.min(until.getTime(), at.getTime() + span)),
  };
}
/** Candidates read from the enrichments before the articles themselves are looked up. */
const candidates = 40;
/** A shared entity says more about two articles being about the same story than a shared keyword. */
const entityWeight = 2;

interface CandidateRow {
  article_id: string;
  summary: string | null;
  entity_names: string[];
  keywords: string[];
  in_story: number | string;
}

interface ArticleRow {
  article_id: string;
  title: string;
  source_name: string;
  source_id: string;
  published: number;
}

export class RelatedArticles {
  constructor(private readonly clickhouse: ClickHouse) {}

  async find(query: RelatedQuery): Promise<RelatedArticle[]> {
    const entities = [...new Set(query.entities)].slice(0, 20);
    const keywords = [...new Set(query.keywords)].slice(0, 20);
    if ((entities.length === 0 && !query.storyId) || query.limit <= 0) return [];
    const since = query.from;
    const exclude = query.excludeArticleId ?? '';

    // The latest successful enrichment of each article in the story or sharing an entity, ranked: the
    // story first, then by weighted overlap.
    const story = query.storyId
      ? sql`article_id IN (SELECT article_id FROM story_articles WHERE story_id = ${query.storyId})`
      : '0';
    const enrichments = latestVersions({
      table: 'article_enrichments',
      key: 'article_id',
      columns: ['summary', 'entity_names', 'keywords'],
      where: [
        sql`status = 'succeeded' AND article_id != ${exclude} AND enriched_at >= ${dateTimeText(since)}`,
        entities.length ? sql`hasAny(entity_names, ${entities}) OR ${raw(story)}` : story,
      ],
      aggregates: { in_story: `max(${story})` },
    });
    const found = await this.clickhouse.query<CandidateRow>(sql`
SELECT article_id, summary, entity_names, keywords, in_story FROM ${enrichments}
ORDER BY in_story DESC,
  ${entityWeight} * length(arrayFilter(t -> has(${entities.length ? entities : ['']}, t), entity_names))
  + length(arrayFilter(t -> has(${keywords.length ? keywords : ['']}, t), keywords)) DESC, article_id
LIMIT ${candidates}`);
    if (found.length === 0) return [];

    const latestArticles = latestVersions({
      table: 'articles',
      key: 'article_id',
      columns: ['title', 'source_name', 'source_id', 'published_at'],
      where: [
        sql`published_at >= ${dateTimeText(since)} AND published_at <= ${dateTimeText(query.until)}`,
        sql`article_id IN ${inList(found.map((c) => c.article_id))}`,
      ],
    });
    const articles = await this.clickhouse.query<ArticleRow>(sql`
SELECT article_id, title, source_name, source_id, toUnixTimestamp(published_at) AS published
FROM ${latestArticles}`);
    const byId = new Map(articles.map((a) => [a.article_id, a]));

    const entitySet = new Set(entities);
    const keywordSet = new Set(keywords);
    return found
      .flatMap((candidate) => {
        const article = byId.get(candidate.article_id);
        if (!article || (query.excludeSourceId && article.source_id === query.excludeSourceId)) return [];
        const sharedEntities = candidate.entity_names.filter((n) => entitySet.has(n));
        const sharedKeywords = candidate.keywords.filter(
          (k) => keywordSet.has(k) && !sharedEntities.includes(k),
        );
        const inStory = Number(candidate.in_story) === 1;
        const loneEntity = query.loneEntity === true && entities.length === 1;
        if (!isCitable({ inStory, sharedEntities, sharedKeywords, loneEntity })) return [];
        const score = (inStory ? 1000 : 0) + entityWeight * sharedEntities.length + sharedKeywords.length;
        const related: RelatedArticle = {
          id: article.article_id,
          title: article.title,
          source: article.source_name,
          publishedAt: new Date(Number(article.published) * 1000),
          sharedTerms: [...sharedEntities, ...sharedKeywords],
          summary: candidate.summary,
        };
        return [{ related, score }];
      })
      .sort(
        (a, b) =>
          b.score - a.score ||
          b.related.publishedAt.getTime() - a.related.publishedAt.getTime() ||
          a.related.id.localeCompare(b.related.id),
      )
      .map((r) => r.related)
      .filter(citedOnce())
      .slice(0, query.limit);
  }
}

/**
 * The rule, checked on what was read: an article of the same story, or one that shares a named entity
 * and one more term (another entity or a keyword). One entity alone is a place or a name two unrelated
 * stories can share ("London", "Google"): a report on a London bus strike had cited a London art sale.
 */
export function isCitable(candidate: {
  inStory: boolean;
  sharedEntities: readonly string[];
  sharedKeywords: readonly string[];
  /** The query names one entity only and accepts it alone (RelatedQuery.loneEntity). */
  loneEntity?: boolean;
}): boolean {
  if (candidate.inStory) return true;
  if (candidate.loneEntity && candidate.sharedEntities.length > 0) return true;
  return (
    candidate.sharedEntities.length > 0 &&
    candidate.sharedEntities.length + candidate.sharedKeywords.length >= 2
  );
}

/**
 * One citation per headline and source: a feed that lists an article twice (two links, two ids) gave
 * the context the same "Google's toolbar sparks concern" (BBC Technology) in two of its three places.
 */
export function citedOnce(): (related: RelatedArticle) => boolean {
  const cited = new Set<string>();
  return (related) => {
    const key = `${related.source}\n${related.title.trim().toLowerCase()}`;
    if (cited.has(key)) return false;
    cited.add(key);
    return true;
  };
}

/**
 * Whether a related article is the posted text itself, or a copy of it (a repost by another feed): the
 * first sentence of its summary, which the embedded summary takes from its text, is in the posted text.
 * `/v1/analyze` of an article's own text cited that article as its "related coverage".
 */
export function isCopyOf(related: RelatedArticle, text: string): boolean {
  const first =
    related.summary
      ?.split(/(?<=[.!?])\s/)[0]
      ?.replace(/\s+/g, ' ')
      .trim() ?? '';
  return first.length >= 40 && text.replace(/\s+/g, ' ').includes(first.slice(0, 200));
}
