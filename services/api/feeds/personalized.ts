// The personalized feed (GET|POST /api/v1/feeds/personalized). Ranking, as the
// OpenAPI description states it:
//   match   = sum over topics of 3 if the topic is the article's category (or a word clients use
//             for it: economy for business), 2 if it appears in the title, 1 if it appears in the
//             summary, as a whole word or phrase (case-insensitive; a topic counts once, at its best
//             place; topics that differ only in case are one topic)
//   recency = 0.5 ^ (age in hours / 24): a day-old article weighs half a new one
//   score   = match * recency, ties broken newest first, then by id.
// Only articles published within the lookback window are ranked.
import { createHash } from 'node:crypto';
import { latestRows } from '../../runtime/clickhouse/latest-versions.ts';
import { raw, sql } from '../../runtime/clickhouse/literal.ts';
import { facet } from '../../search/article-list.ts';
import { categoryWord } from '../http/params.ts';
import { listColumns } from '../articles/article-query.ts';
import type { ListRow } from '../articles/article-store.ts';

export const rankingDescription =
  "Each topic adds 3 if it is the article's category (economy, finance: business; tech: technology; sport: " +
  'sports; climate: environment; international: world), else 2 if it appears in the title, else 1 if it ' +
  'appears in the summary, as a whole word or phrase (case-insensitive: "AI" finds "AI rules", not ' +
  '"Blair"). The sum is multiplied by 0.5^(age in hours / 24), so a ' +
  'day-old article weighs half as much as a new one. Highest score first, then newest, then id. Only ' +
  'articles of the last 30 days are ranked; articles matching no topic are left out.';

export const lookbackDays = 30;

/** The topics of a request, each once: those that differ only in case or spacing are the same topic. */
export function distinctTopics(topics: readonly string[]): string[] {
  const seen = new Set<string>();
  return topics.filter((t) => {
    const key = t.toLowerCase().replace(/\s+/g, ' ');
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * A re2 pattern finding `topic` (lower-cased) as a whole word or phrase of lower-cased text: not inside a
 * longer word ("ai" in "blair"), its words separated by any white space.
 */
export function wholeWords(topic: string): string {
  const words = topic
    .toLowerCase()
    .split(/\s+/)
    .filter(Boolean)
    .map((w) => w.replace(/[\\^$.|?*+()[\]{}]/g, '\\$&'));
  return `(?:^|[^\\pL\\pN])${words.join('\\s+')}(?:$|[^\\pL\\pN])`;
}

/**
 * Where a walk through the ranking stands: the last article it returned (its topic match, publication
 * time and id) and the moment the walk's first page was ranked at (`asOf`, seconds), which every later
 * page is ranked at too. Every score decays by the same factor as time passes, so the order is the same
 * at any moment; ranking each page at `asOf` makes the scores of a walk comparable, and lets a page
 * compute the last article's score exactly as its own rows' (the same SQL on the same numbers), so the
 * keyset comparison never trips over a rounded float.
 */
export interface RankPosition {
  asOf: number;
  match: number;
  publishedAt: number;
  id: string;
  /** Which topics the walk ranks by (topicsKey): a cursor is refused with others. */
  topics: string;
}

/** A short fingerprint of a request's topics, in any order and case, for its cursors. */
export function topicsKey(topics: readonly string[]): string {
  const words = distinctTopics(topics).map((t) => t.toLowerCase().replace(/\s+/g, ' '));
  return createHash('sha256').update(words.sort().join('\n')).digest('base64url').slice(0, 12);
}

export function encodeRankPosition(p: RankPosition): string {
  return Buffer.from(JSON.stringify(['rank', p.asOf, p.match, p.publishedAt, p.id, p.topics])).toString(
    'base64url',
  );
}

/** Null when the text is not a cursor of this feed. */
export function decodeRankPosition(text: string): RankPosition | null {
  try {
    const value: unknown = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
    if (!Array.isArray(value) || value.length !== 6 || value[0] !== 'rank') return null;
    const [, asOf, match, publishedAt, id, topics] = value as unknown[];
    const seconds = (n: unknown): n is number =>
      Number.isInteger(n) && (n as number) >= 0 && (n as number) < 2 ** 32;
    if (!seconds(asOf) || !seconds(publishedAt)) return null;
    if (!Number.isInteger(match) || (match as number) < 1 || (match as number) > 30) return null;
    if (typeof id !== 'string' || id.length === 0 || id.length > 200) return null;
    if (typeof topics !== 'string' || topics.length > 20) return null;
    return { asOf, match: match as number, publishedAt, id, topics };
  } catch {
    return null;
  }
}

/** The score of an article of topic match `match` published at `published`, ranked at `nowSeconds`. */
const scoreSql = (match: string, published: string, nowSeconds: number) =>
  `${match} * pow(0.5, greatest(0, ${nowSeconds} - ${published}) / 86400)`;

/**
 * The `limit` best-ranked articles published from `fromSeconds` on (and within the lookback), read from
 * the list read model's rows of every article (`article_list`, without the content), each its latest
 * version; after `after`'s article in the ranking when given (ranked at its `asOf`, not `now`).
 */
export function personalizedQuery(
  topics: readonly string[],
  limit: number,
  now: Date,
  fromSeconds = -Infinity,
  after?: RankPosition,
): string {
  // Both sides lower-cased: ClickHouse 18.16's `(?i)` does not fold non-ASCII letters (É, Ü).
  const perTopic = topics.map((t) => {
    const pattern = wholeWords(t);
    return sql`multiIf(category = ${categoryWord(t.toLowerCase())}, 3, match(lowerUTF8(title), ${pattern}), 2,
match(lowerUTF8(summary), ${pattern}), 1, 0)`;
  });
  const match = raw(`(${perTopic.join(' + ')})`);
  const nowSeconds = after?.asOf ?? Math.floor(now.getTime() / 1000);
  const since = Math.max(nowSeconds - lookbackDays * 86_400, fromSeconds);
  const rows = latestRows({
    table: 'article_list',
    key: ['published_at', 'article_id'],
    columns: [
      'title',
      'summary',
      'source_id',
      'source_name',
      'url',
      'language',
      'category',
      'revision',
      'updated_at',
      'publisher_name',
      'publisher_url',
    ],
    where: [sql`facet = ${facet.all}`, sql`published_at >= toDateTime(${since}, 'UTC')`],
  });
  // The order below as a keyset: after the last article's score, then its time, then its id.
  const afterLast = after
    ? sql` AND (score < ${raw(scoreSql(String(after.match), String(after.publishedAt), nowSeconds))}
OR (score = ${raw(scoreSql(String(after.match), String(after.publishedAt), nowSeconds))}
AND (published_at, article_id) < (toDateTime(${after.publishedAt}, 'UTC'), ${after.id})))`
    : '';
  return sql`SELECT ${raw(listColumns)}, ${match} AS match,
${raw(scoreSql('match', 'toUnixTimestamp(published_at)', nowSeconds))} AS score,
[${raw(perTopic.join(', '))}] AS topic_matches
FROM ${rows}
WHERE ${match} > 0${raw(afterLast)}
ORDER BY score DESC, published_at DESC, article_id DESC
LIMIT ${limit}`;
}

/** The spans read, newest first, before the whole lookback. */
export const rankingSpans = [6 * 3_600, 2 * 86_400, 7 * 86_400] as const;

/**
 * The ranked articles, read from the newest span of the lookback that settles them. An article older
 * than a span scores at most every topic's best (3 each) times its recency at the span's start; once the
 * span's `limit`-th score is at least that, nothing older can take a place, so the answer is the
 * lookback's. Otherwise the span widens, up to the whole lookback.
 */
export async function rankNewestFirst(
  read: (fromSeconds: number) => Promise<RankedRow[]>,
  topics: readonly string[],
  limit: number,
  now: Date,
): Promise<RankedRow[]> {
  const nowSeconds = Math.floor(now.getTime() / 1000);
  const best = 3 * topics.length;
  for (const span of rankingSpans) {
    const rows = await read(nowSeconds - span);
    const last = rows[limit - 1];
    if (last && Number(last.score) >= best * 0.5 ** (span / 86_400)) return rows;
  }
  return read(-Infinity);
}

export interface RankedRow extends ListRow {
  match: number | string;
  score: number;
  topic_matches: (number | string)[];
}
