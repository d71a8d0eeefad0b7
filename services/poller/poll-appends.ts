// What polls append to Kafka (new articles, revisions, poll records), gathered across the polls in
// flight into shared produce requests (runtime/kafka/append-batcher.ts). The producer is idempotent
// with one request in flight, so a request per poll step queued every poll behind every other one's
// broker round trip, and each request costs the producer its own encoding and bookkeeping; 32 polls
// finishing together now share one. A send still resolves only once its records are acknowledged, so
// a poll confirms its dedupe claims, and records its outcome, only after its articles are in Kafka.
import type { EventsByTopic } from '../runtime/events/types.generated.ts';
import type { AppendBatcher, RawRecord } from '../runtime/kafka/append-batcher.ts';
import type { OutgoingEvent } from '../runtime/kafka/producer.ts';
import type { EventCodec } from '../runtime/kafka/registry.ts';

export class PollAppends {
  constructor(
    private readonly codec: Pick<EventCodec, 'encode'>,
    private readonly batcher: Pick<AppendBatcher, 'append'>,
  ) {}

  /** As EventProducer.send: each event encoded once, here, and its bytes appended as they are. */
  async send<T extends keyof EventsByTopic>(
    topic: T,
    events: readonly OutgoingEvent<EventsByTopic[T]>[],
  ): Promise<void> {
    const records: RawRecord[] = [];
    for (const { key, value, headers } of events)
      records.push({
        topic,
        key,
        value: value === null ? null : await this.codec.encode(topic, value),
        ...(headers ? { headers } : {}),
      });
    await this.batcher.append(records);
  }
}
