// The retry topics of a test-shortened webhook schedule (provisioning made those of the default
// one), with their dead-letter topics, and their schema registered.
import type { Admin } from 'kafkajs';
import { createTopicsAndWait } from '../../../services/runtime/kafka/create-topics.ts';
import { clusterReplication } from '../../../services/runtime/kafka/replication.ts';
import {
  createSchemaRegistry,
  localTypes,
  registerSchemas,
} from '../../../services/runtime/kafka/registry.ts';
import { retryTopicName, topicCatalog, topicConfig } from '../../../services/runtime/kafka/topics.ts';
import { stack } from './stack.ts';

export async function provisionRetryTopics(admin: Admin, schedule: readonly string[]): Promise<void> {
  const retryNames = new Set(schedule.map(retryTopicName));
  const specs = topicCatalog(schedule).filter(
    (t) => retryNames.has(t.name) || retryNames.has(t.name.replace(/\.dlq$/, '')),
  );
  const existing = new Set(await admin.listTopics());
  const replication = await clusterReplication(admin);
  await createTopicsAndWait(
    admin,
    specs
      .filter((t) => !existing.has(t.name))
      .map((t) => ({
        topic: t.name,
        numPartitions: Number(process.env.TOPIC_PARTITIONS ?? 6),
        replicationFactor: replication.replicationFactor,
        configEntries: Object.entries(topicConfig(t, replication)).map(([name, value]) => ({ name, value })),
      })),
  );
  await registerSchemas(createSchemaRegistry(stack.SCHEMA_REGISTRY_URL), localTypes(specs));
}
