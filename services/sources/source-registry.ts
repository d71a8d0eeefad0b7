// Commands on sources. The compacted news.sources.v1 topic is the state;
// each command reads it, validates, and appends the next state of the source.
// Writing the same state again is skipped, so imports are idempotent. A feed
// URL finds the source polled there now or before its feed moved, so adding
// either address of a moved feed finds the one source.
import type { Kafka } from 'kafkajs';
import { canonicalUrl } from '../runtime/canonical-url.ts';
import type { Source } from '../runtime/events/types.generated.ts';
import type { EventProducer } from '../runtime/kafka/producer.ts';
import type { EventCodec } from '../runtime/kafka/registry.ts';
import { readTable } from '../runtime/kafka/table.ts';
import { topicNames } from '../runtime/kafka/topics.ts';
import { parseOpml } from './opml.ts';
import {
  changedSource,
  feedUrlsOf,
  movedSource,
  sourceIdFor,
  sourceInput,
  sourceState,
  type SourceInput,
} from './source.ts';

export type Change = 'added' | 'updated' | 'unchanged';

/** What move() did: moved the source, found the URL another source's, or found the source changed. */
export type MoveResult =
  { kind: 'moved'; source: Source } | { kind: 'taken'; by: string } | { kind: 'stale'; reason: string };

export class SourceNotFoundError extends Error {
  constructor(readonly sourceId: string) {
    super(`no source with id ${sourceId}`);
    this.name = 'SourceNotFoundError';
  }
}

/** Fields that make a difference to what a source is; version and times do not. */
const sameState = (a: Source, b: Source) =>
  a.name === b.name &&
  a.feed_url === b.feed_url &&
  a.site_url === b.site_url &&
  a.category === b.category &&
  a.language === b.language &&
  a.country === b.country &&
  a.active === b.active &&
  a.poll_interval_seconds === b.poll_interval_seconds;

export class SourceRegistry {
  constructor(
    private readonly deps: { kafka: Kafka; codec: EventCodec; producer: EventProducer; clock?: () => number },
  ) {}

  private now(): number {
    return (this.deps.clock ?? Date.now)();
  }

  async list(): Promise<Source[]> {
    const table = await readTable<Source>(this.deps.kafka, this.deps.codec, topicNames.sources);
    return [...table.values()].sort((a, b) => a.name.localeCompare(b.name));
  }

  async get(sourceId: string): Promise<Source> {
    const found = (await this.list()).find((s) => s.source_id === sourceId);
    if (!found) throw new SourceNotFoundError(sourceId);
    return found;
  }

  /** Adds a source, or updates the one with the same canonical feed URL. */
  async add(input: SourceInput): Promise<{ source: Source; change: Change }> {
    const [result] = await this.addMany([input]);
    return result!;
  }

  async addMany(inputs: readonly SourceInput[]): Promise<{ source: Source; change: Change }[]> {
    const current = new SourceIndex(await this.list());
    const now = this.now();
    // Validate everything first: a bad input must fail with its reasons, before anything is written.
    const valid = inputs.map((input) => sourceInput.parse(input));
    const results = valid.map((input) => {
      const previous = current.byUrl(input.feed_url);
      // A moved source stays where its feed is now: an import that still names the old address
      // must not move it back.
      const next = sourceState({ ...input, feed_url: previous?.feed_url ?? input.feed_url }, previous, now);
      const change: Change =
        previous === null ? 'added' : sameState(previous, next) ? 'unchanged' : 'updated';
      const source = change === 'unchanged' ? previous! : next;
      current.set(source);
      return { source, change };
    });
    await this.append(results.filter((r) => r.change !== 'unchanged').map((r) => r.source));
    return results;
  }

  async update(sourceId: string, change: Partial<SourceInput>): Promise<{ source: Source; change: Change }> {
    const previous = await this.get(sourceId);
    if (change.feed_url !== undefined && canonicalUrl(change.feed_url) !== previous.feed_url) {
      throw new Error('feed_url cannot change: a different feed is a different source (add it instead)');
    }
    const next = changedSource(previous, change, this.now());
    if (sameState(previous, next)) return { source: previous, change: 'unchanged' };
    await this.append([next]);
    return { source: next, change: 'updated' };
  }

  async setActive(sourceId: string, active: boolean) {
    return this.update(sourceId, { active });
  }

  /**
   * Moves a source whose feed moved for good from `from` to `to` (the poller decides when:
   * services/poller/feed-move.ts): its next version, built on the state read from the topic now, so the
   * versions stay one apart whoever wrote the one before. Nothing is written when the source is gone or
   * no longer at `from` (changed since the poll began), or when `to` already names another source:
   * two sources on one feed would poll it twice and split its subscribers, and which one should stay
   * is a person's decision, not a redirect's.
   */
  async move(sourceId: string, from: string, to: string): Promise<MoveResult> {
    const target = canonicalUrl(to);
    if (target === null) return { kind: 'stale', reason: `${JSON.stringify(to)} is not an http(s) URL` };
    const current = new SourceIndex(await this.list());
    const source = current.byId(sourceId);
    if (source === null) return { kind: 'stale', reason: 'the source is gone' };
    if (source.feed_url !== canonicalUrl(from))
      return { kind: 'stale', reason: `the source is at ${source.feed_url} now` };
    if (source.feed_url === target) return { kind: 'stale', reason: `the source is at ${target} already` };
    const holder = current.byUrl(target);
    if (holder !== null && holder.source_id !== sourceId) return { kind: 'taken', by: holder.source_id };
    const moved = movedSource(source, target, this.now());
    await this.append([moved]);
    return { kind: 'moved', source: moved };
  }

  async importOpml(text: string) {
    const parsed = parseOpml(text);
    const results = await this.addMany(parsed.sources);
    return { results, rejected: parsed.rejected };
  }

  private async append(sources: readonly Source[]): Promise<void> {
    await this.deps.producer.send(
      topicNames.sources,
      sources.map((s) => ({ key: s.source_id, value: s })),
    );
  }
}

/**
 * The sources by id and by every URL that names one (feed_url, previous_urls). A URL finds the source
 * polled there now before one that was polled there once, then the source whose id it derives.
 */
class SourceIndex {
  private readonly ids = new Map<string, Source>();
  private readonly current = new Map<string, string>();
  private readonly former = new Map<string, string>();

  constructor(sources: readonly Source[]) {
    for (const source of sources) this.set(source);
  }

  set(source: Source): void {
    this.ids.set(source.source_id, source);
    this.current.set(source.feed_url, source.source_id);
    for (const url of feedUrlsOf(source).slice(1))
      if (!this.former.has(url)) this.former.set(url, source.source_id);
  }

  byId(sourceId: string): Source | null {
    return this.ids.get(sourceId) ?? null;
  }

  byUrl(url: string): Source | null {
    const canonical = canonicalUrl(url);
    if (canonical === null) return null;
    const id = this.current.get(canonical) ?? this.former.get(canonical) ?? sourceIdFor(canonical);
    return this.byId(id);
  }
}
