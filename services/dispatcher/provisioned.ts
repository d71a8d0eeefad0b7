// The retry topics come from WEBHOOK_RETRY_SCHEDULE, and provisioning creates them from its own copy of
// that setting. If the two differ, the first failed delivery would find no topic (or no schema) to move
// its job to; checking at start turns that into one clear message instead.
import type { Kafka } from 'kafkajs';
import type { WebhookDelivery } from '../runtime/events/types.generated.ts';
import type { EventCodec } from '../runtime/kafka/registry.ts';
import { deadLetterTopicName, topicNames } from '../runtime/kafka/topics.ts';
import { NEWS_ALERT } from '../webhooks/event-types.ts';

export async function checkProvisioned(
  kafka: Kafka,
  codec: Pick<EventCodec, 'encode'>,
  deliveryTopics: readonly string[],
  schedule: readonly string[],
): Promise<void> {
  const hint = `run \`npm run provision\` with WEBHOOK_RETRY_SCHEDULE=${schedule.join(',')}`;
  const admin = kafka.admin();
  await admin.connect();
  let existing: Set<string>;
  try {
    existing = new Set(await admin.listTopics());
  } finally {
    await admin.disconnect();
  }
  const needed = [
    topicNames.alerts,
    topicNames.documentaries,
    topicNames.stories,
    topicNames.webhooks,
    ...deliveryTopics,
    deadLetterTopicName(topicNames.webhookDeliveries),
  ];
  const missing = needed.filter((topic) => !existing.has(topic));
  if (missing.length > 0) throw new Error(`topic(s) ${missing.join(', ')} do not exist: ${hint}`);
  // Encoding looks the schema id up (and caches it): an unregistered subject fails here, not mid-delivery.
  for (const topic of deliveryTopics) {
    try {
      await codec.encode(topic, sampleJob);
    } catch (error) {
      throw new Error(`${(error as Error).message}; ${hint}`, { cause: error });
    }
  }
}

const sampleJob: WebhookDelivery = {
  delivery_id: 'msg_check',
  webhook_id: 'check',
  tenant_id: 'check',
  event_type: NEWS_ALERT,
  event_id: 'check',
  payload_json: '{}',
  attempt: 1,
  due_at: 0,
  status: 'pending',
  last_http_status: null,
  last_error: null,
  occurred_at: 0,
};
