// What the clusterer reads of an article besides its enrichment: the headline, the lead, the source
// and the date, from the articles read model (the enrichment event carries none of them).
import type { ClickHouse } from '../runtime/clickhouse/client.ts';
import { latestVersions } from '../runtime/clickhouse/latest-versions.ts';
import { inList, sql } from '../runtime/clickhouse/literal.ts';

export interface ArticleFacts {
  articleId: string;
  sourceId: string;
  title: string;
  summary: string;
  content: string;
  language: string;
  category: string;
  /** ms since the epoch */
  publishedAt: number;
  discoveredAt: number;
  revision: number;
}

interface Row {
  article_id: string;
  source_id: string;
  title: string;
  summary: string;
  content: string;
  language: string;
  category: string;
  published: number | string;
  discovered: number | string;
  revision: number | string;
}

export async function readArticleFacts(
  clickhouse: ClickHouse,
  ids: readonly string[],
): Promise<Map<string, ArticleFacts>> {
  if (ids.length === 0) return new Map();
  const latest = latestVersions({
    table: 'articles',
    key: 'article_id',
    columns: [
      'source_id',
      'title',
      'summary',
      'content',
      'language',
      'category',
      'published_at',
      'discovered_at',
      'revision',
    ],
    where: [sql`article_id IN ${inList(ids)}`],
  });
  const rows = await clickhouse.query<Row>(sql`
SELECT article_id, source_id, title, summary, substring(content, 1, 2000) AS content, language, category,
  toUnixTimestamp(published_at) AS published, toUnixTimestamp(discovered_at) AS discovered, revision
FROM ${latest}`);
  return new Map(
    rows.map((r) => [
      r.article_id,
      {
        articleId: r.article_id,
        sourceId: r.source_id,
        title: r.title,
        summary: r.summary,
        content: r.content,
        language: r.language,
        category: r.category,
        publishedAt: Number(r.published) * 1000,
        discoveredAt: Number(r.discovered) * 1000,
        revision: Number(r.revision),
      },
    ]),
  );
}
