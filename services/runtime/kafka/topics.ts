// The topic catalog: every topic the system owns, with its kind and retention.
// Provisioning, schema registration and the consumer runner all read this one
// list, so a topic cannot exist in one place and be missing in another.
//
// Names carry the namespace TOPIC_PREFIX (empty by default), and so do consumer groups: two
// environments, or a benchmark beside the live system, share one Kafka cluster without seeing each
// other's events or offsets. The prefix is read once, when this module loads, so every topic name in a
// process carries the same one; code that needs another namespace in-process asks for `topicsIn(prefix)`.
import { infrastructureEnv, loadConfig } from '../config.ts';
import type { Replication } from './replication.ts';

export type TopicKind = 'compacted' | 'stream';

export interface TopicSpec {
  /** The topic's name in Kafka, namespace included. */
  name: string;
  kind: TopicKind;
  /**
   * The schema this topic carries, as the name of its file in schemas/ (`<primary topic>.avsc`, without
   * any namespace): the topic's own, or for a retry topic the topic it belongs to.
   */
  schemaOf: string | null;
  /** retention.ms; -1 keeps forever (Kafka is the system of record for what the read models are built from). */
  retentionMs: number;
  description: string;
  /**
   * Partitions when the topic must have exactly this many, whatever TOPIC_PARTITIONS says: a topic
   * whose events make sense only in one total order (news.stories.v1) has one.
   */
  partitions?: number;
}

const day = 24 * 60 * 60 * 1000;
const forever = -1;

/** The topics' names without a namespace, which are also their schema files' names. */
const baseNames = {
  sources: 'news.sources.v1',
  sourceSubscriptions: 'news.source-subscriptions.v1',
  feedPolls: 'news.feed-polls.v1',
  articlesDiscovered: 'news.articles.discovered.v1',
  articlesEnriched: 'news.articles.enriched.v1',
  articlesNarrated: 'news.articles.narrated.v1',
  monitors: 'news.monitors.v1',
  alerts: 'news.alerts.v1',
  webhooks: 'news.webhooks.v1',
  webhookDeliveries: 'news.webhook-deliveries.v1',
  documentaries: 'news.documentaries.v1',
  stories: 'news.stories.v1',
  clients: 'news.clients.v1',
} as const;

/**
 * Typed by their base names, which pick each topic's event type (EventsByTopic); the values carry the
 * namespace. Code therefore compares topics with these values, never with a literal name.
 */
export type TopicNames = typeof baseNames;

/** The topic names in a namespace: `prefix` + each name. */
export function topicsIn(prefix: string): TopicNames {
  return Object.fromEntries(
    Object.entries(baseNames).map(([key, name]) => [key, `${prefix}${name}`]),
  ) as unknown as TopicNames;
}

/** This process's namespace (TOPIC_PREFIX, validated as every setting is; empty by default). */
export const topicPrefix: string = loadConfig({ TOPIC_PREFIX: infrastructureEnv.TOPIC_PREFIX }).TOPIC_PREFIX;

export const topicNames: TopicNames = topicsIn(topicPrefix);

/** A consumer group's id in this process's namespace. */
export const consumerGroup = (name: string, prefix = topicPrefix) => `${prefix}${name}`;

const primary: readonly (Omit<TopicSpec, 'schemaOf' | 'name'> & { name: string })[] = [
  {
    name: baseNames.sources,
    kind: 'compacted',
    retentionMs: forever,
    description: 'current state of each source',
  },
  {
    name: baseNames.sourceSubscriptions,
    kind: 'compacted',
    retentionMs: forever,
    description: 'which tenant subscribes to which source',
  },
  {
    name: baseNames.feedPolls,
    kind: 'stream',
    retentionMs: 30 * day,
    description: 'outcome of each feed poll',
  },
  {
    name: baseNames.articlesDiscovered,
    kind: 'stream',
    retentionMs: forever,
    description: 'articles as seen in feeds: the first sighting, then one event per later revision',
  },
  { name: baseNames.articlesEnriched, kind: 'stream', retentionMs: forever, description: 'AI enrichments' },
  {
    name: baseNames.articlesNarrated,
    kind: 'stream',
    retentionMs: forever,
    description: 'article narrations',
  },
  { name: baseNames.monitors, kind: 'compacted', retentionMs: forever, description: 'CRM monitor state' },
  { name: baseNames.alerts, kind: 'stream', retentionMs: forever, description: 'news.alert occurrences' },
  {
    name: baseNames.webhooks,
    kind: 'compacted',
    retentionMs: forever,
    description: 'webhook registrations',
  },
  {
    name: baseNames.webhookDeliveries,
    kind: 'stream',
    retentionMs: 90 * day,
    description: 'delivery jobs and attempts',
  },
  {
    name: baseNames.documentaries,
    kind: 'stream',
    retentionMs: forever,
    description: 'documentary lifecycle',
  },
  {
    name: baseNames.stories,
    kind: 'stream',
    retentionMs: forever,
    partitions: 1,
    description: 'story clustering decisions: article opened or joined a story, stories merged or closed',
  },
  {
    name: baseNames.clients,
    kind: 'compacted',
    retentionMs: forever,
    description: 'API clients and credentials (hashes)',
  },
];

/**
 * The webhook retry schedule: eight attempts over about 28 hours (docs/webhooks.md, "Retries and dead
 * letters"). Tests and demos shorten it through WEBHOOK_RETRY_SCHEDULE.
 */
export const defaultRetrySchedule = ['5s', '5m', '30m', '2h', '5h', '10h', '10h'] as const;

const durationUnits: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

export function parseDuration(text: string): number {
  const match = /^(\d+)(ms|s|m|h|d)$/.exec(text.trim());
  if (!match) throw new Error(`"${text}" is not a duration like 500ms, 5s, 5m, 2h or 1d`);
  return Number(match[1]) * durationUnits[match[2]!]!;
}

const retryTopicIn = (topics: TopicNames, delay: string) => `${topics.webhookDeliveries}.retry-${delay}`;
export const retryTopicName = (delay: string) => retryTopicIn(topicNames, delay);
export const deadLetterTopicName = (topic: string) => `${topic}.dlq`;

/**
 * Every topic to provision: the primary topics, one retry topic per distinct
 * delay of the webhook schedule, and a dead-letter topic for each of those.
 */
export function topicCatalog(
  retrySchedule: readonly string[] = defaultRetrySchedule,
  prefix: string = topicPrefix,
): TopicSpec[] {
  const topics = topicsIn(prefix);
  const specs: TopicSpec[] = primary.map((t) => ({ ...t, name: `${prefix}${t.name}`, schemaOf: t.name }));
  const longestDelay = Math.max(0, ...retrySchedule.map(parseDuration));
  for (const delay of new Set(retrySchedule)) {
    specs.push({
      name: retryTopicIn(topics, delay),
      kind: 'stream',
      schemaOf: baseNames.webhookDeliveries,
      // A job waits up to its delay before it is due; keep it well beyond that.
      retentionMs: Math.max(7 * day, 2 * longestDelay),
      description: `webhook delivery jobs due ${delay} after the previous attempt`,
    });
  }
  // Dead letters keep the original bytes (no schema: a poison message may not even be Avro).
  const deadLetters = specs.map<TopicSpec>((t) => ({
    name: deadLetterTopicName(t.name),
    kind: 'stream',
    schemaOf: null,
    retentionMs: 30 * day,
    description: `messages from ${t.name} that could not be processed, with the reason in headers`,
  }));
  return [...specs, ...deadLetters];
}

/**
 * Kafka topic configs for a spec, on a topic of `replication.replicationFactor` replicas: its
 * min.insync.replicas (replication.ts) is set on the topic itself, so that it follows the topic's own
 * replica count and not whatever the broker's default is.
 */
export function topicConfig(
  spec: TopicSpec,
  replication: Pick<Replication, 'minInsyncReplicas'>,
): Record<string, string> {
  const config: Record<string, string> = {
    'retention.ms': String(spec.retentionMs),
    'min.insync.replicas': String(replication.minInsyncReplicas),
  };
  if (spec.kind === 'compacted') {
    config['cleanup.policy'] = 'compact';
    // Keep tombstones long enough for a slow consumer to see a deletion.
    config['delete.retention.ms'] = String(1 * day);
    config['min.compaction.lag.ms'] = String(60 * 60 * 1000);
  } else {
    config['cleanup.policy'] = 'delete';
  }
  return config;
}
