// Which listed articles have a stored enrichment. Their ai_summary does not say: until the enrichment is
// stored it is the provisional summary (services/api/articles/provisional-summary.ts), never null.
import type { ClickHouse } from '../../../services/runtime/clickhouse/client.ts';

export async function withEnrichment<T extends { id: string }>(
  clickhouse: ClickHouse,
  articles: readonly T[],
): Promise<T[]> {
  if (articles.length === 0) return [];
  const ids = articles.map((a) => `'${a.id.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`).join(', ');
  const rows = await clickhouse.query<{ article_id: string }>(
    `SELECT DISTINCT article_id FROM article_enrichments WHERE article_id IN (${ids}) AND summary IS NOT NULL`,
  );
  const enriched = new Set(rows.map((r) => r.article_id));
  return articles.filter((a) => enriched.has(a.id));
}
