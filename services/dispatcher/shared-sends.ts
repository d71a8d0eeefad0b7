// The fan-out's appends of delivery jobs, shared between the partitions it handles at once: each batch
// handler encodes its jobs and hands them to one AppendBatcher, so the jobs of every alert partition
// handled together (one fetch) go out in one produce request instead of one request per partition,
// each waiting for the one before (the producer keeps one request in flight). A handler is answered once
// its records are acknowledged, as with EventProducer.send; its jobs stay together and in order.
import type { EventsByTopic } from '../runtime/events/types.generated.ts';
import type { AppendBatcher, RawRecord } from '../runtime/kafka/append-batcher.ts';
import type { EventProducer, OutgoingEvent } from '../runtime/kafka/producer.ts';
import type { EventCodec } from '../runtime/kafka/registry.ts';

export class SharedSends implements Pick<EventProducer, 'send'> {
  constructor(
    private readonly codec: Pick<EventCodec, 'encode'>,
    private readonly batcher: Pick<AppendBatcher, 'append'>,
  ) {}

  async send<T extends keyof EventsByTopic>(
    topic: T,
    events: readonly OutgoingEvent<EventsByTopic[T]>[],
  ): Promise<void> {
    if (events.length === 0) return;
    const records: RawRecord[] = [];
    for (const event of events)
      records.push({
        topic,
        key: event.key,
        value: event.value === null ? null : await this.codec.encode(topic, event.value),
        ...(event.headers ? { headers: event.headers } : {}),
      });
    await this.batcher.append(records);
  }
}
