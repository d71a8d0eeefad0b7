// Creates every catalogued topic that does not exist yet, and brings the
// configs of existing ones in line with the catalog. Partition counts only grow
// (Kafka cannot shrink them, and growing them reshuffles keys, so we say so).
import kafkajs, { type Admin } from 'kafkajs';
import type { Logger } from '../logger.ts';
import { topicConfig, type TopicSpec } from './topics.ts';
import { createTopicsAndWait } from './create-topics.ts';

// KafkaJS is CommonJS: its enums are reachable through the default export only under Node's ESM loader.
const { ConfigResourceTypes } = kafkajs;

export interface ProvisionOptions {
  partitions: number;
  replicationFactor: number;
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
  const existing = new Set(await admin.listTopics());
  const missing = catalog.filter((t) => !existing.has(t.name));
  if (missing.length > 0) {
    await createTopicsAndWait(
      admin,
      missing.map((t) => ({
        topic: t.name,
        numPartitions: t.partitions ?? options.partitions,
        replicationFactor: options.replicationFactor,
        configEntries: Object.entries(topicConfig(t)).map(([name, value]) => ({ name, value })),
      })),
    );
  }

  const present = catalog.filter((t) => existing.has(t.name));
  const updated: string[] = [];
  if (present.length > 0) {
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
      const wanted = topicConfig(spec);
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

    const metadata = await admin.fetchTopicMetadata({ topics: present.map((t) => t.name) });
    const wantedPartitions = new Map(present.map((t) => [t.name, t.partitions ?? options.partitions]));
    for (const topic of metadata.topics) {
      const wanted = wantedPartitions.get(topic.name) ?? options.partitions;
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
    { created: report.created.length, updated: report.updated.length, unchanged: report.unchanged.length },
    'topics provisioned',
  );
  return report;
}
