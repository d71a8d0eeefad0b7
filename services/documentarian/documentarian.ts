// The documentary processor's batch handler. Events of one documentary arrive in order (keyed by its
// id); the processor acts only on a documentary's newest event, since every step it takes appends one:
// - events it appended itself in this process are skipped as they come back (it has gone past them);
// - after a restart it cannot remember, so it asks the read model, which keeps every event of every
//   documentary (its `version` is the offset): an event older than the newest there is stale. It waits
//   a moment for the projector to show the event itself first, so "nothing newer" means something.
// A ready, failed or cancelled documentary is finished; any other newest event is resumed at its step
// (make-documentary.ts), so a crash costs at most the step it interrupted, and no sentence twice. One
// cancelled while it is being made stops before its next sentence or step.
import { nothingMade } from '../documentaries/documentary-registry.ts';
import { sql } from '../runtime/clickhouse/literal.ts';
import type { Documentary } from '../runtime/events/types.generated.ts';
import type { BatchHandler } from '../runtime/kafka/consumer.ts';
import { DependencyUnavailableError } from '../runtime/kafka/errors.ts';
import type { EventProducer } from '../runtime/kafka/producer.ts';
import { topicNames } from '../runtime/kafka/topics.ts';
import { setTimeout as sleep } from 'node:timers/promises';
import { InvalidSpeechRequest } from '../speech/synthesis.ts';
import { SpeechRejectedError } from '../speech/provider.ts';
import {
  DocumentaryCancelled,
  makeDocumentary,
  stepOf,
  type MakeDocumentaryDependencies,
} from './make-documentary.ts';

export interface DocumentarianOptions extends Omit<
  MakeDocumentaryDependencies,
  'append' | 'heartbeat' | 'cancelled'
> {
  producer: Pick<EventProducer, 'send'>;
  readModelWaitMs: number;
}

/** A documentary's `cancelled` event as the processor appends it: the request, nothing made. */
export const cancelledAgain = (d: Documentary, now: number): Documentary => ({
  ...d,
  ...nothingMade,
  status: 'cancelled',
  occurred_at: now,
});

export function documentarianHandler(options: DocumentarianOptions): BatchHandler<Documentary> {
  /** Events appended here and not yet seen coming back, per documentary. */
  const inFlight = new Map<string, number>();
  const append = async (event: Documentary) => {
    inFlight.set(event.documentary_id, (inFlight.get(event.documentary_id) ?? 0) + 1);
    await options.producer.send(topicNames.documentaries, [{ key: event.documentary_id, value: event }]);
  };

  const newestVersion = async (id: string): Promise<number | null> => {
    const [row] = await options.clickhouse.query<{ newest: string | number }>(
      sql`SELECT max(version) AS newest FROM documentaries WHERE documentary_id = ${id}`,
    );
    return row ? Number(row.newest) : null;
  };

  /** Whether a newer event of the documentary exists than the one at `offset` (after a restart). */
  const superseded = async (id: string, offset: number): Promise<boolean> => {
    const deadline = Date.now() + options.readModelWaitMs;
    for (;;) {
      const newest = await newestVersion(id);
      if (newest !== null && newest >= offset) return newest > offset;
      if (Date.now() >= deadline) return false;
      await sleep(250);
    }
  };

  const cancelled = async (id: string): Promise<boolean> => {
    const [row] = await options.clickhouse.query<{ n: string | number }>(
      sql`SELECT count() AS n FROM documentaries WHERE documentary_id = ${id} AND status = 'cancelled'`,
    );
    return Number(row?.n ?? 0) > 0;
  };

  return async (events, { heartbeat }) => {
    for (const event of events) {
      const documentary = event.value;
      if (!documentary) continue;
      const id = documentary.documentary_id;
      const ours = inFlight.get(id) ?? 0;
      if (ours > 0) {
        if (ours === 1) inFlight.delete(id);
        else inFlight.set(id, ours - 1);
        continue;
      }
      if (stepOf(documentary) === null) continue;
      if (await superseded(id, Number(event.offset))) continue;
      options.logger.info(
        { documentaryId: id, step: stepOf(documentary), topic: documentary.topic },
        'making a documentary',
      );
      try {
        await makeDocumentary(documentary, { ...options, append, heartbeat, cancelled });
      } catch (error) {
        if (error instanceof DocumentaryCancelled) {
          // Its own `cancelled` event again, after whatever this process appended: one appended while the
          // cancel was on its way would otherwise be the newest, and show the documentary under way.
          options.logger.info({ documentaryId: id }, 'documentary cancelled');
          await append(cancelledAgain(documentary, Date.now()));
          continue;
        }
        // A provider that is down is waited for (the consumer retries the batch); anything else about
        // this documentary's input ends it as failed, with the reason, rather than blocking the others.
        if (error instanceof DependencyUnavailableError) throw error;
        const code =
          error instanceof SpeechRejectedError || error instanceof InvalidSpeechRequest
            ? 'speech_failed'
            : 'internal';
        options.logger.error({ err: error, documentaryId: id }, 'documentary failed');
        await append({
          ...documentary,
          status: 'failed',
          stage: null,
          progress: null,
          failure_code: code,
          failure_reason: (error as Error).message.slice(0, 500),
          occurred_at: Date.now(),
        });
      }
    }
  };
}
