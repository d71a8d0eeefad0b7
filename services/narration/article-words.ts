// The words of a batch of articles, from the read model in one query (the enrichment event carries the AI
// summary and language, not the title or the text).
import type { ClickHouse } from '../runtime/clickhouse/client.ts';
import { latestVersions } from '../runtime/clickhouse/latest-versions.ts';
import { inList, sql } from '../runtime/clickhouse/literal.ts';

export interface StoredWords {
  title: string;
  summary: string;
  content: string;
  /** The feed's language; null when it declared none and detection could not tell. */
  language: string | null;
  /** Milliseconds since the epoch. */
  publishedAt: number;
  /** The revision of the article the read model shows. */
  revision: number;
}

export async function readArticleWords(
  clickhouse: ClickHouse,
  ids: readonly string[],
): Promise<Map<string, StoredWords>> {
  if (ids.length === 0) return new Map();
  const latest = latestVersions({
    table: 'articles',
    key: 'article_id',
    columns: ['title', 'summary', 'content', 'language', 'published_at', 'revision'],
    where: [sql`article_id IN ${inList(ids)}`],
  });
  const rows = await clickhouse.query<{
    article_id: string;
    title: string;
    summary: string;
    content: string;
    language: string;
    published: number | string;
    revision: number | string;
  }>(
    sql`SELECT article_id, title, summary, content, language, toUnixTimestamp(published_at) AS published, revision FROM ${latest}`,
  );
  return new Map(
    rows.map((r) => [
      r.article_id,
      {
        title: r.title,
        summary: r.summary,
        content: r.content,
        language: r.language || null,
        publishedAt: Number(r.published) * 1000,
        revision: Number(r.revision),
      },
    ]),
  );
}
