// The topic catalog: every topic the system owns, with its kind and retention.
// Provisioning, schema registration and the consumer runner all read this one
// list, so a topic cannot exist in one place and be missing in another.

export type TopicKind = 'compacted' | 'stream';

export interface TopicSpec {
  name: string;
  kind: TopicKind;
  /** The primary topic whose Avro schema this topic carries (itself, or the topic a retry topic belongs to). */
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

export const topicNames = {
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

export type TopicName = (typeof topicNames)[keyof typeof topicNames];

const primary: readonly Omit<TopicSpec, 'schemaOf'>[] = [
  {
    name: topicNames.sources,
    kind: 'compacted',
    retentionMs: forever,
    description: 'current state of each source',
  },
  {
    name: topicNames.sourceSubscriptions,
    kind: 'compacted',
    retentionMs: forever,
    description: 'which tenant subscribes to which source',
  },
  {
    name: topicNames.feedPolls,
    kind: 'stream',
    retentionMs: 30 * day,
    description: 'outcome of each feed poll',
  },
  {
    name: topicNames.articlesDiscovered,
    kind: 'stream',
    retentionMs: forever,
    description: 'articles as seen in feeds: the first sighting, then one event per later revision',
  },
  { name: topicNames.articlesEnriched, kind: 'stream', retentionMs: forever, description: 'AI enrichments' },
  {
    name: topicNames.articlesNarrated,
    kind: 'stream',
    retentionMs: forever,
    description: 'article narrations',
  },
  { name: topicNames.monitors, kind: 'compacted', retentionMs: forever, description: 'CRM monitor state' },
  { name: topicNames.alerts, kind: 'stream', retentionMs: forever, description: 'news.alert occurrences' },
  {
    name: topicNames.webhooks,
    kind: 'compacted',
    retentionMs: forever,
    description: 'webhook registrations',
  },
  {
    name: topicNames.webhookDeliveries,
    kind: 'stream',
    retentionMs: 90 * day,
    description: 'delivery jobs and attempts',
  },
  {
    name: topicNames.documentaries,
    kind: 'stream',
    retentionMs: forever,
    description: 'documentary lifecycle',
  },
  {
    name: topicNames.stories,
    kind: 'stream',
    retentionMs: forever,
    partitions: 1,
    description: 'story clustering decisions: article opened or joined a story, stories merged or closed',
  },
  {
    name: topicNames.clients,
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

export const retryTopicName = (delay: string) => `${topicNames.webhookDeliveries}.retry-${delay}`;
export const deadLetterTopicName = (topic: string) => `${topic}.dlq`;

/**
 * Every topic to provision: the primary topics, one retry topic per distinct
 * delay of the webhook schedule, and a dead-letter topic for each of those.
 */
export function topicCatalog(retrySchedule: readonly string[] = defaultRetrySchedule): TopicSpec[] {
  const specs: TopicSpec[] = primary.map((t) => ({ ...t, schemaOf: t.name }));
  const longestDelay = Math.max(0, ...retrySchedule.map(parseDuration));
  for (const delay of new Set(retrySchedule)) {
    specs.push({
      name: retryTopicName(delay),
      kind: 'stream',
      schemaOf: topicNames.webhookDeliveries,
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

/** Kafka topic configs for a spec. */
export function topicConfig(spec: TopicSpec): Record<string, string> {
  const config: Record<string, string> = { 'retention.ms': String(spec.retentionMs) };
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
