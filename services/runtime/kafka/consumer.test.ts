import kafkajs from 'kafkajs';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../logger.ts';
import { ConsumerRunner } from './consumer.ts';
import type { EventProducer } from './producer.ts';
import { EventCodec, localTypes, createSchemaRegistry } from './registry.ts';
import { topicCatalog } from './topics.ts';

describe('ConsumerRunner', () => {
  // Neither the client nor the registry connects until used.
  const kafka = new kafkajs.Kafka({ brokers: ['127.0.0.1:1'] });
  const codec = new EventCodec(createSchemaRegistry('http://127.0.0.1:1'), localTypes(topicCatalog()));
  const base = {
    kafka,
    codec,
    producer: {} as EventProducer,
    logger: createLogger('test', 'silent'),
    groupId: 'g',
    handler: async () => undefined,
  };

  it('refuses a topic that has no schema in the catalog', () => {
    expect(
      () => new ConsumerRunner({ ...base, topics: ['news.articles.discovered.v1', 'news.nope.v1'] }),
    ).toThrow('no schema for topic(s) news.nope.v1 in the topic catalog');
  });

  it('accepts primary and retry topics', () => {
    expect(
      () =>
        new ConsumerRunner({
          ...base,
          topics: ['news.articles.discovered.v1', 'news.webhook-deliveries.v1.retry-5s'],
        }),
    ).not.toThrow();
  });
});
