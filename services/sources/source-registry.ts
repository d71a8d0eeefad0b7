// Commands on sources. The compacted news.sources.v1 topic is the state;
// each command reads it, validates, and appends the next state of the source.
// Writing the same state again is skipped, so imports are idempotent.
import type { Kafka } from 'kafkajs';
import type { Source } from '../runtime/events/types.generated.ts';
import type { EventProducer } from '../runtime/kafka/producer.ts';
import type { EventCodec } from '../runtime/kafka/registry.ts';
import { readTable } from '../runtime/kafka/table.ts';
import { topicNames } from '../runtime/kafka/topics.ts';
import { parseOpml } from './opml.ts';
import { changedSource, sourceIdFor, sourceInput, sourceState, type SourceInput } from './source.ts';

export type Change = 'added' | 'updated' | 'unchanged';

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
    const current = new Map((await this.list()).map((s) => [s.source_id, s]));
    const now = this.now();
    // Validate everything first: a bad input must fail with its reasons, before anything is written.
    const valid = inputs.map((input) => sourceInput.parse(input));
    const results = valid.map((input) => {
      const previous = current.get(sourceIdFor(input.feed_url)) ?? null;
      const next = sourceState(input, previous, now);
      const change: Change =
        previous === null ? 'added' : sameState(previous, next) ? 'unchanged' : 'updated';
      const source = change === 'unchanged' ? previous! : next;
      current.set(source.source_id, source);
      return { source, change };
    });
    await this.append(results.filter((r) => r.change !== 'unchanged').map((r) => r.source));
    return results;
  }

  async update(sourceId: string, change: Partial<SourceInput>): Promise<{ source: Source; change: Change }> {
    const previous = await this.get(sourceId);
    if (change.feed_url !== undefined && sourceIdFor(change.feed_url) !== sourceId) {
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
