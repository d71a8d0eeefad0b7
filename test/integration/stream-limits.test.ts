// Live-connection limits across two API processes sharing Redis: an Essentials client (5 live
// connections) gets five streams spread over both, the sixth is 429 live_connection_limit on either,
// closing one lets the next in at once, and SIGKILLing an API frees its slots within the lease time.
// Each connection counts once on the hourly call allowance. Revoking a client ends its open streams on
// both.
import type { Kafka } from 'kafkajs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClientRegistry, kafkaClientStore } from '../../services/clients/client-registry.ts';
import { EventProducer } from '../../services/runtime/kafka/producer.ts';
import { createSchemaRegistry, EventCodec } from '../../services/runtime/kafka/registry.ts';
import { openSse, type SseClient } from '../support/sse-client.ts';
import { startApiProcess, type ApiProcess } from './support/api-process.ts';
import { testKafka } from './support/kafka.ts';
import { stack } from './support/stack.ts';
import { createTestClient, type TestClient } from './support/test-clients.ts';
import { waitFor } from './support/wait.ts';

const leaseSeconds = 3;

describe('live-connection limits across API instances', () => {
  const apis: ApiProcess[] = [];
  const streams: SseClient[] = [];
  let producer: EventProducer;
  let client: TestClient;
  let kafka: Kafka;
  let codec: EventCodec;

  const connect = async (api: ApiProcess) => {
    const stream = await openSse(`${api.url}/v1/stream`, { authorization: `Bearer ${client.apiKey}` });
    streams.push(stream);
    return stream;
  };

  beforeAll(async () => {
    kafka = testKafka();
    codec = new EventCodec(createSchemaRegistry(stack.SCHEMA_REGISTRY_URL));
    producer = await EventProducer.connect(kafka, codec);
    client = await createTestClient(
      { kafka, codec, producer },
      { name: 'stream limits', plan: 'essentials' },
    );
    const env = {
      REDIS_KEY_PREFIX: `test:limits:${Date.now()}:`,
      STREAM_LEASE_SECONDS: String(leaseSeconds),
      LOG_LEVEL: 'info',
    };
    apis.push(...(await Promise.all([startApiProcess(env), startApiProcess(env)])));
    for (const api of apis)
      await waitFor(
        async () =>
          (
            await fetch(`${api.url}/v1/sources?limit=1`, {
              headers: { authorization: `Bearer ${client.apiKey}` },
            })
          ).status === 200,
        'the new client on every API',
        30_000,
      );
  }, 120_000);

  afterAll(async () => {
    for (const stream of streams) stream.close();
    await Promise.all(apis.map((a) => a.stop()));
    await producer?.disconnect();
  }, 60_000);

  it("ends a revoked client's open streams on every instance, with a final event saying so", async () => {
    const doomed = await createTestClient(
      { kafka, codec, producer },
      { name: 'stream revoked', plan: 'professional' },
    );
    const headers = { authorization: `Bearer ${doomed.apiKey}` };
    for (const api of apis)
      await waitFor(
        async () => (await fetch(`${api.url}/v1/sources?limit=1`, { headers })).status === 200,
        'the new client on every API',
        30_000,
      );
    const open = await Promise.all(apis.map((api) => openSse(`${api.url}/v1/stream`, headers)));
    streams.push(...open);
    expect(open.map((s) => s.status)).toEqual([200, 200]);

    await new ClientRegistry({ store: kafkaClientStore({ kafka, codec, producer }) }).revoke(doomed.clientId);
    const late = setTimeout(() => open.forEach((s) => s.close()), 20_000);
    await Promise.all(open.map((s) => s.ended));
    clearTimeout(late);
    for (const s of open) {
      const closed = s.events.filter((e) => e.event === 'stream.closed');
      expect(closed).toHaveLength(1);
      expect(JSON.parse(closed[0]!.data)).toMatchObject({ reason: 'revoked' });
    }
    // and it cannot come back
    const again = await openSse(`${apis[0]!.url}/v1/stream`, headers);
    streams.push(again);
    expect(again.status).toBe(401);
  }, 90_000);

  it('admits five, refuses the sixth on either instance, and frees a slot on close and on a crash', async () => {
    const [a, b] = apis as [ApiProcess, ApiProcess];
    const open = [await connect(a), await connect(a), await connect(a), await connect(b), await connect(b)];
    expect(open.map((s) => s.status)).toEqual([200, 200, 200, 200, 200]);
    // One call each on the hourly allowance, however long the stream stays open.
    const remaining = open.map((s) => Number(s.headers['ratelimit-remaining']));
    expect(remaining.slice(1).map((r, i) => remaining[i]! - r)).toEqual([1, 1, 1, 1]);

    for (const api of [a, b]) {
      const sixth = await connect(api);
      expect(sixth.status).toBe(429);
      expect(sixth.headers['retry-after']).toBe('5');
      const body = JSON.parse(await sixth.body()) as { error: { code: string; message: string } };
      expect(body.error.code).toBe('live_connection_limit');
      expect(body.error.message).toContain('5 live connections');
    }

    open[0]!.close();
    await waitFor(
      async () => {
        const next = await connect(b);
        if (next.status !== 200) return false;
        open[0] = next;
        return true;
      },
      'the freed slot',
      5_000,
      50,
    );

    // B holds three now. Killed without a chance to release them, they expire with their leases.
    b.child.kill('SIGKILL');
    const killedAt = Date.now();
    await waitFor(async () => (await connect(a)).status === 200, "the dead instance's slots", 20_000, 200);
    const freedMs = Date.now() - killedAt;
    console.log(`slots of a SIGKILLed API free again after ${freedMs} ms (lease ${leaseSeconds} s)`);
    // The lease time, plus the 200 ms between attempts and room for a busy machine.
    expect(freedMs).toBeLessThanOrEqual(leaseSeconds * 1000 + 2_500);
  }, 90_000);
});
