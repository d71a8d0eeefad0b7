// Event -> row, one function per projected topic. Pure, so the mapping is
// pinned by unit tests; the projector only batches and inserts. `version` is
// the event's Kafka offset (see projections/migrations/0001_read_models.sql).
import type {
  Alert,
  ArticleDiscovered,
  ArticleEnriched,
  ArticleNarrated,
  Documentary,
  FeedPoll,
  Monitor,
  Source,
  SourceSubscription,
  StoryEvent,
  Webhook,
  WebhookDelivery,
} from '../runtime/events/types.generated.ts';
import { topicNames } from '../runtime/kafka/topics.ts';
import { articleFacets, facet } from '../search/article-list.ts';
import { articlePostings } from '../search/article-terms.ts';

export type Row = Record<string, string | number | null | string[] | number[]>;

/** DateTime columns take unix seconds (row-binary.ts), which is what ClickHouse keeps. */
const time = (ms: number) => Math.floor(ms / 1000);
const optionalTime = (ms: number | null) => (ms === null ? null : time(ms));
const flag = (b: boolean) => (b ? 1 : 0);

/**
 * One row per article, replaced by each later revision (the higher offset wins). The table is ordered
 * by (published_at, article_id) and replaces only rows with the same sort key, so published_at stays
 * revision 1's (first_published_at) and what a later revision says about the date goes into
 * latest_published_at: projections/migrations/0008_article_revisions.sql.
 */
export function articleRow(a: ArticleDiscovered, version: number): Row {
  const revised = a.revision > 1;
  return {
    article_id: a.article_id,
    source_id: a.source_id,
    source_name: a.source_name,
    url: a.url,
    original_url: a.original_url,
    guid: a.guid,
    title: a.title,
    summary: a.summary,
    content: a.content,
    author: a.author,
    published_at: time(a.first_published_at ?? a.published_at),
    published_at_clamped: flag(a.published_at_clamped),
    latest_published_at: time(a.published_at),
    discovered_at: time(a.first_discovered_at ?? a.discovered_at),
    language: a.language ?? '',
    category: a.category ?? 'general',
    image_url: a.image_url,
    publisher_name: a.publisher_name,
    publisher_url: a.publisher_url,
    revision: a.revision,
    changed_fields: a.changed_fields,
    updated_at: revised ? time(a.discovered_at) : null,
    version,
  };
}

/**
 * A failed enrichment must not hide an earlier successful one: the table keeps one row per article
 * (the highest version), so successes rank above every failure. Within each kind the later offset
 * still wins, and the mapping stays a pure function of the event, so a replay writes the same rows.
 */
export const succeededEnrichmentRank = 2 ** 40;

export function enrichmentRow(e: ArticleEnriched, offset: number): Row {
  return {
    article_id: e.article_id,
    status: e.status,
    failure_reason: e.failure_reason,
    summary: e.summary,
    context: e.context,
    context_article_ids: e.context_article_ids,
    insights: e.insights,
    sentiment_label: e.sentiment?.label ?? null,
    sentiment_score: e.sentiment?.score ?? null,
    entity_names: e.entities.map((x) => x.name),
    entity_types: e.entities.map((x) => x.type),
    keywords: e.keywords,
    category: e.category,
    language: e.language,
    reading_time_seconds: e.reading_time_seconds,
    provider: e.provider,
    model: e.model,
    revision: e.revision,
    enriched_at: time(e.enriched_at),
    version: e.status === 'succeeded' ? succeededEnrichmentRank + offset : offset,
  };
}

export function narrationRow(n: ArticleNarrated, version: number): Row {
  return {
    article_id: n.article_id,
    status: n.status,
    failure_reason: n.failure_reason,
    audio_url: n.audio_url,
    audio_key: n.audio_key,
    voice: n.voice,
    format: n.format,
    duration_ms: n.duration_ms,
    characters: n.characters,
    provider: n.provider,
    narrated_at: time(n.occurred_at),
    version,
  };
}

export function sourceRow(s: Source, version: number): Row {
  return {
    source_id: s.source_id,
    name: s.name,
    feed_url: s.feed_url,
    previous_urls: s.previous_urls,
    site_url: s.site_url,
    category: s.category,
    language: s.language,
    country: s.country,
    active: flag(s.active),
    poll_interval_seconds: s.poll_interval_seconds,
    created_by_tenant: s.created_by_tenant,
    created_at: optionalTime(s.created_at),
    updated_at: time(s.occurred_at),
    deleted: 0,
    version,
  };
}

export function subscriptionRow(s: SourceSubscription, version: number): Row {
  return {
    tenant_id: s.tenant_id,
    source_id: s.source_id,
    subscribed: flag(s.subscribed),
    updated_at: time(s.occurred_at),
    version,
  };
}

/** A tombstone: the source is gone; the row keeps its id and is marked deleted. */
export function deletedSourceRow(sourceId: string, version: number, at: number): Row {
  return {
    source_id: sourceId,
    name: '',
    feed_url: '',
    previous_urls: [],
    site_url: null,
    category: '',
    language: '',
    country: '',
    active: 0,
    poll_interval_seconds: 0,
    created_by_tenant: null,
    created_at: null,
    updated_at: time(at),
    deleted: 1,
    version,
  };
}

export function feedPollRow(p: FeedPoll, version: number): Row {
  return {
    poll_id: p.poll_id,
    source_id: p.source_id,
    feed_url: p.feed_url,
    final_url: p.final_url,
    redirect_statuses: p.redirect_statuses,
    status: p.status,
    http_status: p.http_status,
    items_seen: p.items_seen,
    new_items: p.new_items,
    updated_items: p.updated_items,
    skipped_items: p.skipped_items,
    skipped_reasons: p.skipped_reasons,
    warnings: p.warnings,
    error_reason: p.error_reason,
    duration_ms: p.duration_ms,
    consecutive_failures: p.consecutive_failures,
    healthy: flag(p.healthy),
    started_at: time(p.started_at),
    occurred_at: time(p.occurred_at),
    next_poll_at: optionalTime(p.next_poll_at),
    poll_interval_seconds: p.poll_interval_seconds,
    interval_reason: p.interval_reason,
    trigger: p.trigger,
    version,
  };
}

export function webhookRow(w: Webhook, version: number): Row {
  return {
    webhook_id: w.webhook_id,
    tenant_id: w.tenant_id,
    url: w.url,
    events: w.events,
    secret_ref: w.secret_ref,
    previous_secret_ref: w.previous_secret_ref,
    previous_secret_expires_at: optionalTime(w.previous_secret_expires_at),
    filter_categories: w.filter?.categories ?? [],
    filter_source_ids: w.filter?.source_ids ?? [],
    filter_languages: w.filter?.languages ?? [],
    filter_words: w.filter?.words ?? [],
    filter_monitor_ids: w.filter?.monitor_ids ?? [],
    active: flag(w.active),
    disabled_reason: w.disabled_reason,
    created_at: optionalTime(w.created_at),
    updated_at: time(w.occurred_at),
    deleted: 0,
    state_version: w.version,
    version,
  };
}

/**
 * A deletion (a tombstone: no value, so no version of the webhook's own). Its state_version is 0, not the
 * column's default (the offset), which would pass for a version of the registration.
 */
export function deletedWebhookRow(webhookId: string, version: number, at: number): Row {
  return { webhook_id: webhookId, active: 0, updated_at: time(at), deleted: 1, state_version: 0, version };
}

export function monitorRow(m: Monitor, version: number): Row {
  return {
    monitor_id: m.monitor_id,
    tenant_id: m.tenant_id,
    contact_id: m.contact_id,
    company: m.company,
    aliases: m.aliases,
    alert_webhook: m.alert_webhook,
    active: flag(m.active),
    created_at: optionalTime(m.created_at),
    updated_at: time(m.occurred_at),
    deleted: 0,
    state_version: m.version,
    version,
  };
}

/** A deletion: as a webhook's (deletedWebhookRow), its state_version is 0, no version of the monitor's own. */
export function deletedMonitorRow(monitorId: string, version: number, at: number): Row {
  return { monitor_id: monitorId, active: 0, updated_at: time(at), deleted: 1, state_version: 0, version };
}

export function alertRow(a: Alert, version: number): Row {
  return {
    alert_id: a.alert_id,
    tenant_id: a.tenant_id,
    monitor_id: a.monitor_id,
    contact_id: a.contact_id,
    company: a.company,
    article_id: a.article_id,
    article_title: a.article_title,
    article_url: a.article_url,
    news_summary: a.news_summary,
    audio_url: a.audio_url,
    matched_terms: a.matched_terms,
    occurred_at: time(a.occurred_at),
    version,
  };
}

export function deliveryRow(d: WebhookDelivery, version: number): Row {
  return {
    delivery_id: d.delivery_id,
    webhook_id: d.webhook_id,
    tenant_id: d.tenant_id,
    event_type: d.event_type,
    event_id: d.event_id,
    payload_json: d.payload_json,
    attempt: d.attempt,
    status: d.status,
    due_at: time(d.due_at),
    last_http_status: d.last_http_status,
    last_error: d.last_error,
    occurred_at: time(d.occurred_at),
    version,
  };
}

/** Which table each projected topic fills. */
/**
 * One row per lifecycle event of a documentary (projections/migrations/0006_documentaries.sql). The
 * script and cited articles go in as JSON text in the API's own field names, so the API serves them as
 * they are; their ids also as arrays, for SQL.
 */
export function documentaryRow(d: Documentary, version: number): Row {
  const requestedAt = d.requested_at ?? d.occurred_at;
  return {
    documentary_id: d.documentary_id,
    tenant_id: d.tenant_id,
    topic: d.topic,
    sources: d.sources,
    format: d.format,
    status: d.status,
    stage: d.stage,
    progress: d.progress,
    length: d.length ?? 'medium',
    language: d.language,
    voice: d.voice,
    script_writer: d.script_writer ?? null,
    date_range: d.date_range,
    period_from: optionalTime(d.period_from),
    period_to: optionalTime(d.period_to),
    max_articles: d.max_articles,
    article_ids: d.articles.map((a) => a.article_id),
    article_count: d.articles.length,
    story_count: new Set(d.articles.map((a) => a.story)).size,
    articles_json: JSON.stringify(
      d.articles.map((a) => ({
        id: a.article_id,
        title: a.title,
        source: a.source_name,
        url: a.url,
        published_at: new Date(a.published_at).toISOString().replace(/\.\d{3}Z$/, 'Z'),
        story: a.story,
      })),
    ),
    segments_json: JSON.stringify(
      d.segments.map((s) => ({
        kind: s.kind,
        title: s.title,
        sentences: s.sentences,
        article_ids: s.article_ids,
        start_ms: s.start_ms,
        end_ms: s.end_ms,
      })),
    ),
    audio_url: d.audio_url,
    audio_key: d.audio_key,
    transcript_url: d.transcript_url,
    transcript_key: d.transcript_key,
    transcript_json_key: d.transcript_json_key,
    duration_ms: d.duration_ms,
    failure_code: d.failure_code,
    failure_reason: d.failure_reason,
    requested_at: time(requestedAt),
    requested_at_ms: requestedAt,
    occurred_at: time(d.occurred_at),
    elapsed_ms: Math.max(0, d.occurred_at - requestedAt),
    version,
  };
}

/**
 * The story rows of a clusterer decision: the story of the article it assigns (or of every article a
 * merge moves), and the story's state when it changes. Joins change no story's state.
 */
export function storyRows(e: StoryEvent, version: number): TableRow[] {
  const at = time(e.occurred_at);
  const state = (status: string, mergedInto: string | null): TableRow => ({
    table: 'stories',
    row: { story_id: e.story_id, status, merged_into: mergedInto, changed_at: at, version },
  });
  const assigned = (articleId: string, storyId: string, similarity: number | null): TableRow => ({
    table: 'story_articles',
    row: { article_id: articleId, story_id: storyId, similarity, assigned_at: at, version },
  });
  switch (e.type) {
    case 'opened':
      return e.article_id ? [assigned(e.article_id, e.story_id, null), state('open', null)] : [];
    case 'joined':
      return e.article_id ? [assigned(e.article_id, e.story_id, e.similarity)] : [];
    case 'merged':
      return e.merged_into
        ? [...e.article_ids.map((id) => assigned(id, e.merged_into!, null)), state('merged', e.merged_into)]
        : [];
    case 'closed':
      return [state('closed', null)];
    case 'breaking':
      return [
        {
          table: 'breaking_stories',
          row: { story_id: e.story_id, detected_at: time(e.article_at), article_ids: e.article_ids, version },
        },
      ];
    default:
      return [];
  }
}

export interface TableRow {
  table: string;
  row: Row;
}

/**
 * An article event's rows: the article, and the article under each facet it is listed by in
 * `article_list` (services/search/article-list.ts), the shown columns and the fields' lengths in words
 * on the row of every article (facet '') only. List rows are keyed by the article's place in `articles`
 * (revision 1's publication time), so a later revision replaces them. The article's postings in the
 * search index are written by batch (posting-rows.ts), as numbers in key order.
 */
export function articleRows(
  a: ArticleDiscovered,
  version: number,
  postings = articlePostings(a),
): TableRow[] {
  const row = articleRow(a, version);
  const publishedAt = row.published_at as number;
  const language = row.language as string;
  const category = row.category as string;
  const updatedAt = row.updated_at as number | null;
  const listed = (name: string): TableRow => ({
    table: 'article_list',
    row:
      name === facet.all
        ? {
            facet: name,
            published_at: publishedAt,
            article_id: a.article_id,
            title: a.title,
            summary: a.summary,
            source_id: a.source_id,
            source_name: a.source_name,
            url: a.url,
            language,
            category,
            revision: a.revision,
            updated_at: updatedAt,
            title_length: postings.title_length,
            summary_length: postings.summary_length,
            publisher_name: a.publisher_name ?? '',
            publisher_url: a.publisher_url ?? '',
            version,
          }
        : {
            facet: name,
            published_at: publishedAt,
            article_id: a.article_id,
            source_id: a.source_id,
            source_name: a.source_name,
            language,
            category,
            revision: a.revision,
            updated_at: updatedAt,
            version,
          },
  });
  return [
    { table: 'articles', row },
    ...articleFacets({ source_id: a.source_id, source_name: a.source_name, category, language }).map(listed),
  ];
}

/**
 * The tables each projected topic fills (what a rebuild swaps in); the first is the one rowFor's row
 * goes to. An article event's list rows are articleRows', its postings posting-rows.ts's.
 */
export const projectedTables = {
  [topicNames.articlesDiscovered]: ['articles', 'article_postings', 'article_list'],
  [topicNames.articlesEnriched]: ['article_enrichments'],
  [topicNames.articlesNarrated]: ['article_narrations'],
  [topicNames.sources]: ['sources'],
  [topicNames.sourceSubscriptions]: ['source_subscriptions'],
  [topicNames.feedPolls]: ['feed_polls'],
  [topicNames.webhooks]: ['webhooks'],
  [topicNames.monitors]: ['monitors'],
  [topicNames.alerts]: ['alerts'],
  [topicNames.webhookDeliveries]: ['webhook_deliveries'],
  [topicNames.documentaries]: ['documentaries'],
  [topicNames.stories]: ['story_articles', 'stories', 'breaking_stories'],
} as const;

export type ProjectedTopic = keyof typeof projectedTables;
type OneRowTopic = Exclude<ProjectedTopic, typeof topicNames.stories>;

/** Every read-model table the projector writes. */
export const projectedTableNames = (): string[] => [...new Set(Object.values(projectedTables).flat())];

/** The rows an event writes, each with its table: none for an event no table keeps. */
export function rowsFor(
  topic: ProjectedTopic,
  key: string | null,
  value: unknown,
  version: number,
  at: number,
): TableRow[] {
  if (topic === topicNames.stories) return value ? storyRows(value as StoryEvent, version) : [];
  if (topic === topicNames.articlesDiscovered && value)
    return articleRows(value as ArticleDiscovered, version);
  const row = rowFor(topic, key, value, version, at);
  return row ? [{ table: projectedTables[topic][0], row }] : [];
}

/** The row an event writes, or null for an event the table does not keep (a tombstone of a stream). */
export function rowFor(
  topic: OneRowTopic,
  key: string | null,
  value: unknown,
  version: number,
  at: number,
): Row | null {
  switch (topic) {
    case topicNames.articlesDiscovered:
      return value ? articleRow(value as ArticleDiscovered, version) : null;
    case topicNames.articlesEnriched:
      return value ? enrichmentRow(value as ArticleEnriched, version) : null;
    case topicNames.articlesNarrated:
      return value ? narrationRow(value as ArticleNarrated, version) : null;
    case topicNames.sources:
      if (value) return sourceRow(value as Source, version);
      return key ? deletedSourceRow(key, version, at) : null;
    case topicNames.sourceSubscriptions:
      return value ? subscriptionRow(value as SourceSubscription, version) : null;
    case topicNames.feedPolls:
      return value ? feedPollRow(value as FeedPoll, version) : null;
    case topicNames.webhooks:
      if (value) return webhookRow(value as Webhook, version);
      return key ? deletedWebhookRow(key, version, at) : null;
    case topicNames.monitors:
      if (value) return monitorRow(value as Monitor, version);
      return key ? deletedMonitorRow(key, version, at) : null;
    case topicNames.alerts:
      return value ? alertRow(value as Alert, version) : null;
    case topicNames.webhookDeliveries:
      return value ? deliveryRow(value as WebhookDelivery, version) : null;
    case topicNames.documentaries:
      return value ? documentaryRow(value as Documentary, version) : null;
  }
}
