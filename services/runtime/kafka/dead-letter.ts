// A message that cannot be processed is copied, bytes unchanged, to
// `<topic>.dlq` with the reason and its origin in headers, so that it can be
// inspected and replayed, and the partition behind it keeps moving.
import type { IHeaders, KafkaMessage } from 'kafkajs';
import { deadLetterTopicName } from './topics.ts';

export const deadLetterHeaders = {
  reason: 'dlq.reason',
  topic: 'dlq.source.topic',
  partition: 'dlq.source.partition',
  offset: 'dlq.source.offset',
  group: 'dlq.consumer.group',
  attempts: 'dlq.attempts',
  failedAt: 'dlq.failed.at',
} as const;

/** Longest reason kept in a header: enough to diagnose, bounded so a huge error cannot bloat the DLQ. */
const maxReasonLength = 2_000;

export function deadLetterMessage(input: {
  topic: string;
  partition: number;
  message: KafkaMessage;
  group: string;
  attempts: number;
  reason: string;
  now: Date;
}) {
  const headers: IHeaders = {
    ...input.message.headers,
    [deadLetterHeaders.reason]: input.reason.slice(0, maxReasonLength),
    [deadLetterHeaders.topic]: input.topic,
    [deadLetterHeaders.partition]: String(input.partition),
    [deadLetterHeaders.offset]: input.message.offset,
    [deadLetterHeaders.group]: input.group,
    [deadLetterHeaders.attempts]: String(input.attempts),
    [deadLetterHeaders.failedAt]: input.now.toISOString(),
  };
  return {
    topic: deadLetterTopicName(input.topic),
    message: { key: input.message.key, value: input.message.value, headers },
  };
}
