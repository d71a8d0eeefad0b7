// The articles of a batch of events that name them by id (enrichments, breaking stories), read from the
// read model in one query each for the articles and their narrations (those events carry neither the
// text nor the audio). The matcher, the dispatcher, the API's stream and the clusterer read them here.
import type { ClickHouse } from '../runtime/clickhouse/client.ts';
import { latestVersions } from '../runtime/clickhouse/latest-versions.ts';
import { inList, raw, sql } from '../runtime/clickhouse/literal.ts';
import type { ArticleFacts } from './alert-raiser.ts';
import { articlePublisher } from '../feeds/normalise/article-publisher.ts';

interface ArticleRow {
  article_id: string;
  title: string;
  url: string;
  summary: string;
  content: string;
  source_id: string;
  source_name: string;
  publisher_name: string | null;
  publisher_url: string | null;
  published: number | string;
  category: string;
  language: string;
  revision: number | string;
  discovered: number | string;
}

export interface ReadOptions {
  /** Whether to read the narrations too (default true); without, every article reads as not narrated. */
  narrations?: boolean;
  /** Read at most this many characters of the content (default all of it). */
  contentChars?: number;
}

export async function readArticleFacts(
  clickhouse: ClickHouse,
  ids: readonly string[],
  options: ReadOptions = {},
): Promise<Map<string, ArticleFacts>> {
  if (ids.length === 0) return new Map();
  const withNarrations = options.narrations ?? true;
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
      'publisher_name',
      'publisher_url',
      'published_at',
      'category',
      'language',
      'revision',
      'discovered_at',
    ],
    where: [sql`article_id IN ${inList(ids)}`],
  });
  const content = options.contentChars ? sql`substring(content, 1, ${options.contentChars})` : 'content';
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
      sql`SELECT article_id, title, url, summary, ${raw(content)} AS content, source_id, source_name,
  publisher_name, publisher_url, toUnixTimestamp(published_at) AS published, category, language, revision,
  toUnixTimestamp(discovered_at) AS discovered FROM ${latestArticles}`,
    ),
    withNarrations
      ? clickhouse.query<{ article_id: string }>(sql`SELECT article_id FROM ${latestNarrations}`)
      : [],
    withNarrations
      ? clickhouse.query<{ article_id: string; audio_url: string; audio_key: string | null }>(
          sql`SELECT article_id, audio_url, audio_key FROM ${latestAudio}`,
        )
      : [],
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
        publisher: articlePublisher(a.publisher_name, a.publisher_url),
        publishedAt: Number(a.published) * 1000,
        discoveredAt: Number(a.discovered) * 1000,
        category: a.category,
        language: a.language === '' ? null : a.language,
        revision: Number(a.revision),
      },
    ]),
  );
}
