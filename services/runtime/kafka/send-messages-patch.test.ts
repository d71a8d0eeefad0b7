// Pins the patch of KafkaJS's producer send (patches/kafkajs+2.2.4.patch, applied by `npm ci`): when one
// broker fails in the middle of a send that spans brokers, the retry writes each partition's batch once,
// with the sequence number it had, wherever its leader moved. Unpatched, the retry sent again the batch
// still in flight to another broker under a new sequence number (a duplicate, seen on three brokers), or,
// once that broker had answered, dropped the failed partitions that moved to it (acknowledged, lost).
// KafkaJS's own module, with a fake cluster and brokers around it: the logic, not the network.
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';

interface Message {
  key: string;
  value: string;
  partition: number;
}
interface PartitionData {
  partition: number;
  firstSequence: number;
  messages: Message[];
}
interface ProduceRequest {
  topicData: { topic: string; partitions: PartitionData[] }[];
}
interface PartitionResponse {
  topicName: string;
  partition: number;
}
/** The shapes of KafkaJS's internal modules this test drives (they have no types of their own). */
type SendMessages = (options: {
  logger: unknown;
  cluster: unknown;
  partitioner: (args: { message: Message }) => number;
  eosManager: unknown;
  retrier: unknown;
}) => (request: {
  acks: number;
  timeout: number;
  topicMessages: { topic: string; messages: Message[] }[];
}) => Promise<PartitionResponse[]>;
type CreateRetry = (options: { initialRetryTime: number; retries: number }) => unknown;

const require = createRequire(import.meta.url);
const createSendMessages = require('kafkajs/src/producer/sendMessages.js') as SendMessages;
const createRetry = require('kafkajs/src/retry/index.js') as CreateRetry;

interface Produced {
  broker: number;
  partition: number;
  firstSequence: number;
  keys: string[];
}

class ConnectionLost extends Error {
  override name = 'KafkaJSConnectionError';
  retriable = true;
}

/**
 * Partition 0 led by broker 1, partition 1 by broker 2. Broker 2 fails its first produce; once the
 * client refreshes its metadata, partition 1 is led by broker 1. Broker 1 answers after `slowMs`.
 */
function cluster(slowMs: number) {
  const leaders = new Map([
    [0, 1],
    [1, 2],
  ]);
  const produced: Produced[] = [];
  let broker2Failed = false;
  const broker = (nodeId: number) => ({
    nodeId,
    async produce({ topicData }: ProduceRequest) {
      if (nodeId === 2 && !broker2Failed) {
        broker2Failed = true;
        throw new ConnectionLost('Connection error: read ECONNRESET');
      }
      await new Promise((resolve) => setTimeout(resolve, slowMs));
      const partitions = topicData[0]!.partitions.map((p) => {
        produced.push({
          broker: nodeId,
          partition: p.partition,
          firstSequence: p.firstSequence,
          keys: p.messages.map((m) => m.key),
        });
        return { partition: p.partition, errorCode: 0, baseOffset: '0' };
      });
      return { topics: [{ topicName: topicData[0]!.topic, partitions }] };
    },
  });
  const brokers = new Map([
    [1, broker(1)],
    [2, broker(2)],
  ]);
  const metadata = () => [...leaders].map(([partitionId, leader]) => ({ partitionId, leader }));
  const fake = {
    isConnected: () => true,
    refreshMetadataIfNecessary: async () => undefined,
    // The controller has moved partition 1 to broker 1 by the time the client asks again.
    refreshMetadata: async () => void leaders.set(1, 1),
    addMultipleTargetTopics: async () => undefined,
    findTopicPartitionMetadata: metadata,
    findLeaderForPartitions: (_topic: string, partitions: string[]) => {
      const out: Record<number, number[]> = {};
      for (const p of partitions.map(Number)) (out[leaders.get(p)!] ??= []).push(p);
      return out;
    },
    findBroker: async ({ nodeId }: { nodeId: number }) => brokers.get(Number(nodeId)),
    removeBroker: () => undefined,
  };
  return { fake, produced };
}

/** Sequence numbers per partition as KafkaJS's EOS manager keeps them (no transactions). */
function eosManager() {
  const sequences = new Map<string, number>();
  return {
    acquireBrokerLock: async () => undefined,
    releaseBrokerLock: async () => undefined,
    isTransactional: () => false,
    getTransactionalId: () => undefined,
    getProducerId: () => 7,
    getProducerEpoch: () => 0,
    getSequence: (topic: string, partition: number) => sequences.get(`${topic}/${partition}`) ?? 0,
    updateSequence: (topic: string, partition: number, increment: number) =>
      sequences.set(`${topic}/${partition}`, (sequences.get(`${topic}/${partition}`) ?? 0) + increment),
  };
}

const silent = { debug() {}, info() {}, warn() {}, error() {} };

async function sendAcrossBrokers(slowMs: number) {
  const { fake, produced } = cluster(slowMs);
  const send = createSendMessages({
    logger: silent,
    cluster: fake,
    partitioner: ({ message }) => message.partition,
    eosManager: eosManager(),
    retrier: createRetry({ initialRetryTime: 5, retries: 5 }),
  });
  const messages: Message[] = [
    { key: 'a', value: 'a', partition: 0 },
    { key: 'b', value: 'b', partition: 1 },
    { key: 'c', value: 'c', partition: 0 },
  ];
  const responses = await send({ acks: -1, timeout: 1000, topicMessages: [{ topic: 't', messages }] });
  return { produced, responses };
}

describe('KafkaJS send across brokers, one of which fails (patched)', () => {
  it('writes each partition once when the other broker is still answering at the retry', async () => {
    // Broker 1 answers after the retry has begun: unpatched, its batch was sent again.
    const { produced, responses } = await sendAcrossBrokers(50);
    expect(produced.map((p) => p.partition).sort()).toEqual([0, 1]);
    expect(produced.find((p) => p.partition === 0)).toMatchObject({ firstSequence: 0, keys: ['a', 'c'] });
    // The failed batch keeps its sequence number: had it reached the log, the broker drops the copy.
    expect(produced.find((p) => p.partition === 1)).toMatchObject({
      broker: 1,
      firstSequence: 0,
      keys: ['b'],
    });
    expect(responses.map((r) => r.partition).sort()).toEqual([0, 1]);
  });

  it('writes the failed partition on its new leader when that broker had already answered', async () => {
    // Broker 1 answers at once: unpatched, partition 1 (now on broker 1) was never sent, yet acknowledged.
    const { produced } = await sendAcrossBrokers(0);
    expect(produced.map((p) => `${p.broker}/${p.partition}`).sort()).toEqual(['1/0', '1/1']);
  });
});
