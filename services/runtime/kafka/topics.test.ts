import { describe, expect, it } from 'vitest';
import { readSchemaFiles } from '../events/schema-files.ts';
import { localTypes } from './registry.ts';
import { replicationOf } from './replication.ts';
import { consumerGroup, parseDuration, topicCatalog, topicConfig, topicNames, topicsIn } from './topics.ts';

describe('topic catalog', () => {
  const catalog = topicCatalog();
  const byName = new Map(catalog.map((t) => [t.name, t]));

  it('has a schema file for every primary topic and a topic for every schema file', () => {
    const schemaTopics = readSchemaFiles().map((s) => s.topic);
    expect(schemaTopics.sort()).toEqual(Object.values(topicNames).sort());
  });

  it('compacts the state topics (docs/architecture.md, "Topics") and only those', () => {
    const compacted = catalog.filter((t) => t.kind === 'compacted').map((t) => t.name);
    expect(compacted.sort()).toEqual(
      [
        'news.sources.v1',
        'news.source-subscriptions.v1',
        'news.monitors.v1',
        'news.webhooks.v1',
        'news.clients.v1',
      ].sort(),
    );
    const single = replicationOf(1);
    expect(topicConfig(byName.get('news.monitors.v1')!, single)['cleanup.policy']).toBe('compact');
    expect(topicConfig(byName.get('news.alerts.v1')!, single)['cleanup.policy']).toBe('delete');
  });

  it('creates one retry topic per distinct delay, carrying the deliveries schema', () => {
    const retries = catalog.filter((t) => t.name.includes('.retry-') && !t.name.endsWith('.dlq'));
    expect(retries.map((t) => t.name)).toEqual([
      'news.webhook-deliveries.v1.retry-5s',
      'news.webhook-deliveries.v1.retry-5m',
      'news.webhook-deliveries.v1.retry-30m',
      'news.webhook-deliveries.v1.retry-2h',
      'news.webhook-deliveries.v1.retry-5h',
      'news.webhook-deliveries.v1.retry-10h',
    ]);
    expect(retries.every((t) => t.schemaOf === 'news.webhook-deliveries.v1')).toBe(true);
    expect(retries.every((t) => t.retentionMs >= 2 * parseDuration('10h'))).toBe(true);
  });

  it('gives every topic a dead-letter topic without a schema', () => {
    const nonDlq = catalog.filter((t) => !t.name.endsWith('.dlq'));
    for (const t of nonDlq) expect(byName.get(`${t.name}.dlq`)?.schemaOf).toBeNull();
  });

  it('follows a shortened schedule', () => {
    const names = topicCatalog(['1s', '2s', '2s']).map((t) => t.name);
    expect(names).toContain('news.webhook-deliveries.v1.retry-1s');
    expect(names.filter((n) => n.endsWith('.retry-2s'))).toHaveLength(1);
  });

  it('puts every topic of a namespace under its prefix, and keeps each schema file its own', () => {
    const staged = topicCatalog(['5s'], 'staging.');
    const plain = topicCatalog(['5s'], '');
    expect(staged.map((t) => t.name)).toEqual(plain.map((t) => `staging.${t.name}`));
    expect(staged.map((t) => t.schemaOf)).toEqual(plain.map((t) => t.schemaOf));
    expect(staged.map((t) => t.name)).toContain('staging.news.webhook-deliveries.v1.retry-5s.dlq');
    expect(topicsIn('staging.').alerts).toBe('staging.news.alerts.v1');
    // The Avro types follow the names: a namespaced topic reads and writes its base topic's schema.
    const types = localTypes(staged);
    expect(types.get('staging.news.webhook-deliveries.v1.retry-5s')?.file).toMatch(
      /news\.webhook-deliveries\.v1\.avsc$/,
    );
    expect(types.has('news.alerts.v1')).toBe(false);
  });

  it('names topics and consumer groups in the namespace of TOPIC_PREFIX, empty unless set', () => {
    expect(process.env.TOPIC_PREFIX ?? '').toBe('');
    expect(topicNames.alerts).toBe('news.alerts.v1');
    expect(consumerGroup('projector')).toBe('projector');
    expect(consumerGroup('projector', 'bench.x.')).toBe('bench.x.projector');
  });

  it('parses durations and rejects nonsense', () => {
    expect(parseDuration('250ms')).toBe(250);
    expect(parseDuration('5m')).toBe(300_000);
    expect(() => parseDuration('5 minutes')).toThrow(/not a duration/);
  });
});
