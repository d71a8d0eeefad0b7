// The articles of a batch of enrichments, read from the read model in one query each for the
// articles and their narrations (the enrichment event carries neither the text nor the audio).
import type { ClickHouse } from '../runtime/clickhouse/client.ts';
import { inList, sql } from '../runtime/clickhouse/literal.ts';
import type { ArticleFacts } from './alert-raiser.ts';

interface ArticleRow {
  article_id: string;
  a_title: string;
  a_url: string;
  a_summary: string;
  a_content: string;
  a_source_id: string;
  a_source_name: string;
  a_published: number | string;
  a_category: string;
  a_language: string;
}

export async function readArticleFacts(
  clickhouse: ClickHouse,
  ids: readonly string[],
): Promise<Map<string, ArticleFacts>> {
  if (ids.length === 0) return new Map();
  const [articles, narrations] = await Promise.all([
    clickhouse.query<ArticleRow>(
      sql`SELECT article_id, argMax(title, version) AS a_title, argMax(url, version) AS a_url,
  argMax(summary, version) AS a_summary, argMax(content, version) AS a_content,
  argMax(source_id, version) AS a_source_id, argMax(source_name, version) AS a_source_name,
  toUnixTimestamp(argMax(published_at, version)) AS a_published, argMax(category, version) AS a_category,
  argMax(language, version) AS a_language
FROM articles WHERE article_id IN ${inList(ids)} GROUP BY article_id`,
    ),
    clickhouse.query<{ article_id: string; n_audio: string }>(
      sql`SELECT article_id, argMax(audio_url, version) AS n_audio FROM article_narrations
WHERE article_id IN ${inList(ids)} AND status = 'succeeded' AND audio_url IS NOT NULL GROUP BY article_id`,
    ),
  ]);
  const audio = new Map(narrations.map((n) => [n.article_id, n.n_audio]));
  return new Map(
    articles.map((a) => [
      a.article_id,
      {
        articleId: a.article_id,
        title: a.a_title,
        url: a.a_url,
        summary: a.a_summary,
        content: a.a_content,
        audioUrl: audio.get(a.article_id) ?? null,
        sourceId: a.a_source_id,
        sourceName: a.a_source_name,
        publishedAt: Number(a.a_published) * 1000,
        category: a.a_category,
        language: a.a_language === '' ? null : a.a_language,
      },
    ]),
  );
}
