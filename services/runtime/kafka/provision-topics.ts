// Creates every catalogued topic that does not exist yet, and brings the
// configs of existing ones in line with the catalog. Partition counts only grow
// (Kafka cannot shrink them, and growing them reshuffles keys, so we say so); replica counts are not
// changed either (a reassignment moves data between brokers: an operator's decision), only reported.
// New topics get the replication of the cluster's size unless one is configured (replication.ts).
import kafkajs, { type Admin } from 'kafkajs';
import type { Logger } from '../logger.ts';
import { topicConfig, type TopicSpec } from './topics.ts';
import { createTopicsAndWait } from './create-topics.ts';
import { clusterReplication, replicationOf, type Replication } from './replication.ts';

// KafkaJS is CommonJS: its enums are reachable through the default export only under Node's ESM loader.
const { ConfigResourceTypes } = kafkajs;

export interface ProvisionOptions {
  partitions: number;
  /** Replicas of each new topic; unset: from the cluster's size (replication.ts). */
  replicationFactor?: number;
}

export interface ProvisionReport {
  created: string[];
  updated: string[];
  unchanged: string[];
}

export async function provisionTopics(
  admin: Admin,
  catalog: readonly TopicSpec[],
  options: ProvisionOptions,
  logger: Logger,
): Promise<ProvisionReport> {
  const replication = await clusterReplication(admin, options.replicationFactor);
  const existing = new Set(await admin.listTopics());
  const missing = catalog.filter((t) => !existing.has(t.name));
  if (missing.length > 0) {
    await createTopicsAndWait(
      admin,
      missing.map((t) => ({
        topic: t.name,
        numPartitions: t.partitions ?? options.partitions,
        replicationFactor: replication.replicationFactor,
        configEntries: Object.entries(topicConfig(t, replication)).map(([name, value]) => ({ name, value })),
      })),
    );
  }

  const present = catalog.filter((t) => existing.has(t.name));
  const updated: string[] = [];
  if (present.length > 0) {
    const metadata = await admin.fetchTopicMetadata({ topics: present.map((t) => t.name) });
    // An existing topic keeps its replicas, and its min.insync.replicas follows them (one less than a
    // topic of three, 1 on a topic of one), whatever new topics get.
    const replicas = new Map<string, Replication>(
      metadata.topics.map((t) => [t.name, replicationOf(t.partitions[0]?.replicas.length ?? 1)]),
    );
    const described = await admin.describeConfigs({
      includeSynonyms: false,
      resources: present.map((t) => ({ type: ConfigResourceTypes.TOPIC, name: t.name })),
    });
    const actual = new Map(
      described.resources.map((r) => [
        r.resourceName,
        new Map(r.configEntries.map((e) => [e.configName, e.configValue])),
      ]),
    );
    for (const spec of present) {
      const wanted = topicConfig(spec, replicas.get(spec.name) ?? replication);
      const current = actual.get(spec.name);
      const drift = Object.entries(wanted).filter(([name, value]) => current?.get(name) !== value);
      if (drift.length === 0) continue;
      // Incremental alter is not in KafkaJS; alterConfigs replaces the topic's
      // dynamic configs, so send the whole wanted set.
      await admin.alterConfigs({
        validateOnly: false,
        resources: [
          {
            type: ConfigResourceTypes.TOPIC,
            name: spec.name,
            configEntries: Object.entries(wanted).map(([name, value]) => ({ name, value })),
          },
        ],
      });
      updated.push(spec.name);
    }

    const wantedPartitions = new Map(present.map((t) => [t.name, t.partitions ?? options.partitions]));
    for (const topic of metadata.topics) {
      const wanted = wantedPartitions.get(topic.name) ?? options.partitions;
      const has = replicas.get(topic.name)?.replicationFactor ?? replication.replicationFactor;
      if (has < replication.replicationFactor) {
        logger.warn(
          { topic: topic.name, has, wanted: replication.replicationFactor },
          'topic has fewer replicas than new topics get; not reassigning it automatically (kafka-reassign-partitions moves its data)',
        );
      }
      if (topic.partitions.length < wanted) {
        logger.warn(
          { topic: topic.name, has: topic.partitions.length, wanted },
          'topic has fewer partitions than configured; not growing it automatically because keys would move partitions',
        );
      }
    }
  }
  const report = {
    created: missing.map((t) => t.name),
    updated,
    unchanged: present.map((t) => t.name).filter((n) => !updated.includes(n)),
  };
  logger.info(
    {
      created: report.created.length,
      updated: report.updated.length,
      unchanged: report.unchanged.length,
      replicationFactor: replication.replicationFactor,
      minInsyncReplicas: replication.minInsyncReplicas,
    },
    'topics provisioned',
  );
  return report;
}
