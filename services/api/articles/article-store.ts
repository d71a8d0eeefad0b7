// Reads articles from the ClickHouse read model and shapes them as the API's
// list items and detail objects. The list is one query for the page plus one
// small lookup by id (AI summary and audio).
import type { ClickHouse } from '../../runtime/clickhouse/client.ts';
import { CachedValue } from '../../runtime/cached-value.ts';
import { SharedReads } from '../../runtime/shared-reads.ts';
import {
  collectionStatisticsQuery,
  documentCountsQuery,
  inverseDocumentFrequency,
  type CollectionStatistics,
} from './relevance.ts';
import { positiveWords } from './search-index.ts';
import { inWindow, listWindows, narrowSpans, readNewestFirst, windowSpans } from './time-windows.ts';
import { isSourceFacet } from '../../search/article-list.ts';
import { termLiteral } from '../../search/article-terms.ts';
import type { SearchExpression } from './search-expression.ts';
import {
  articleDetailQuery,
  articleExistsQuery,
  articleListQuery,
  articlesByKeyQuery,
  keyFacets,
  relevantKeysQuery,
  type ArticleKey,
  encodeCursor,
  enrichmentQuery,
  extrasQuery,
  narrationQuery,
  type ArticleFilter,
  type Page,
} from './article-query.ts';
import { isoTime } from '../../runtime/clickhouse/read-model.ts';
import { provisionalAiSummary } from './provisional-summary.ts';
import type { AudioUrls } from '../../audio/audio-urls.ts';
import { articlePublisher, type ArticlePublisher } from '../../feeds/normalise/article-publisher.ts';

export interface ListRow {
  article_id: string;
  title: string;
  summary: string;
  source_id: string;
  source_name: string;
  url: string;
  published_at: number | string;
  language: string;
  category: string;
  revision: number | string;
  updated_at: number | string | null;
  /** '' on `article_list` and null on `articles` when the source published the article itself. */
  publisher_name: string | null;
  publisher_url: string | null;
}

interface DetailRow extends ListRow {
  content: string;
  author: string | null;
  image_url: string | null;
  original_url: string;
  discovered_at: number | string;
}

interface EnrichmentRow {
  summary: string | null;
  context: string | null;
  context_article_ids: string[];
  category: string | null;
  language: string | null;
  insights: string[];
  sentiment_label: string | null;
  sentiment_score: number | null;
  entity_names: string[];
  entity_types: string[];
  keywords: string[];
  reading_time_seconds: number | null;
  provider: string;
  model: string;
  enriched_at: number | string;
}

export interface ArticleListItem {
  id: string;
  title: string;
  summary: string;
  ai_summary: string;
  audio_url: string;
  source: string;
  source_id: string;
  published_at: string;
  language: string | null;
  category: string;
  url: string;
  revision: number;
  updated_at: string | null;
  story_id: string | null;
  /** Where an aggregator's item was first published (RSS or Atom `<source>`); null otherwise. */
  publisher: ArticlePublisher | null;
}

export interface ArticleEnrichment {
  summary: string | null;
  context: string | null;
  context_article_ids: string[];
  category: string | null;
  language: string | null;
  insights: string[];
  sentiment: { label: string; score: number | null } | null;
  entities: { name: string; type: string }[];
  keywords: string[];
  reading_time_seconds: number | null;
  provider: string;
  model: string;
  enriched_at: string;
}

export interface ArticleDetail extends ArticleListItem {
  content: string;
  author: string | null;
  image_url: string | null;
  original_url: string;
  discovered_at: string;
  enrichment: ArticleEnrichment | null;
}

/**
 * Where an article's narration stands: its stored file; not yet answered by the narrator (it may still
 * come); answered without a file (skipped: no text or no voice for its language; failed: after its
 * attempts), so none will come for this text; or no such article.
 */
export type ArticleNarration =
  | { state: 'narrated'; audioKey: string }
  /** `discoveredAt`: when the article was first seen (ms since the epoch), which says how late it is. */
  | { state: 'pending'; discoveredAt: number }
  | { state: 'none'; status: string }
  | { state: 'unknown' };

export interface ArticlePage {
  items: ArticleListItem[];
  hasMore: boolean;
  nextCursor: string | null;
}

export function listItem(
  row: ListRow,
  aiSummary: string | null,
  audioUrl: string,
  storyId: string | null,
): ArticleListItem {
  return {
    id: row.article_id,
    title: row.title,
    summary: row.summary,
    // Until the enrichment is stored, the embedded summarizer's pick of the feed's summary.
    ai_summary: aiSummary ?? provisionalAiSummary(row.title, row.summary),
    audio_url: audioUrl,
    source: row.source_name,
    source_id: row.source_id,
    published_at: isoTime(row.published_at),
    language: row.language === '' ? null : row.language,
    category: row.category,
    url: row.url,
    // Rows projected before revisions existed read revision 1 (the column's default).
    revision: Number(row.revision ?? 1),
    updated_at: row.updated_at === null || row.updated_at === undefined ? null : isoTime(row.updated_at),
    story_id: storyId,
    publisher: articlePublisher(row.publisher_name || null, row.publisher_url || null),
  };
}

export class ArticleStore {
  private readonly statistics: CachedValue<CollectionStatistics>;
  private readonly reads: SharedReads<ArticlePage> | null;

  constructor(
    private readonly clickhouse: ClickHouse,
    private readonly audio: Pick<AudioUrls, 'urlFor' | 'urlForArticle'>,
    private readonly now: () => number = Date.now,
    options: { shareReads?: boolean } = {},
  ) {
    // Many clients ask for the same page at once (the newest articles, of a category): while one read
    // of it runs, the others wait for its answer instead of each reading the same rows again.
    this.reads = options.shareReads === false ? null : new SharedReads();
    // The collection's size and mean lengths move slowly; reading them costs a pass over one posting
    // per article, so a minute-old figure serves every relevance query in that minute.
    this.statistics = new CachedValue(60_000, async () => {
      const [row] = await clickhouse.query<Record<string, number | string>>(collectionStatisticsQuery);
      return {
        documents: Number(row?.documents ?? 0),
        meanLength: {
          title: Number(row?.title ?? 0) || 0,
          summary: Number(row?.summary ?? 0) || 0,
        },
      };
    });
  }

  list(filter: ArticleFilter, page: Page): Promise<ArticlePage> {
    if (!this.reads) return this.read(filter, page);
    return this.reads.run(JSON.stringify([filter, page]), () => this.read(filter, page));
  }

  private async read(filter: ArticleFilter, page: Page): Promise<ArticlePage> {
    const rows =
      page.sort === 'relevance' && filter.search
        ? await this.relevantRows({ ...filter, search: filter.search }, page)
        : await this.newestRows(filter, page);
    const hasMore = rows.length > page.limit;
    const pageRows = rows.slice(0, page.limit);
    const { summaries, audioUrl, stories } = await this.extras(pageRows.map((r) => r.article_id));
    const items = pageRows.map((r) =>
      listItem(
        r,
        summaries.get(r.article_id) ?? null,
        audioUrl(r.article_id),
        stories.get(r.article_id) ?? null,
      ),
    );
    const last = pageRows.at(-1);
    return {
      items,
      hasMore,
      // A relevance order has no keyset to resume from: it pages by offset.
      nextCursor:
        hasMore && last && page.sort !== 'relevance'
          ? encodeCursor({
              publishedAt: Number(last.published_at),
              id: last.article_id,
              ...(page.collapse === 'story'
                ? { asOf: page.after?.asOf ?? Math.floor(this.now() / 1000) }
                : {}),
            })
          : null,
    };
  }

  /**
   * One page (plus one) of rows, newest first, read from the newest window of the archive that holds it.
   * Should a row's latest revision no longer match (a revision changed what the filter looks at, and no
   * merge has dropped the earlier one yet), the window is read again the exact way.
   */
  private newestRows(filter: ArticleFilter, page: Page): Promise<ListRow[]> {
    const before = page.after ? (page.after.publishedAt + 1) * 1000 : Infinity;
    const spans = keyFacets(filter).every(isSourceFacet) ? narrowSpans : windowSpans;
    const windows = listWindows(filter.dateRange, this.now(), before, spans);
    return readNewestFirst(windows, page.limit, async (start) => {
      const windowed = inWindow(filter, start);
      const rows = await this.clickhouse.query<ListRow & { matches: number | string }>(
        articleListQuery(windowed, page),
      );
      if (rows.every((r) => Number(r.matches) === 1)) return rows.slice(page.offset);
      return this.clickhouse.query<ListRow>(articleListQuery(windowed, page, true));
    });
  }

  /** One page (plus one) of rows, most relevant first: the keys by relevance, then their rows by key. */
  private async relevantRows(filter: ArticleFilter & { search: SearchExpression }, page: Page) {
    const words = positiveWords(filter.search);
    const [statistics, counts] = await Promise.all([
      this.statistics.get(),
      this.clickhouse.query<{ key: string; documents: number | string }>(documentCountsQuery(words)),
    ]);
    // By each word's key in the index (the hash of the word), as the counts come back.
    const holding = new Map(counts.map((c) => [c.key, Number(c.documents)]));
    const idf = words.map((w) =>
      inverseDocumentFrequency(statistics.documents, holding.get(termLiteral(w)) ?? 0),
    );
    const keys = await this.clickhouse.query<ArticleKey>(
      relevantKeysQuery(filter, page, { words, idf, statistics }),
    );
    if (keys.length === 0) return [];
    const rows = await this.clickhouse.query<ListRow>(articlesByKeyQuery(keys, filter));
    const byId = new Map(rows.map((r) => [r.article_id, r]));
    return keys.map((k) => byId.get(k.article_id)).filter((r) => r !== undefined);
  }

  async get(id: string): Promise<ArticleDetail | null> {
    const [row] = await this.clickhouse.query<DetailRow>(articleDetailQuery(id));
    if (!row) return null;
    const [{ summaries, audioUrl, stories }, [enrichment]] = await Promise.all([
      this.extras([id]),
      this.clickhouse.query<EnrichmentRow>(enrichmentQuery(id)),
    ]);
    // The summary of the enrichment this answer shows: the two reads run side by side, and one that
    // landed between them would otherwise show an enrichment without its ai_summary.
    const aiSummary = enrichment?.summary ?? summaries.get(id) ?? null;
    return {
      ...listItem(row, aiSummary, audioUrl(id), stories.get(id) ?? null),
      // Many feeds carry only a description: then that is all the text there is.
      content: row.content || row.summary,
      author: row.author,
      image_url: row.image_url,
      original_url: row.original_url,
      discovered_at: isoTime(row.discovered_at),
      enrichment: enrichment ? shapeEnrichment(enrichment) : null,
    };
  }

  /**
   * Where an article's narration stands, for its signed audio URL (GET /v1/articles/{id}/audio). A
   * narrated article costs one read by key; only one without a file is looked up among the articles.
   */
  async narration(id: string): Promise<ArticleNarration> {
    const rows = await this.clickhouse.query<{ kind: string; value: string | null }>(narrationQuery(id));
    const audioKey = rows.find((r) => r.kind === 'audio')?.value;
    if (audioKey) return { state: 'narrated', audioKey };
    const status = rows.find((r) => r.kind === 'outcome')?.value;
    // An outcome without a file is final for this text (a succeeded narration without a key was written
    // before narrations had keys, and this API cannot serve it either).
    if (status) return { state: 'none', status };
    const [article] = await this.clickhouse.query<{ article_id: string; discovered: number | string }>(
      articleExistsQuery(id),
    );
    return article
      ? { state: 'pending', discoveredAt: Number(article.discovered) * 1000 }
      : { state: 'unknown' };
  }

  /**
   * AI summaries and stories of these articles, where they have them, and their (signed) audio URLs: the
   * file's when the narrator narrated the article, else the article's narration URL, which narrates it
   * when fetched (GET /v1/articles/{id}/audio), so every article has audio to play.
   */
  async extras(ids: readonly string[]) {
    const stories = new Map<string, string>();
    const audio = new Map<string, string>();
    const audioUrl = (id: string) => audio.get(id) ?? this.audio.urlForArticle(id);
    if (ids.length === 0) return { summaries: new Map<string, string>(), audioUrl, stories };
    const rows = await this.clickhouse.query<{ article_id: string; kind: string; value: string }>(
      extrasQuery(ids),
    );
    const summaries = new Map<string, string>();
    for (const r of rows) {
      if (r.kind === 'summary') summaries.set(r.article_id, r.value);
      else if (r.kind === 'story') stories.set(r.article_id, r.value);
      else audio.set(r.article_id, this.audio.urlFor(r.value));
    }
    return { summaries, audioUrl, stories };
  }
}

function shapeEnrichment(row: EnrichmentRow): ArticleEnrichment {
  return {
    summary: row.summary,
    context: row.context,
    context_article_ids: row.context_article_ids,
    insights: row.insights,
    sentiment: row.sentiment_label ? { label: row.sentiment_label, score: row.sentiment_score } : null,
    entities: row.entity_names.map((name, i) => ({ name, type: row.entity_types[i] ?? 'other' })),
    keywords: row.keywords,
    category: row.category,
    language: row.language,
    reading_time_seconds: row.reading_time_seconds,
    provider: row.provider,
    model: row.model,
    enriched_at: isoTime(row.enriched_at),
  };
}
