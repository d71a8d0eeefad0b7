// Documentaries as the API sees them: a request appended to news.documentaries.v1 as a `requested`
// event, and each documentary read back from the `documentaries` read model (every lifecycle event a
// row; the newest is the current state). The documentary processor appends the rest of the history.
import { randomBytes } from 'node:crypto';
import type { ClickHouse } from '../runtime/clickhouse/client.ts';
import { latestVersions } from '../runtime/clickhouse/latest-versions.ts';
import { inList, raw, sql } from '../runtime/clickhouse/literal.ts';
import { isoTime, untilVisible } from '../runtime/clickhouse/read-model.ts';
import type { Documentary } from '../runtime/events/types.generated.ts';
import type { EventProducer } from '../runtime/kafka/producer.ts';
import { topicNames } from '../runtime/kafka/topics.ts';
import type { DocumentaryLength, DocumentarySource } from './documentary-request.ts';

/** What the API has checked and resolved (the period from date_range) before asking. */
export interface NewDocumentary {
  topic: string;
  sources: DocumentarySource[];
  format: string;
  length: DocumentaryLength;
  language: string | null;
  voice: string | null;
  dateRange: string | null;
  periodFrom: Date;
  periodTo: Date;
  maxArticles: number | null;
}

/** A documentary's state as stored, before the API signs its URLs. */
export interface DocumentaryState {
  id: string;
  topic: string;
  sources: string[];
  format: string;
  /** requested, gathering, scripting, narrating, assembling, ready, failed or cancelled. */
  status: string;
  progress: number;
  length: string;
  language: string | null;
  voice: string | null;
  /** "embedded" or "openai/<model>", from narrating on. */
  scriptWriter: string | null;
  dateRange: string | null;
  periodFrom: string | null;
  periodTo: string | null;
  maxArticles: number | null;
  articles: unknown[];
  segments: unknown[];
  audioKey: string | null;
  transcriptKey: string | null;
  transcriptJsonKey: string | null;
  durationMs: number | null;
  failureCode: string | null;
  failureReason: string | null;
  createdAt: string;
  /** When it was requested, to the millisecond, as the events repeat it. */
  requestedAtMs: number;
  updatedAt: string;
}

interface DocumentaryRow {
  documentary_id: string;
  topic: string;
  sources: string[];
  format: string;
  status: string;
  stage: string | null;
  progress: number | null;
  length: string;
  language: string | null;
  voice: string | null;
  script_writer: string | null;
  date_range: string | null;
  period_from: number | string | null;
  period_to: number | string | null;
  max_articles: number | string | null;
  articles_json: string;
  segments_json: string;
  audio_key: string | null;
  transcript_key: string | null;
  transcript_json_key: string | null;
  duration_ms: number | string | null;
  failure_code: string | null;
  failure_reason: string | null;
  requested_at: number | string;
  requested_at_ms: number | string;
  occurred_at: number | string;
}

/**
 * The columns of a documentary's newest event. Nullable ones are read from that row as they are (not
 * "the latest non-null", which is what argMax would give): a ready documentary's stage is null again.
 */
const stateColumns = [
  'tenant_id',
  'topic',
  'sources',
  'format',
  'status',
  'length',
  'articles_json',
  'segments_json',
  'requested_at',
  'requested_at_ms',
  'occurred_at',
] as const;
const nullableColumns = [
  'stage',
  'progress',
  'language',
  'voice',
  'script_writer',
  'date_range',
  'period_from',
  'period_to',
  'max_articles',
  'audio_key',
  'transcript_key',
  'transcript_json_key',
  'duration_ms',
  'failure_code',
  'failure_reason',
] as const;

export interface DocumentaryRegistryDependencies {
  clickhouse: ClickHouse;
  producer: Pick<EventProducer, 'send'>;
  visibleWithinMs: number;
  clock?: () => number;
}

export const newDocumentaryId = (): string => `doc_${randomBytes(12).toString('hex')}`;

export class DocumentaryRegistry {
  private readonly clock: () => number;

  constructor(private readonly deps: DocumentaryRegistryDependencies) {
    this.clock = deps.clock ?? Date.now;
  }

  /** Appends the request and answers once the read model shows it (read-your-writes). */
  async request(tenantId: string, input: NewDocumentary): Promise<DocumentaryState> {
    const id = newDocumentaryId();
    const now = this.clock();
    const event: Documentary = {
      documentary_id: id,
      tenant_id: tenantId,
      topic: input.topic,
      sources: input.sources,
      format: input.format,
      ...nothingMade,
      status: 'requested',
      progress: 0,
      requested_at: now,
      period_from: input.periodFrom.getTime(),
      period_to: input.periodTo.getTime(),
      date_range: input.dateRange,
      language: input.language,
      voice: input.voice,
      script_writer: null,
      length: input.length,
      max_articles: input.maxArticles,
      occurred_at: now,
    };
    await this.deps.producer.send(topicNames.documentaries, [{ key: id, value: event }]);
    const state = await untilVisible(
      () => this.get(tenantId, id),
      (d) => d !== null,
      this.deps.visibleWithinMs,
    );
    return state!;
  }

  async get(tenantId: string, id: string): Promise<DocumentaryState | null> {
    const [row] = await this.query(tenantId, id, { limit: 1, offset: 0 });
    return row ? toState(row) : null;
  }

  /**
   * How many of the tenant's documentaries asked for since `sinceMs` are not finished (requested, or under
   * way), as the read model shows them.
   */
  async inProgress(tenantId: string, sinceMs: number): Promise<number> {
    const newest = latestVersions({
      table: 'documentaries',
      key: 'documentary_id',
      columns: ['status', 'version'],
      where: [sql`tenant_id = ${tenantId}`, sql`requested_at >= toDateTime(${Math.floor(sinceMs / 1000)})`],
    });
    const [row] = await this.deps.clickhouse.query<{ n: number | string }>(
      sql`SELECT count() AS n FROM ${newest} WHERE status IN ('requested', 'progressed')`,
    );
    return Number(row?.n ?? 0);
  }

  /**
   * The tenant's documentaries, newest request first (then by id, so pages are stable); with `statuses`,
   * those whose status (as DocumentaryState gives it: a stage while under way) is one of them.
   */
  async list(
    tenantId: string,
    page: { limit: number; offset: number },
    statuses?: readonly DocumentaryStatusFilter[],
  ) {
    const rows = await this.query(tenantId, null, page, statuses);
    return { items: rows.slice(0, page.limit).map(toState), hasMore: rows.length > page.limit };
  }

  /**
   * Cancels a documentary not yet finished: appends its `cancelled` event (the request, without articles
   * or script) and answers once the read model shows it. The processor sees it before its next sentence
   * or step and stops. Null: no such documentary of the tenant's; `finished`: it was ready or failed
   * already (a cancelled one is answered as it is, so asking twice is harmless).
   */
  async cancel(tenantId: string, id: string): Promise<{ state: DocumentaryState; finished: boolean } | null> {
    const current = await this.get(tenantId, id);
    if (!current) return null;
    if (current.status === 'cancelled') return { state: current, finished: false };
    if (current.status === 'ready' || current.status === 'failed') return { state: current, finished: true };
    const event = cancelledEvent(tenantId, current, this.clock());
    await this.deps.producer.send(topicNames.documentaries, [{ key: id, value: event }]);
    const state = await untilVisible(
      () => this.get(tenantId, id),
      (d) => d?.status === 'cancelled',
      this.deps.visibleWithinMs,
    );
    return { state: state!, finished: false };
  }

  private query(
    tenantId: string,
    id: string | null,
    page: { limit: number; offset: number },
    statuses?: readonly DocumentaryStatusFilter[],
  ) {
    // The newest row of each documentary, whole: argMax over a tuple keeps nulls as they are.
    const newest = latestVersions({
      table: 'documentaries',
      key: 'documentary_id',
      columns: [...stateColumns, 'version'],
      aggregates: Object.fromEntries(nullableColumns.map((c) => [c, `argMax(tuple(${c}), version).1`])),
      where: [sql`tenant_id = ${tenantId}`, ...(id === null ? [] : [sql`documentary_id = ${id}`])],
    });
    return this.deps.clickhouse.query<DocumentaryRow>(sql`
SELECT documentary_id, topic, sources, format, status, stage, progress, length, language, voice,
  script_writer, date_range, toUnixTimestamp(period_from) AS period_from, toUnixTimestamp(period_to) AS period_to,
  max_articles, articles_json, segments_json, audio_key, transcript_key, transcript_json_key,
  duration_ms, failure_code, failure_reason,
  toUnixTimestamp(requested_at) AS requested_at, requested_at_ms, toUnixTimestamp(occurred_at) AS occurred_at
FROM ${newest}${raw(statuses?.length ? ` WHERE ${statusCondition(statuses)}` : '')}
ORDER BY requested_at_ms DESC, documentary_id DESC
LIMIT ${page.limit + 1} OFFSET ${page.offset}`);
  }
}

const optionalNumber = (v: number | string | null) => (v === null ? null : Number(v));

/** A documentary's status as the API shows it: the event's, or the stage of one under way. */
export const documentaryStatuses = [
  'requested',
  'gathering',
  'scripting',
  'narrating',
  'assembling',
  'ready',
  'failed',
  'cancelled',
] as const;
export type DocumentaryStatusFilter = (typeof documentaryStatuses)[number];

/** The SQL condition on the newest row for "its status is one of these" (stages are `progressed` rows). */
function statusCondition(statuses: readonly DocumentaryStatusFilter[]): string {
  const stages = statuses.filter((s) => s !== 'requested' && !isEventStatus(s));
  const events = statuses.filter(isEventStatus);
  const parts = [
    ...(events.length ? [sql`status IN ${inList(events)}`] : []),
    ...(stages.length ? [sql`(status = 'progressed' AND stage IN ${inList(stages)})`] : []),
  ];
  return `(${parts.join(' OR ')})`;
}
const isEventStatus = (s: DocumentaryStatusFilter) =>
  s === 'requested' || s === 'ready' || s === 'failed' || s === 'cancelled';

/** The `cancelled` event of a documentary in this state: its request as it was, nothing made. */
/** The fields of a documentary event that say what was made: none of it (a request, a cancel). */
export const nothingMade = {
  progress: null,
  stage: null,
  audio_url: null,
  transcript_url: null,
  duration_ms: null,
  failure_reason: null,
  failure_code: null,
  articles: [],
  segments: [],
  audio_key: null,
  transcript_key: null,
  transcript_json_key: null,
} satisfies Partial<Documentary>;

export function cancelledEvent(tenantId: string, d: DocumentaryState, now: number): Documentary {
  const ms = (iso: string | null) => (iso === null ? null : Date.parse(iso));
  return {
    ...nothingMade,
    documentary_id: d.id,
    tenant_id: tenantId,
    topic: d.topic,
    sources: d.sources,
    format: d.format,
    status: 'cancelled',
    requested_at: d.requestedAtMs,
    period_from: ms(d.periodFrom),
    period_to: ms(d.periodTo),
    date_range: d.dateRange,
    language: d.language,
    voice: d.voice,
    // no script: a cancel carries the request, and nothing any step made
    script_writer: null,
    length: d.length,
    max_articles: d.maxArticles,
    occurred_at: now,
  };
}

function toState(r: DocumentaryRow): DocumentaryState {
  const ready = r.status === 'ready';
  return {
    id: r.documentary_id,
    topic: r.topic,
    sources: r.sources,
    format: r.format,
    status: r.status === 'progressed' ? (r.stage ?? 'progressed') : r.status,
    progress: ready ? 1 : Number(r.progress ?? 0),
    length: r.length,
    language: r.language,
    voice: r.voice,
    scriptWriter: r.script_writer,
    dateRange: r.date_range,
    periodFrom: r.period_from === null ? null : isoTime(r.period_from),
    periodTo: r.period_to === null ? null : isoTime(r.period_to),
    maxArticles: optionalNumber(r.max_articles),
    articles: JSON.parse(r.articles_json) as unknown[],
    segments: JSON.parse(r.segments_json) as unknown[],
    audioKey: r.audio_key,
    transcriptKey: r.transcript_key,
    transcriptJsonKey: r.transcript_json_key,
    durationMs: optionalNumber(r.duration_ms),
    failureCode: r.failure_code,
    failureReason: r.failure_reason,
    createdAt: isoTime(r.requested_at),
    requestedAtMs: Number(r.requested_at_ms),
    updatedAt: isoTime(r.occurred_at),
  };
}

/**
 * Which of `ids` the read model holds a `ready` row of (ready is the last state a documentary takes, so
 * such a row is its newest). The dispatcher asks this before documentary.ready goes out.
 */
export async function readyInReadModel(clickhouse: ClickHouse, ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await clickhouse.query<{ documentary_id: string }>(sql`
SELECT DISTINCT documentary_id FROM documentaries
WHERE documentary_id IN ${inList(ids)} AND status = 'ready'`);
  return new Set(rows.map((r) => r.documentary_id));
}
