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
  // Joins and merges naming a story that is not open: counted and named (the first few), not applied.
  let unapplied = 0;
  const unappliedExamples: string[] = [];
  const result = await replay({
    kafka: options.kafka,
    codec: options.codec,
    logger: options.logger,
    ranges,
    project: async (events) => {
      for (const event of events) {
        const decision = event.value ? storyDecision(event.value as StoryEvent) : null;
        if (!decision) skipped += 1;
        else if (!clusterer.apply(decision)) {
          unapplied += 1;
          if (unappliedExamples.length < 5)
            unappliedExamples.push(`${decision.type} ${decision.storyId} at offset ${event.offset}`);
        }
      }
    },
  });
  if (unapplied > 0)
    options.logger.warn(
      { topic: topicNames.stories, unapplied, examples: unappliedExamples },
      'the story topic holds joins or merges of stories that are not open (their opening expired or another producer wrote them): left out of the rebuilt state',
    );
  options.logger.info(
    {
      events: result.events,
      skipped: skipped + result.skipped,
      unapplied,
      articles: clusterer.articles,
      openStories: clusterer.openStories,
      ms: Date.now() - started,
    },
    'story state rebuilt from news.stories.v1',
  );
  return clusterer;
}
