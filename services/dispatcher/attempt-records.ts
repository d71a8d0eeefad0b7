// Appends what an attempt produced (delivery-worker.ts), in order. The dead-letter copy of an exhausted
// job is Avro under the delivery schema's id (the .dlq topic has no schema of its own, since a poison
// message there may not be Avro at all), with the same `dlq.*` headers the runtime's dead letters carry,
// so one reader handles both.
import type { IHeaders } from 'kafkajs';
import { deadLetterHeaders } from '../runtime/kafka/dead-letter.ts';
import type { AppendBatcher, RawRecord } from '../runtime/kafka/append-batcher.ts';
import type { EventCodec } from '../runtime/kafka/registry.ts';
import { topicNames } from '../runtime/kafka/topics.ts';
import { deliveryDeadLetterTopic } from '../webhooks/retry-plan.ts';
import type { Append } from './delivery-worker.ts';

/** Where the job whose attempt is being recorded was read from. */
export interface JobSource {
  topic: string;
  partition: number;
  offset: string;
}

export interface DeliveryLogDeps {
  /** Where the records go: concurrent deliveries' outcomes share produce requests (append-batcher.ts). */
  batcher: Pick<AppendBatcher, 'append'>;
  codec: Pick<EventCodec, 'encode'>;
  /** Consumer group named in dead letters. */
  group: string;
  clock?: () => Date;
}

export type AppendAll = (appends: readonly Append[], source: JobSource) => Promise<void>;

export function deliveryLog(deps: DeliveryLogDeps): AppendAll {
  const clock = deps.clock ?? (() => new Date());
  return async (appends, source) => {
    const records: RawRecord[] = [];
    for (const append of appends) {
      switch (append.kind) {
        case 'delivery':
          records.push({
            topic: append.topic,
            key: append.record.webhook_id,
            value: await deps.codec.encode(append.topic, append.record),
          });
          break;
        case 'webhook':
          records.push({
            topic: topicNames.webhooks,
            key: append.state.webhook_id,
            value: await deps.codec.encode(topicNames.webhooks, append.state),
          });
          break;
        case 'dead-letter': {
          const headers: IHeaders = {
            [deadLetterHeaders.reason]: append.reason.slice(0, 2_000),
            [deadLetterHeaders.topic]: source.topic,
            [deadLetterHeaders.partition]: String(source.partition),
            [deadLetterHeaders.offset]: source.offset,
            [deadLetterHeaders.group]: deps.group,
            [deadLetterHeaders.attempts]: String(append.record.attempt),
            [deadLetterHeaders.failedAt]: clock().toISOString(),
          };
          records.push({
            topic: deliveryDeadLetterTopic,
            key: append.record.webhook_id,
            value: await deps.codec.encode(topicNames.webhookDeliveries, append.record),
            headers,
          });
          break;
        }
      }
    }
    // One job's records in one request, in order: the outcome, then what follows from it.
    await deps.batcher.append(records);
  };
}
