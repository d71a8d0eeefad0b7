// The articles of a batch of enrichments, read from the read model in one query each for the
// articles and their narrations (the enrichment event carries neither the text nor the audio).
import type { ClickHouse } from '../runtime/clickhouse/client.ts';
import { latestVersions } from '../runtime/clickhouse/latest-versions.ts';
import { inList, sql } from '../runtime/clickhouse/literal.ts';
import type { ArticleFacts } from './alert-raiser.ts';

interface ArticleRow {
  article_id: string;
  title: string;
  url: string;
  summary: string;
  content: string;
  source_id: string;
  source_name: string;
  published: number | string;
  category: string;
  language: string;
  revision: number | string;
}

export async function readArticleFacts(
  clickhouse: ClickHouse,
  ids: readonly string[],
): Promise<Map<string, ArticleFacts>> {
  if (ids.length === 0) return new Map();
  const latestArticles = latestVersions({
    table: 'articles',
    key: 'article_id',
    columns: [
      'title',
      'url',
      'summary',
      'content',
      'source_id',
      'source_name',
      'published_at',
      'category',
      'language',
      'revision',
    ],
    where: [sql`article_id IN ${inList(ids)}`],
  });
  // Any outcome counts as narrated (a failed or skipped narration will not bring audio later); the audio
  // is the latest succeeded one's.
  const latestNarrations = latestVersions({
    table: 'article_narrations',
    key: 'article_id',
    columns: ['status'],
    where: [sql`article_id IN ${inList(ids)}`],
  });
  const latestAudio = latestVersions({
    table: 'article_narrations',
    key: 'article_id',
    columns: ['audio_url', 'audio_key'],
    where: [sql`article_id IN ${inList(ids)} AND status = 'succeeded' AND audio_url IS NOT NULL`],
  });
  const [articles, narrations, audios] = await Promise.all([
    clickhouse.query<ArticleRow>(
      sql`SELECT article_id, title, url, summary, content, source_id, source_name,
  toUnixTimestamp(published_at) AS published, category, language, revision FROM ${latestArticles}`,
    ),
    clickhouse.query<{ article_id: string }>(sql`SELECT article_id FROM ${latestNarrations}`),
    clickhouse.query<{ article_id: string; audio_url: string; audio_key: string | null }>(
      sql`SELECT article_id, audio_url, audio_key FROM ${latestAudio}`,
    ),
  ]);
  const narrated = new Set(narrations.map((n) => n.article_id));
  const audio = new Map(audios.map((n) => [n.article_id, n]));
  return new Map(
    articles.map((a) => [
      a.article_id,
      {
        articleId: a.article_id,
        title: a.title,
        url: a.url,
        summary: a.summary,
        content: a.content,
        narrated: narrated.has(a.article_id),
        audioUrl: audio.get(a.article_id)?.audio_url ?? null,
        audioKey: audio.get(a.article_id)?.audio_key ?? null,
        sourceId: a.source_id,
        sourceName: a.source_name,
        publishedAt: Number(a.published) * 1000,
        category: a.category,
        language: a.language === '' ? null : a.language,
        revision: Number(a.revision),
      },
    ]),
  );
}
