// news.breaking: a story's `breaking` decision on news.stories.v1 (docs/stories.md#breaking-news)
// becomes one pending delivery job per webhook (of any tenant) that subscribes to news.breaking and whose
// filter one of the story's articles passes. The articles' facts come from the read model, since the
// decision names only their ids. The job's id is derived from (news.breaking, story, webhook): the
// clusterer decides a story is breaking once, and a replay or a retried batch appends the same job
// again, which receivers dedupe on `webhook-id`.
import type { ClickHouse } from '../runtime/clickhouse/client.ts';
import type { StoryEvent, WebhookDelivery } from '../runtime/events/types.generated.ts';
import type { BatchHandler } from '../runtime/kafka/consumer.ts';
import { ReadModelWait } from '../runtime/clickhouse/read-model-wait.ts';
import { DependencyUnavailableError } from '../runtime/kafka/errors.ts';
import type { EventProducer } from '../runtime/kafka/producer.ts';
import { topicNames } from '../runtime/kafka/topics.ts';
import type { Logger } from '../runtime/logger.ts';
import type { ArticleFacts } from '../monitors/alert-raiser.ts';
import { readArticleFacts } from '../monitors/article-facts.ts';
import { breakingData } from '../webhooks/breaking-data.ts';
import { NEWS_BREAKING } from '../webhooks/event-types.ts';
import { passesFilter } from './article-fan-out.ts';
import { firstDeliveryJob } from './fan-out.ts';
import type { WebhookDirectory } from './webhook-directory.ts';

/** The news.breaking body (services/webhooks/payloads.ts describes it). */
export function breakingPayload(event: StoryEvent, articles: readonly ArticleFacts[]): string {
  return JSON.stringify({
    event: NEWS_BREAKING,
    timestamp: new Date(event.occurred_at).toISOString(),
    data: breakingData(event, articles),
  });
}

export interface BreakingFanOutDeps {
  directory: Pick<WebhookDirectory, 'catchUp' | 'subscribersOf'>;
  clickhouse: ClickHouse;
  producer: Pick<EventProducer, 'send'>;
  logger: Logger;
  /** How long a decision waits for its articles to reach the read model before it goes with those there. */
  articleWaitMs: number;
  clock?: () => Date;
}

export function breakingFanOutHandler(deps: BreakingFanOutDeps): BatchHandler<StoryEvent> {
  const clock = deps.clock ?? (() => new Date());
  const articleWait = new ReadModelWait(deps.articleWaitMs, () => clock().getTime());
  return async (events) => {
    const breaking = events.flatMap((e) => (e.value?.type === 'breaking' ? [e.value] : []));
    if (breaking.length === 0) return;
    await deps.directory.catchUp();
    const webhooks = deps.directory.subscribersOf(NEWS_BREAKING);
    if (webhooks.length === 0) return;
    const facts = await articleWait.read(() =>
      readArticleFacts(deps.clickhouse, [...new Set(breaking.flatMap((e) => e.article_ids))]),
    );
    const now = clock();
    const jobs: WebhookDelivery[] = [];
    for (const event of breaking) {
      const articles = event.article_ids.flatMap((id) => facts.get(id) ?? []);
      if (articles.length < event.article_ids.length && articleWait.waiting(event.occurred_at, now.getTime()))
        throw new DependencyUnavailableError(
          `the read model does not show every article of story ${event.story_id} yet`,
        );
      if (articles.length === 0) {
        deps.logger.warn(
          { storyId: event.story_id },
          'no article of the breaking story in the read model; not sent',
        );
        continue;
      }
      const payload = breakingPayload(event, articles);
      for (const webhook of webhooks) {
        if (!articles.some((a) => passesFilter(webhook, a, { category: null, language: null }))) continue;
        jobs.push(firstDeliveryJob({ type: NEWS_BREAKING, id: event.story_id, payload }, webhook, now));
      }
    }
    if (jobs.length === 0) return;
    await deps.producer.send(
      topicNames.webhookDeliveries,
      jobs.map((job) => ({ key: job.webhook_id, value: job })),
    );
  };
}
