// How many copies of each partition the cluster keeps, and how many must have a write before acks=all
// answers. One broker: 1 and 1 (nothing else is possible). A cluster: 3 replicas (as many as there
// are brokers, below three) and min.insync.replicas one less than the replicas, at most a majority,
// so that one broker down (killed, restarted, upgraded) never stops a write while every acknowledged
// write is on at least two brokers. docker/stack/stack.sh renders the same rule into the brokers'
// defaults for their internal topics (offsets, transaction state).
import type { Admin, ITopicConfig } from 'kafkajs';

export interface Replication {
  replicationFactor: number;
  minInsyncReplicas: number;
}

/** The replicas a new topic gets on a cluster of `brokers` brokers. */
export const replicationFactorFor = (brokers: number): number => Math.max(1, Math.min(3, brokers));

/**
 * min.insync.replicas for a topic of `replicationFactor` replicas: a majority, but never all of them
 * (RF − 1 at most, 1 at least), so that losing one replica leaves the topic writable.
 */
export const minInsyncReplicasFor = (replicationFactor: number): number =>
  Math.max(1, Math.min(Math.floor(replicationFactor / 2) + 1, replicationFactor - 1));

export function replicationOf(replicationFactor: number): Replication {
  return { replicationFactor, minInsyncReplicas: minInsyncReplicasFor(replicationFactor) };
}

/**
 * The brokers of the cluster: those that answer, and those that existing partitions are assigned to (a
 * broker that is down drops out of the metadata, but not out of the replica lists), so that a topic
 * created while one broker is down still asks for every replica rather than quietly getting fewer.
 */
export async function clusterBrokers(admin: Admin): Promise<number> {
  const [{ brokers }, { topics }] = await Promise.all([admin.describeCluster(), admin.fetchTopicMetadata()]);
  const ids = new Set(brokers.map((b) => b.nodeId));
  for (const topic of topics) for (const p of topic.partitions) for (const id of p.replicas) ids.add(id);
  return ids.size;
}

/**
 * The replication of new topics: `configured` (TOPIC_REPLICATION_FACTOR) when set, else derived from
 * the cluster's size. A configured factor above the brokers there are is refused here, by name.
 */
export async function clusterReplication(admin: Admin, configured?: number): Promise<Replication> {
  const brokers = await clusterBrokers(admin);
  if (configured !== undefined && configured > brokers)
    throw new Error(
      `TOPIC_REPLICATION_FACTOR is ${configured}, but the Kafka cluster has ${brokers} broker(s): a topic cannot ` +
        'have more replicas than there are brokers',
    );
  return replicationOf(configured ?? replicationFactorFor(brokers));
}

/**
 * Topic creation requests with the cluster's replication: replicas and min.insync.replicas as
 * provisioning gives them (for the topics of tests and benchmarks, which provisioning does not know).
 */
export async function withClusterReplication(
  admin: Admin,
  topics: readonly ITopicConfig[],
): Promise<ITopicConfig[]> {
  const { replicationFactor, minInsyncReplicas } = await clusterReplication(admin);
  return topics.map((t) => ({
    ...t,
    replicationFactor,
    configEntries: [
      ...(t.configEntries ?? []).filter((e) => e.name !== 'min.insync.replicas'),
      { name: 'min.insync.replicas', value: String(minInsyncReplicas) },
    ],
  }));
}
