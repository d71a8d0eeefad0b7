import type { ConsumerConfig, Kafka } from 'kafkajs';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../runtime/logger.ts';
import type { EventCodec } from '../runtime/kafka/registry.ts';
import { DeliveryConsumer, fetchWaitMs } from './delivery-consumer.ts';
import { KeyedSlots } from './keyed-slots.ts';

/** The config the consumer asks KafkaJS for, without a broker. */
function consumerConfig(): ConsumerConfig {
  let config: ConsumerConfig | undefined;
  const kafka = {
    consumer: (given: ConsumerConfig) => {
      config = given;
      return { on: () => () => undefined, events: { GROUP_JOIN: 'consumer.group_join' } };
    },
  } as unknown as Kafka;
  new DeliveryConsumer({
    kafka,
    codec: { knows: () => true } as unknown as EventCodec,
    producer: { sendRaw: async () => undefined },
    logger: createLogger('test', 'silent'),
    groupId: 'dispatcher.deliveries',
    topics: ['news.webhook-deliveries.v1'],
    fromBeginning: false,
    slots: new KeyedSlots(1),
    process: async () => undefined,
  });
  return config!;
}

describe('DeliveryConsumer', () => {
  it('long-polls for 100 ms at most, so a lane that resumed its partition is refilled before it runs dry', () => {
    // KafkaJS fetches a resumed partition only after the fetch in flight (or, all partitions paused, a
    // sleep) of this length; at 1 s the lanes of bench:webhooks ran dry and waited for seconds.
    expect(fetchWaitMs).toBeLessThanOrEqual(100);
    expect(consumerConfig().maxWaitTimeInMs).toBe(fetchWaitMs);
  });
});
