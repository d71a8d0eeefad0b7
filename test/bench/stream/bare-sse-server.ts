// The baseline of bench:stream: the least a hand-written Node SSE server does to fan Kafka out to its
// clients. One KafkaJS consumer (a group of its own, from the topic's end) decodes each record with the
// same codec and writes the same list-item JSON to every connected client; no authentication, filters,
// ids, buffer bounds or leases. GET /readyz once it reads; GET / is the stream. It reads
// news.articles.discovered.v1 of the bench's namespace (TOPIC_PREFIX, from the bench's environment),
// with a consumer group of the namespace's, removed with it.
import { createServer, type ServerResponse } from 'node:http';
import type { ArticleDiscovered } from '../../../services/runtime/events/types.generated.ts';
import { infrastructureEnv, loadConfig } from '../../../services/runtime/config.ts';
import { createKafka } from '../../../services/runtime/kafka/client.ts';
import { createSchemaRegistry, EventCodec } from '../../../services/runtime/kafka/registry.ts';
import { consumerGroup, topicNames } from '../../../services/runtime/kafka/topics.ts';
import { createLogger } from '../../../services/runtime/logger.ts';

const config = loadConfig(infrastructureEnv);
const topic = topicNames.articlesDiscovered;
const port = Number(process.env.PORT ?? 0);
const logger = createLogger('bare-sse', 'warn');
const clients = new Set<ServerResponse>();
let reading = false;

const kafka = createKafka({ brokers: config.KAFKA_BROKERS, clientId: 'bench-bare-sse', logger });
const codec = new EventCodec(createSchemaRegistry(config.SCHEMA_REGISTRY_URL));
const consumer = kafka.consumer({ groupId: consumerGroup('bench-bare-sse'), maxWaitTimeInMs: 250 });
consumer.on(consumer.events.GROUP_JOIN, () => (reading = true));
await consumer.connect();
await consumer.subscribe({ topics: [topic], fromBeginning: false });
await consumer.run({
  autoCommit: false,
  eachBatch: async ({ batch }) => {
    for (const message of batch.messages) {
      const a = (await codec.decode(topic, message.value)) as ArticleDiscovered;
      const text = `data: ${JSON.stringify({
        id: a.article_id,
        title: a.title,
        summary: a.summary,
        ai_summary: null,
        audio_url: null,
        source: a.source_name,
        source_id: a.source_id,
        published_at: new Date(a.published_at).toISOString(),
        language: a.language,
        category: a.category,
        url: a.url,
        revision: a.revision,
      })}\n\n`;
      for (const res of clients) res.write(text);
    }
  },
});

const server = createServer((req, res) => {
  if (req.url === '/readyz') {
    res.writeHead(reading ? 200 : 503).end();
    return;
  }
  res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache' });
  res.write(': connected\n\n');
  clients.add(res);
  res.on('close', () => clients.delete(res));
});
server.listen(port, '127.0.0.1');
const stop = async () => {
  for (const res of clients) res.end();
  server.close();
  await consumer.disconnect();
  process.exit(0);
};
process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => void stop());
