// `npm run generate:asyncapi`: writes docs/asyncapi.json, the AsyncAPI 3.0 description of every topic
// downstream systems may consume: channel per topic (kind, retention, key), message per Avro schema
// (the schema itself, as registered; Confluent wire format: magic byte and schema id before the
// Avro body). Built from the topic catalog and schemas/*.avsc, so it cannot drift from them; a unit
// test fails when the file is stale. Topic names carry TOPIC_PREFIX, as everywhere: an environment
// with a namespace describes its own topics with `TOPIC_PREFIX=staging. npm run generate:asyncapi --
// <file>` (the committed docs/asyncapi.json is the unprefixed one).
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { subjectOf } from '../kafka/registry.ts';
import { topicCatalog, type TopicSpec } from '../kafka/topics.ts';
import { readSchemaFiles, type SchemaFile } from './schema-files.ts';

export const asyncApiFile = fileURLToPath(new URL('../../../docs/asyncapi.json', import.meta.url));

const channelId = (topic: string) => topic.replace(/[^A-Za-z0-9]+/g, '_');

const keyOf: Record<string, string> = {
  'news.sources.v1': 'source_id',
  'news.source-subscriptions.v1': 'tenant_id/source_id',
  'news.feed-polls.v1': 'source_id',
  'news.articles.discovered.v1': 'article_id',
  'news.articles.enriched.v1': 'article_id',
  'news.articles.narrated.v1': 'article_id',
  'news.monitors.v1': 'monitor_id',
  'news.alerts.v1': 'alert_id',
  'news.webhooks.v1': 'webhook_id',
  'news.webhook-deliveries.v1': 'webhook_id',
  'news.documentaries.v1': 'documentary_id',
  'news.stories.v1': 'story_id',
  'news.clients.v1': 'client_id',
};

/** A topic's key as the document states it; a topic without one is an error, not a guessed "id". */
function keyName(schemaTopic: string): string {
  const key = keyOf[schemaTopic];
  if (key === undefined) throw new Error(`asyncapi.ts: no key given for ${schemaTopic} (keyOf)`);
  return key;
}

export function asyncApiDocument(
  version: string,
  topics: readonly TopicSpec[] = topicCatalog(),
  schemas: readonly SchemaFile[] = readSchemaFiles(),
) {
  const schemaOf = new Map(schemas.map((s) => [s.topic, s.schema]));
  const channels: Record<string, unknown> = {};
  const operations: Record<string, unknown> = {};
  const messages: Record<string, unknown> = {};
  for (const topic of topics) {
    if (!topic.schemaOf) continue; // dead-letter topics keep raw bytes of any shape
    const schema = schemaOf.get(topic.schemaOf);
    if (!schema) throw new Error(`no schema file for ${topic.schemaOf}`);
    const message = schema.name;
    messages[message] ??= {
      name: message,
      title: message,
      summary: schema.doc,
      contentType: 'application/vnd.apache.avro+binary',
      payload: { schemaFormat: 'application/vnd.apache.avro+json;version=1.9.0', schema },
      bindings: {
        kafka: {
          key: { type: 'string', description: `${keyName(topic.schemaOf)} of the entity` },
          schemaIdLocation: 'payload',
          schemaIdPayloadEncoding: 'confluent',
          bindingVersion: '0.5.0',
        },
      },
    };
    const id = channelId(topic.name);
    const compacted = topic.kind === 'compacted';
    // Only the topics whose schema says so delete by tombstone: a subscription ends with a record of its
    // own (subscribed = false), and a consumer told otherwise would wait for nulls that never come.
    const deletesByTombstone = /tombstone/i.test(String((schema as { doc?: string }).doc ?? ''));
    const kind = !compacted
      ? 'A stream of events.'
      : deletesByTombstone
        ? 'Compacted: the latest state per key; a null value (tombstone) deletes the key.'
        : 'Compacted: the latest state per key; values are never null (no tombstones: an ended state is a record, see the schema).';
    const order =
      topic.partitions === undefined
        ? 'Partitions: as the deployment sets (TOPIC_PARTITIONS); records of one key keep their order.'
        : `Partitions: exactly ${topic.partitions}, so every record is in one total order.`;
    channels[id] = {
      address: topic.name,
      title: topic.name,
      description:
        `${topic.description}. ${kind} ${order} ` +
        `Key: ${keyName(topic.schemaOf)}. Subject ${subjectOf(topic.name)} in the schema registry.`,
      messages: { [message]: { $ref: `#/components/messages/${message}` } },
      bindings: {
        kafka: {
          topic: topic.name,
          ...(topic.partitions === undefined ? {} : { partitions: topic.partitions }),
          topicConfiguration: {
            'cleanup.policy': [compacted ? 'compact' : 'delete'],
            'retention.ms': topic.retentionMs,
          },
          bindingVersion: '0.5.0',
        },
      },
    };
    operations[`consume_${id}`] = {
      action: 'receive',
      channel: { $ref: `#/channels/${id}` },
      summary: `Consume ${topic.name}`,
      messages: [{ $ref: `#/channels/${id}/messages/${message}` }],
    };
  }
  return {
    asyncapi: '3.0.0',
    info: {
      title: 'News intelligence topics',
      version,
      description:
        'The Kafka topics downstream systems consume. Values are Avro in the Confluent wire format (magic ' +
        'byte 0, 4-byte schema id, Avro body); read them with any Confluent-compatible deserializer against ' +
        'the schema registry. Every subject is FULL_TRANSITIVE: schemas evolve so that any version reads what any other wrote (new fields have defaults, enums a default ' +
        'symbol). docs/architecture.md ("Reading the topics from outside") has examples.',
    },
    servers: {
      local: {
        host: '127.0.0.1:9092',
        protocol: 'kafka',
        description:
          'The local stack (npm run stack -- up); schema registry at http://127.0.0.1:8081/apis/ccompat/v7',
      },
    },
    defaultContentType: 'application/vnd.apache.avro+binary',
    channels,
    operations,
    components: { messages },
  };
}

export const renderAsyncApi = (version: string) => `${JSON.stringify(asyncApiDocument(version), null, 2)}\n`;

/** The package version, which the document carries. */
export const packageVersion = (
  JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string }
).version;

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const file = process.argv[2] ?? asyncApiFile;
  writeFileSync(file, renderAsyncApi(packageVersion));
  console.log(`wrote ${file}`);
}
