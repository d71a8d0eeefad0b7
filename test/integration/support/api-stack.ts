// The read path of one test file, on the real stack: its own ClickHouse
// database (migrated), a projector (consumer group of its own, reading from the
// end of the topics so a long-lived stack's history does not have to be
// replayed) and the API in this process on a free port.
import { randomUUID } from 'node:crypto';
import type { Kafka } from 'kafkajs';
import { loadApiConfig } from '../../../services/api/config.ts';
import { startApi, type RunningApi } from '../../../services/api/server.ts';
import { ClickHouse } from '../../../services/runtime/clickhouse/client.ts';
import { migrate, readMigrations } from '../../../services/runtime/clickhouse/migrations.ts';
import { ConsumerRunner } from '../../../services/runtime/kafka/consumer.ts';
import { EventProducer } from '../../../services/runtime/kafka/producer.ts';
import { createSchemaRegistry, EventCodec } from '../../../services/runtime/kafka/registry.ts';
import { projectorTypes } from '../../../services/projector/article-batch.ts';
import { projectBatch, projectorConcurrency, projectorFetch } from '../../../services/projector/projector.ts';
import { projectedTables } from '../../../services/projector/rows.ts';
import { testKafka } from './kafka.ts';
import { createTestClient, type TestClient } from './test-clients.ts';
import { testLogger } from './stack.ts';
import { waitFor } from './wait.ts';

export interface Answer<T> {
  status: number;
  /** Parsed JSON (undefined when the body is empty or not JSON). */
  body: T;
  text: string;
  headers: Headers;
}

export interface ErrorAnswer {
  error: { code: string; message: string; request_id?: string };
}

export interface ApiStack {
  run: string;
  database: string;
  kafka: Kafka;
  codec: EventCodec;
  producer: EventProducer;
  clickhouse: ClickHouse;
  api: RunningApi;
  /** The tenant and credentials every call() uses. */
  client: TestClient;
  /** Another tenant, for cross-tenant checks. */
  otherClient: TestClient;
  /** GET/POST/DELETE against the API; the body parsed as JSON when there is one. */
  call<T = ErrorAnswer>(
    method: string,
    path: string,
    body?: unknown,
    options?: { apiKey?: string | null },
  ): Promise<Answer<T>>;
  close(): Promise<void>;
}

export async function startApiStack(name: string, env: Record<string, string> = {}): Promise<ApiStack> {
  const run = randomUUID().replace(/-/g, '').slice(0, 10);
  const database = `test_${name}_${run}`;
  const closers: (() => Promise<unknown>)[] = [];
  const close = async () => {
    for (const c of closers.reverse()) await c().catch(() => undefined);
  };
  try {
    const config = loadApiConfig({
      ...process.env,
      PORT: '0',
      CLICKHOUSE_DATABASE: database,
      OUTBOUND_ALLOW_LIST: '127.0.0.1',
      API_SOURCE_POLL_INTERVAL_SECONDS: '10',
      LOG_LEVEL: 'silent',
      ...env,
    });
    const clickhouse = await ClickHouse.connect({
      url: config.CLICKHOUSE_URL,
      user: config.CLICKHOUSE_USER,
      password: config.CLICKHOUSE_PASSWORD,
      database,
    });
    closers.push(async () => {
      await clickhouse.command(`DROP DATABASE IF EXISTS ${database}`);
      await clickhouse.close();
    });
    await migrate(clickhouse, readMigrations(), testLogger);

    const kafka = testKafka();
    const codec = new EventCodec(createSchemaRegistry(config.SCHEMA_REGISTRY_URL));
    const producer = await EventProducer.connect(kafka, codec);
    closers.push(() => producer.disconnect());

    let assigned = false;
    const projector = new ConsumerRunner({
      kafka,
      codec: new EventCodec(createSchemaRegistry(config.SCHEMA_REGISTRY_URL), projectorTypes()), // as main.ts

      producer,
      logger: testLogger,
      groupId: `test-${name}-projector-${run}`,
      topics: Object.keys(projectedTables),
      fromBeginning: false,
      partitionsConcurrently: projectorConcurrency,
      fetch: projectorFetch,
      onAssignment: () => (assigned = true),
      batchHandler: async (events) => void (await projectBatch(clickhouse, events)),
    });
    closers.push(() => projector.stop());
    await projector.start();
    // A new group starts at the end of each partition once it has joined: wait, so nothing we produce is skipped.
    await waitFor(() => assigned, 'the projector to join its group', 60_000);

    const client = await createTestClient({ kafka, codec, producer }, { name: `Test ${name} ${run}` });
    const otherClient = await createTestClient({ kafka, codec, producer }, { name: `Other ${name} ${run}` });
    const api = await startApi(config, testLogger);
    closers.push(() => api.close());

    const call: ApiStack['call'] = async (method, path, body, options = {}) => {
      const apiKey = options.apiKey === undefined ? client.apiKey : options.apiKey;
      const response = await fetch(`${api.url}${path}`, {
        method,
        headers: {
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...(apiKey === null ? {} : { authorization: `Bearer ${apiKey}` }),
        },
        body: body === undefined ? null : typeof body === 'string' ? body : JSON.stringify(body),
      });
      const text = await response.text();
      let parsed: unknown = undefined;
      try {
        parsed = text ? JSON.parse(text) : undefined;
      } catch {
        // not JSON: the test looks at text
      }
      return { status: response.status, body: parsed as never, text, headers: response.headers };
    };
    return { run, database, kafka, codec, producer, clickhouse, api, client, otherClient, call, close };
  } catch (error) {
    await close();
    throw error;
  }
}
