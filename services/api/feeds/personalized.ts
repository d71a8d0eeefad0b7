// The personalized feed (GET|POST /api/v1/feeds/personalized). Ranking, as the
// OpenAPI description states it:
//   match   = sum over topics of 3 if the topic is the article's category,
//             2 if it appears in the title, 1 if it appears in the summary
//             (case-insensitive; a topic counts once, at its best place)
//   recency = 0.5 ^ (age in hours / 24): a day-old article weighs half a new one
//   score   = match * recency, ties broken newest first, then by id.
// Only articles published within the lookback window are ranked.
import { raw, sql } from '../../runtime/clickhouse/literal.ts';
import { listColumns } from '../articles/article-query.ts';
import type { ListRow } from '../articles/article-store.ts';

export const rankingDescription =
  "Each topic adds 3 if it is the article's category, else 2 if it appears in the title, else 1 if it " +
  'appears in the summary (case-insensitive). The sum is multiplied by 0.5^(age in hours / 24), so a ' +
  'day-old article weighs half as much as a new one. Highest score first, then newest, then id. Only ' +
  'articles of the last 30 days are ranked; articles matching no topic are left out.';

export const lookbackDays = 30;

export function personalizedQuery(topics: readonly string[], limit: number, now: Date): string {
  const perTopic = topics.map(
    (t) => sql`multiIf(category = ${t.toLowerCase()}, 3, positionCaseInsensitiveUTF8(title, ${t}) > 0, 2,
positionCaseInsensitiveUTF8(summary, ${t}) > 0, 1, 0)`,
  );
  const match = raw(`(${perTopic.join(' + ')})`);
  const nowSeconds = Math.floor(now.getTime() / 1000);
  const since = nowSeconds - lookbackDays * 86_400;
  return sql`SELECT ${raw(listColumns)}, ${match} AS match,
match * pow(0.5, greatest(0, ${nowSeconds} - toUnixTimestamp(published_at)) / 86400) AS score,
[${raw(perTopic.join(', '))}] AS topic_matches
FROM articles FINAL
WHERE published_at >= toDateTime(${since}, 'UTC') AND ${match} > 0
ORDER BY score DESC, published_at DESC, article_id DESC
LIMIT ${limit}`;
}

export interface RankedRow extends ListRow {
  match: number | string;
  score: number;
  topic_matches: (number | string)[];
}
