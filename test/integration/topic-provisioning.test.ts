// Provisioning created every topic with its partitions, replicas, min.insync.replicas and cleanup policy.
import kafkajs, { type Admin } from 'kafkajs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clusterReplication, replicationOf } from '../../services/runtime/kafka/replication.ts';
import { topicCatalog, topicConfig, topicNames } from '../../services/runtime/kafka/topics.ts';
import { testKafka } from './support/kafka.ts';

const { ConfigResourceTypes } = kafkajs;

describe('topic provisioning', () => {
  let admin: Admin;
  const catalog = topicCatalog();

  beforeAll(async () => {
    admin = testKafka().admin();
    await admin.connect();
  });
  afterAll(async () => admin?.disconnect());

  it('created every catalogued topic, dead-letter and retry topics included, with 6 partitions unless the catalog fixes the count', async () => {
    const metadata = await admin.fetchTopicMetadata({ topics: catalog.map((t) => t.name) });
    expect(metadata.topics.map((t) => t.name).sort()).toEqual(catalog.map((t) => t.name).sort());
    const fixed = new Map(catalog.map((t) => [t.name, t.partitions ?? 6]));
    for (const t of metadata.topics) expect(t.partitions.length, t.name).toBe(fixed.get(t.name));
    expect(fixed.get(topicNames.stories)).toBe(1);
  });

  it("gave every topic the cluster's replication: 1 replica on one broker, 3 with min.insync.replicas 2 on three", async () => {
    const { replicationFactor } = await clusterReplication(admin);
    const metadata = await admin.fetchTopicMetadata({ topics: catalog.map((t) => t.name) });
    for (const t of metadata.topics)
      for (const p of t.partitions)
        expect(p.replicas.length, `${t.name}/${p.partitionId}`).toBe(replicationFactor);
  });

  it('set cleanup policy, retention and min.insync.replicas as the catalog says', async () => {
    const metadata = await admin.fetchTopicMetadata({ topics: catalog.map((t) => t.name) });
    const replicas = new Map(metadata.topics.map((t) => [t.name, t.partitions[0]!.replicas.length]));
    const described = await admin.describeConfigs({
      includeSynonyms: false,
      resources: catalog.map((t) => ({ type: ConfigResourceTypes.TOPIC, name: t.name })),
    });
    const byName = new Map(described.resources.map((r) => [r.resourceName, r.configEntries]));
    for (const spec of catalog) {
      const entries = new Map(byName.get(spec.name)!.map((e) => [e.configName, e.configValue]));
      for (const [name, value] of Object.entries(topicConfig(spec, replicationOf(replicas.get(spec.name)!))))
        expect(entries.get(name), `${spec.name} ${name}`).toBe(value);
    }
    expect(
      new Map(byName.get(topicNames.sources)!.map((e) => [e.configName, e.configValue])).get(
        'cleanup.policy',
      ),
    ).toBe('compact');
  });
});
