// Pins the patch of KafkaJS's consumer fetch manager (patches/kafkajs+2.2.4.patch, applied by `npm ci`):
// a stop() that comes while the fetchers are being rebalanced, because the brokers changed (one died or
// came back), ends the fetch loop. Unpatched, the loop made new fetchers after the stop that nothing
// stopped: a consumer stopped after a broker restart never finished stopping and fetched on at full
// speed (seen on three brokers, test/integration/three-brokers.test.ts, until the process ran out of heap).
import { createRequire } from 'node:module';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';

interface FetchManager {
  start(): Promise<void>;
  stop(): Promise<void>;
}
type CreateFetchManager = (options: {
  logger: unknown;
  getNodeIds: () => number[];
  fetch: (nodeId: number) => Promise<unknown[]>;
  handler: () => Promise<void>;
}) => FetchManager;

const require = createRequire(import.meta.url);
const createFetchManager = require('kafkajs/src/consumer/fetchManager.js') as CreateFetchManager;

const silent = { debug() {}, info() {}, warn() {}, error() {}, namespace: () => silent };

describe('KafkaJS fetch manager stopped during a rebalance of its fetchers (patched)', () => {
  it('ends the fetch loop and makes no fetcher after the stop', async () => {
    // Broker 2 comes back: the fetchers made for [1, 3] see the change at their next fetch.
    let nodeIds = [1, 3];
    const fetches: { nodeId: number; afterStop: boolean }[] = [];
    let stopped = false;
    const manager = createFetchManager({
      logger: silent,
      getNodeIds: () => nodeIds,
      async fetch(nodeId) {
        fetches.push({ nodeId, afterStop: stopped });
        // Each fetch waits on the broker for a while (KafkaJS's maxWaitTime), as a real one does.
        await sleep(nodeId === 1 ? 5 : 60);
        return [];
      },
      handler: async () => undefined,
    });
    const started = manager.start();
    await sleep(20);
    // Fetcher 1 now throws the rebalance error at its next fetch, while fetcher 3 is still in its fetch:
    // the manager waits for fetcher 3 to end before it makes new fetchers. The consumer stops meanwhile.
    nodeIds = [1, 2, 3];
    await sleep(10);
    stopped = true;
    await manager.stop();
    const ended = await Promise.race([started.then(() => 'ended'), sleep(500).then(() => 'still running')]);
    expect(ended).toBe('ended');
    expect(fetches.filter((f) => f.afterStop)).toEqual([]);
  });
});
