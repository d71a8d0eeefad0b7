// Slow-loris on a real API process (OWASP API4): a thousand connections that
// never finish a request (half silent, half trickling a request head a byte at
// a time) must not stop normal requests from being answered at their usual pace,
// and the server's own timeouts must close them. The figures (quiet latency,
// latency under the idle connections, when the sockets were closed) are printed.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClickHouse } from '../../services/runtime/clickhouse/client.ts';
import { EventProducer } from '../../services/runtime/kafka/producer.ts';
import { createSchemaRegistry, EventCodec } from '../../services/runtime/kafka/registry.ts';
import { startApiProcess, type ApiProcess } from './support/api-process.ts';
import { testKafka } from './support/kafka.ts';
import { stack, testClickHouse } from './support/stack.ts';
import { createTestClient, type TestClient } from './support/test-clients.ts';

const headersTimeoutMs = 3_000;
const idleTimeoutMs = 10_000;
const idleConnections = 1_000;
const keepAliveTimeoutMs = 2_000;
const maxHeaderBytes = 8_192;

interface HeldSocket {
  socket: Socket;
  kind: 'silent' | 'trickling';
  openedAt: number;
  closedAt?: number;
  received: string;
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
};

describe('a thousand idle connections (slow-loris)', () => {
  const database = `test_slowloris_${randomUUID().replace(/-/g, '').slice(0, 10)}`;
  let clickhouse: ClickHouse;
  let producer: EventProducer;
  let api: ApiProcess;
  let client: TestClient;
  const held: HeldSocket[] = [];
  const timers: NodeJS.Timeout[] = [];

  beforeAll(async () => {
    clickhouse = await testClickHouse(database, { migrated: true });
    const kafka = testKafka();
    const codec = new EventCodec(createSchemaRegistry(stack.SCHEMA_REGISTRY_URL));
    producer = await EventProducer.connect(kafka, codec);
    client = await createTestClient({ kafka, codec, producer }, { name: `slow-loris ${database}` });
    api = await startApiProcess({
      LOG_LEVEL: 'warn',
      CLICKHOUSE_DATABASE: database,
      REDIS_KEY_PREFIX: `test:${database}:`,
      API_HEADERS_TIMEOUT_MS: String(headersTimeoutMs),
      API_REQUEST_TIMEOUT_MS: String(headersTimeoutMs * 2),
      API_IDLE_TIMEOUT_MS: String(idleTimeoutMs),
      API_REQUEST_DEADLINE_MS: String(idleTimeoutMs - 1_000),
      API_KEEP_ALIVE_TIMEOUT_MS: String(keepAliveTimeoutMs),
      API_MAX_HEADER_BYTES: String(maxHeaderBytes),
    });
  }, 120_000);

  afterAll(async () => {
    for (const timer of timers) clearInterval(timer);
    for (const { socket } of held) socket.destroy();
    await api?.stop();
    await producer?.disconnect();
    await clickhouse?.command(`DROP DATABASE IF EXISTS ${database}`);
    await clickhouse?.close();
  });

  /** Latencies in ms of `count` requests one after another, each answered 200. */
  const latencies = async (count: number) => {
    const out: number[] = [];
    // The client is known to the process once it answers 200; a fresh connection per request, as a
    // new visitor would come, so the measurement includes the accept queue the idle sockets crowd.
    for (let i = 0; i < count; i++) {
      const started = performance.now();
      const response = await fetch(`${api.url}/v1/sources?limit=1`, {
        headers: { authorization: `Bearer ${client.apiKey}`, connection: 'close' },
      });
      await response.arrayBuffer();
      out.push(performance.now() - started);
      expect(response.status).toBe(200);
    }
    return out;
  };

  const open = (kind: HeldSocket['kind']) =>
    new Promise<HeldSocket>((resolve, reject) => {
      const { port } = new URL(api.url);
      const socket = connect(Number(port), '127.0.0.1');
      const entry: HeldSocket = { socket, kind, openedAt: Date.now(), received: '' };
      socket.setNoDelay(true);
      socket.on('data', (chunk: Buffer) => (entry.received += chunk.toString()));
      socket.on('error', () => undefined); // a reset by the server is one way of being closed
      socket.once('close', () => (entry.closedAt = Date.now()));
      socket.once('connect', () => {
        entry.openedAt = Date.now();
        if (kind === 'trickling') {
          socket.write('GET /v1/sources HTTP/1.1\r\nHost: 127.0.0.1\r\n');
          // A byte of a never-ending header every 200 ms: never silent, never done.
          let n = 0;
          const timer = setInterval(() => {
            if (socket.destroyed) return clearInterval(timer);
            socket.write(n++ === 0 ? 'X-Slow: ' : 'a');
          }, 200);
          timers.push(timer);
        }
        resolve(entry);
      });
      socket.once('error', reject);
    });

  it('answers normal requests at about their quiet latency while 1,000 connections hang, then closes those by its timeouts', async () => {
    const limits = readFileSync(`/proc/${api.child.pid}/limits`, 'utf8');
    const maxOpenFiles = Number(/^Max open files\s+(\d+)/m.exec(limits)?.[1]);
    console.log(`slow-loris: the API process may open ${maxOpenFiles} files (ulimit -n)`);
    // A thousand sockets, the process's own files, Kafka, ClickHouse and Redis connections.
    expect(maxOpenFiles).toBeGreaterThan(idleConnections + 500);

    await latencies(10); // warm-up: connections to ClickHouse, JIT
    const quiet = await latencies(50);

    for (let batch = 0; batch < idleConnections / 100; batch++) {
      held.push(
        ...(await Promise.all(
          Array.from({ length: 100 }, (_, i) => open(i % 2 === 0 ? 'silent' : 'trickling')),
        )),
      );
    }
    const openedAt = Date.now();
    expect(held.filter((h) => h.closedAt === undefined)).toHaveLength(idleConnections);
    const loaded = await latencies(50);
    const stillOpen = held.filter((h) => h.closedAt === undefined).length;

    const figures = (values: number[]) =>
      `p50 ${percentile(values, 50).toFixed(1)} ms, p99 ${percentile(values, 99).toFixed(1)} ms, max ${Math.max(...values).toFixed(1)} ms`;
    console.log(`slow-loris: quiet: ${figures(quiet)}`);
    console.log(
      `slow-loris: under ${idleConnections} idle connections (${stillOpen} still open after the requests): ${figures(loaded)}`,
    );
    // Generous bounds for a busy machine: every request answered well under 2 s, the typical one
    // within ten times its quiet latency (or 100 ms, below which a scheduler hiccup is the whole figure).
    expect(Math.max(...loaded)).toBeLessThan(2_000);
    expect(percentile(loaded, 50)).toBeLessThan(Math.max(10 * percentile(quiet, 50), 100));

    // The server closes them all by API_HEADERS_TIMEOUT_MS: Node counts a connection's head from the
    // moment it connects, so a silent connection is as late with its head as a trickling one.
    await expect
      .poll(() => held.filter((h) => h.closedAt === undefined).length, {
        timeout: headersTimeoutMs + 15_000,
        interval: 250,
      })
      .toBe(0);
    for (const kind of ['trickling', 'silent'] as const) {
      const group = held.filter((h) => h.kind === kind);
      const lifetimes = group.map((h) => h.closedAt! - h.openedAt);
      const answers = new Set(group.map((h) => h.received.split('\r\n')[0] || '(nothing)'));
      console.log(
        `slow-loris: ${group.length} ${kind} connections closed by the server after ${Math.min(...lifetimes)}–${Math.max(...lifetimes)} ms, answered: ${[...answers].join(', ')}`,
      );
      // Not before the timeout, and within it plus Node's once-a-second check and a busy machine's slack
      // (well before the idle-socket timeout, so it is the head's timeout that closed them).
      expect(Math.min(...lifetimes)).toBeGreaterThanOrEqual(headersTimeoutMs - 100);
      expect(Math.max(...lifetimes)).toBeLessThan(headersTimeoutMs + 5_000);
    }
    console.log(`slow-loris: every idle connection closed ${Date.now() - openedAt} ms after the last opened`);
    // And the API still answers as before.
    expect((await latencies(5)).length).toBe(5);
  }, 120_000);

  /** A raw connection: what it receives, and when it was closed. */
  const raw = (request: string) =>
    new Promise<{ received: () => string; closed: Promise<number> }>((resolve, reject) => {
      const { port } = new URL(api.url);
      const socket = connect(Number(port), '127.0.0.1');
      let received = '';
      socket.on('data', (chunk: Buffer) => (received += chunk.toString()));
      socket.on('error', () => undefined);
      const started = Date.now();
      const closed = new Promise<number>((done) => socket.once('close', () => done(Date.now() - started)));
      held.push({ socket, kind: 'silent', openedAt: started, received: '' });
      socket.once('connect', () => {
        socket.write(request);
        resolve({ received: () => received, closed });
      });
      socket.once('error', reject);
    });

  it('refuses a head over API_MAX_HEADER_BYTES with 431, and closes a stalled body and an idle kept-alive connection', async () => {
    const big = await raw(
      `GET /v1/sources HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: ${'a'.repeat(maxHeaderBytes)}\r\n\r\n`,
    );
    await big.closed;
    expect(big.received()).toMatch(/^HTTP\/1\.1 431 /);

    // A complete head, then 10 of the 100 body bytes it announced, then nothing: the request timeout.
    const stalled = await raw(
      `POST /v1/sources HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${client.apiKey}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"url": "h`,
    );
    // A request answered on a kept-alive connection, then no next request: the keep-alive timeout.
    const kept = await raw(
      `GET /v1/sources?limit=1 HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${client.apiKey}\r\n\r\n`,
    );
    const keptFor = await kept.closed;
    expect(kept.received()).toMatch(/^HTTP\/1\.1 200 /);
    expect(kept.received()).toMatch(/keep-alive: timeout=2/i);
    console.log(`slow-loris: an idle kept-alive connection closed after ${keptFor} ms`);
    expect(keptFor).toBeGreaterThanOrEqual(keepAliveTimeoutMs - 100);
    expect(keptFor).toBeLessThan(keepAliveTimeoutMs + 5_000);
    const stalledFor = await stalled.closed;
    console.log(`slow-loris: a stalled request body closed after ${stalledFor} ms`);
    expect(stalledFor).toBeGreaterThanOrEqual(headersTimeoutMs * 2 - 100);
    expect(stalledFor).toBeLessThan(headersTimeoutMs * 2 + 5_000);
    // A client that left mid-body is the client's doing: no internal error in the log.
    expect(api.output()).not.toMatch(/request failed/);
  }, 60_000);
});
