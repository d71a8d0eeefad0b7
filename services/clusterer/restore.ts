// Rebuilds the clusterer from news.stories.v1: every decision on the topic, applied in order (the
// topic has one partition, so its order is the order they were made in).
import type { Kafka } from 'kafkajs';
import type { StoryEvent } from '../runtime/events/types.generated.ts';
import type { EventCodec } from '../runtime/kafka/registry.ts';
import { partitionOffsets, replay, wholeLog } from '../runtime/kafka/replay.ts';
import { topicNames } from '../runtime/kafka/topics.ts';
import type { Logger } from '../runtime/logger.ts';
import { StoryClusterer, type ClusteringSettings } from '../stories/story-clusterer.ts';
import { storyDecision } from '../stories/story-events.ts';

export async function restoreClusterer(options: {
  kafka: Kafka;
  codec: EventCodec;
  logger: Logger;
  settings: ClusteringSettings;
}): Promise<StoryClusterer> {
  const started = Date.now();
  const admin = options.kafka.admin();
  await admin.connect();
  let ranges;
  try {
    ranges = wholeLog(await partitionOffsets(admin, [topicNames.stories]));
  } finally {
    await admin.disconnect();
  }
  const clusterer = new StoryClusterer(options.settings);
  let skipped = 0;
  const result = await replay({
    kafka: options.kafka,
    codec: options.codec,
    logger: options.logger,
    ranges,
    project: async (events) => {
      for (const event of events) {
        const decision = event.value ? storyDecision(event.value as StoryEvent) : null;
        if (decision) clusterer.apply(decision);
        else skipped += 1;
      }
    },
  });
  options.logger.info(
    {
      events: result.events,
      skipped: skipped + result.skipped,
      articles: clusterer.articles,
      openStories: clusterer.openStories,
      ms: Date.now() - started,
    },
    'story state rebuilt from news.stories.v1',
  );
  return clusterer;
}
