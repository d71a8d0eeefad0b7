import { KafkaJSProtocolError } from 'kafkajs';
import { afterEach, describe, expect, it } from 'vitest';
import { missingTopic } from './lifecycle.ts';

// KafkaJS builds its protocol errors from its table of codes (an object, which its typings do not declare).
const protocolError = (type: string, code: number, message: string) =>
  new KafkaJSProtocolError({ type, code, retriable: true, message } as unknown as Error);

describe('a start that fails on a missing topic', () => {
  const prefix = process.env.TOPIC_PREFIX;
  afterEach(() => {
    if (prefix === undefined) delete process.env.TOPIC_PREFIX;
    else process.env.TOPIC_PREFIX = prefix;
  });

  it('says what to do, and under which namespace, where KafkaJS names no topic', () => {
    process.env.TOPIC_PREFIX = 'staging.';
    const unknown = protocolError(
      'UNKNOWN_TOPIC_OR_PARTITION',
      3,
      'This server does not host this topic-partition',
    );
    expect(missingTopic(unknown)).toBe(
      'a Kafka topic this process uses does not exist under TOPIC_PREFIX=staging.: run `npm run provision` with the same TOPIC_PREFIX and KAFKA_BROKERS',
    );
    const other = protocolError('NOT_LEADER_FOR_PARTITION', 6, 'not the leader');
    expect(missingTopic(other)).toBeNull();
    expect(missingTopic(new Error('This server does not host this topic-partition'))).toBeNull();
  });
});
