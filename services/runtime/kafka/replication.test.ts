import type { Admin } from 'kafkajs';
import { describe, expect, it } from 'vitest';
import {
  clusterBrokers,
  clusterReplication,
  minInsyncReplicasFor,
  replicationFactorFor,
  withClusterReplication,
} from './replication.ts';

/** An admin that knows a cluster: the brokers that answer, and the replica lists of its topics. */
function fakeAdmin(live: number[], replicaLists: number[][] = []): Admin {
  return {
    describeCluster: async () => ({
      brokers: live.map((nodeId) => ({ nodeId, host: '127.0.0.1', port: 9092 + 2 * (nodeId - 1) })),
      controller: live[0] ?? null,
      clusterId: 'test',
    }),
    fetchTopicMetadata: async () => ({
      topics: [
        {
          name: 'news.sources.v1',
          partitions: replicaLists.map((replicas, partitionId) => ({
            partitionId,
            partitionErrorCode: 0,
            leader: replicas[0]!,
            replicas,
            isr: replicas,
            offlineReplicas: [],
          })),
        },
      ],
    }),
  } as unknown as Admin;
}

describe('replication', () => {
  it('gives one replica on one broker, two on two, three from three brokers on', () => {
    expect([1, 2, 3, 4, 9].map(replicationFactorFor)).toEqual([1, 2, 3, 3, 3]);
  });

  it('keeps min.insync.replicas below the replicas (one broker down never stops writes), at least 1', () => {
    expect([1, 2, 3, 4, 5].map(minInsyncReplicasFor)).toEqual([1, 1, 2, 3, 3]);
    for (let rf = 2; rf <= 10; rf++) expect(minInsyncReplicasFor(rf)).toBeLessThanOrEqual(rf - 1);
  });

  it('counts a broker that is down but still holds replicas as part of the cluster', async () => {
    expect(await clusterBrokers(fakeAdmin([1, 3], [[1, 2, 3]]))).toBe(3);
    expect(await clusterBrokers(fakeAdmin([1]))).toBe(1);
  });

  it('derives RF 3 / min.insync.replicas 2 on three brokers and 1/1 on one, unless configured', async () => {
    expect(await clusterReplication(fakeAdmin([1, 2, 3]))).toEqual({
      replicationFactor: 3,
      minInsyncReplicas: 2,
    });
    expect(await clusterReplication(fakeAdmin([1]))).toEqual({ replicationFactor: 1, minInsyncReplicas: 1 });
    expect(await clusterReplication(fakeAdmin([1, 2, 3]), 2)).toEqual({
      replicationFactor: 2,
      minInsyncReplicas: 1,
    });
  });

  it('refuses a configured factor above the brokers there are, naming the setting', async () => {
    await expect(clusterReplication(fakeAdmin([1]), 3)).rejects.toThrow(
      /TOPIC_REPLICATION_FACTOR is 3, but the Kafka cluster has 1 broker/,
    );
  });

  it("puts the cluster's replication on topics that tests and benchmarks create", async () => {
    const [topic] = await withClusterReplication(fakeAdmin([1, 2, 3]), [
      { topic: 't', numPartitions: 6, configEntries: [{ name: 'min.insync.replicas', value: '3' }] },
    ]);
    expect(topic).toEqual({
      topic: 't',
      numPartitions: 6,
      replicationFactor: 3,
      configEntries: [{ name: 'min.insync.replicas', value: '2' }],
    });
  });
});
