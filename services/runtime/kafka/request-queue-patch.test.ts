// Pins the patch of KafkaJS's RequestQueue (patches/kafkajs+2.2.4.patch, applied by `npm ci`; kafkajs#1556):
// a connection with nothing waiting and no throttle arms no timer. Unpatched, every check of the queue
// (after each response, each request sent) armed a 1 ms timer whose callback checked again and armed it
// again, for as long as the connection was open: an idle poller spent ~37 ms of CPU a second on it, and a
// busy one paid a timer pass on every turn of its event loop. What the checks are for must still hold:
// requests held back by the in-flight limit or by a throttle are sent once they may be.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const require = createRequire(import.meta.url);
const modulePath = require.resolve('kafkajs/src/network/requestQueue/index.js');

interface Queue {
  push(request: {
    entry: {
      correlationId: number;
      apiKey: number;
      apiName: string;
      apiVersion: number;
      resolve: () => void;
      reject: () => void;
    };
    expectResponse: boolean;
    sendRequest: () => void;
  }): void;
  fulfillRequest(response: { correlationId: number; payload: Buffer; size: number }): void;
  maybeThrottle(ms: number | null): void;
  destroy(): void;
  throttleCheckTimeoutId: unknown;
  inflight: Map<number, unknown>;
  pending: unknown[];
}
const RequestQueue = require(modulePath) as new (options: Record<string, unknown>) => Queue;

const silent = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };

describe("KafkaJS's RequestQueue, patched", () => {
  let queue: Queue;
  let sent: number[];
  const push = (correlationId: number) =>
    queue.push({
      entry: {
        correlationId,
        apiKey: 0,
        apiName: 'Produce',
        apiVersion: 7,
        resolve: () => {},
        reject: () => {},
      },
      expectResponse: true,
      sendRequest: () => sent.push(correlationId),
    });
  const answer = (correlationId: number) =>
    queue.fulfillRequest({ correlationId, payload: Buffer.alloc(0), size: 0 });

  beforeEach(() => {
    vi.useFakeTimers();
    sent = [];
    queue = new RequestQueue({
      maxInFlightRequests: 1,
      requestTimeout: 30_000,
      enforceRequestTimeout: false,
      clientId: 'test',
      broker: '127.0.0.1:9092',
      logger: silent,
    });
  });
  afterEach(() => {
    queue.destroy();
    vi.useRealTimers();
  });

  it('arms no timer once every request is answered and nothing waits', () => {
    push(1);
    expect(sent).toEqual([1]);
    answer(1);
    expect(queue.inflight.size).toBe(0);
    expect(queue.throttleCheckTimeoutId).toBeNull();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('sends a request held back by the in-flight limit when the one before it is answered', () => {
    push(1);
    push(2);
    expect(sent).toEqual([1]);
    expect(queue.pending).toHaveLength(1);
    answer(1);
    expect(sent).toEqual([1, 2]);
    answer(2);
    // The check armed while 2 waited fires once, finds nothing, and arms nothing more.
    vi.advanceTimersByTime(20);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('sends a request held back by a throttle once the throttle ends, then goes quiet', () => {
    push(1);
    queue.maybeThrottle(50);
    answer(1);
    push(2);
    expect(sent).toEqual([1]);
    vi.advanceTimersByTime(49);
    expect(sent).toEqual([1]);
    vi.advanceTimersByTime(20);
    expect(sent).toEqual([1, 2]);
    answer(2);
    vi.advanceTimersByTime(100);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('checks again on a throttle that ends after nothing was pending (no request left in limbo)', () => {
    queue.maybeThrottle(30);
    push(1);
    expect(sent).toEqual([]);
    vi.advanceTimersByTime(40);
    expect(sent).toEqual([1]);
  });

  it('is the patched module', () => {
    expect(readFileSync(modulePath, 'utf8')).toContain('Patched (kafkajs#1556)');
  });
});
