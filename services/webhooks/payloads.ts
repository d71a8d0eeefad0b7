// The bodies POSTed to webhook endpoints, one zod schema per event: the OpenAPI document's `webhooks`
// section is produced from them, and the tests check what the dispatcher sends against them. Every
// body is {event, timestamp, data}; news.alert's four data fields are exactly the interface's, the
// others add what a receiver needs to act without calling back.
import { z } from 'zod';
import { readerFields } from '../feeds/normalise/reader-fields.ts';
import {
  ARTICLE_PUBLISHED,
  ARTICLE_UPDATED,
  DOCUMENTARY_FAILED,
  DOCUMENTARY_READY,
  NEWS_ALERT,
  NEWS_BREAKING,
  WEBHOOK_TEST,
  type WebhookEventType,
} from './event-types.ts';
import { articlePublisherSchema } from '../feeds/normalise/article-publisher.ts';

const timestamp = z.string().meta({ description: 'When the event happened, ISO 8601 UTC.' });

export const newsAlertPayload = z
  .object({
    event: z.literal(NEWS_ALERT),
    timestamp,
    data: z.object({
      contact_id: z.string().meta({ description: "The monitor's contact_id, as given." }),
      company: z.string().meta({ description: "The monitor's company, as given." }),
      news_summary: z.string().meta({ description: 'Summary of the article (AI summary, else the feed’s).' }),
      audio_url: z.string().meta({
        description:
          "Narration of the article, signed (no API key needed; valid for AUDIO_URL_WEBHOOK_TTL_SECONDS, 7 days by default, in a webhook delivery, and for AUDIO_URL_TTL_SECONDS, 24 hours by default, on the live stream, like every audio URL the API gives): the stored file's URL when the article was narrated before the alert, else GET /v1/articles/{id}/audio, which redirects to the file once it exists (404 narration_not_ready with Retry-After until then).",
      }),
      alert_id: z
        .string()
        .meta({ description: 'The same for a monitor and an article, however often matched.' }),
      monitor_id: z.string(),
      article_id: z.string(),
      article_title: z.string(),
      article_url: z.string(),
      article_published_at: z
        .string()
        .nullable()
        .meta({
          description:
            'When the article says it was published, ISO 8601 UTC; null when the alert was raised before the ' +
            'article reached the read model, and on alerts raised before this field.',
        }),
      article_source: z
        .string()
        .nullable()
        .meta({
          description:
            'The source (feed) the article was found in; null when the alert was raised before the article ' +
            'reached the read model, and on alerts raised before this field.',
        }),
      article_publisher: articlePublisherSchema,
      matched_terms: z.array(z.string()).meta({
        description:
          "The monitor's names (its company, its aliases) that the article mentions, as the monitor spells them.",
      }),
    }),
  })
  .meta({ id: 'NewsAlertEvent', description: 'A monitored company is mentioned in the news.' });

export const documentaryReadyPayload = z
  .object({
    event: z.literal(DOCUMENTARY_READY),
    timestamp,
    data: z.object({
      documentary_id: z.string(),
      topic: z.string().meta({ description: 'The topic requested, verbatim.' }),
      audio_url: z.string().meta({
        description: 'The documentary (signed; valid for AUDIO_URL_WEBHOOK_TTL_SECONDS, 7 days by default).',
      }),
      transcript_url: z.string().nullable().meta({
        description:
          'Its WebVTT transcript (signed, as audio_url); null when the request asked for audio alone.',
      }),
      transcript_json_url: z
        .string()
        .nullable()
        .meta({
          description:
            'Its JSON transcript: segments with their articles and start times (signed, as audio_url); null ' +
            'when the request asked for audio alone.',
        }),
      duration_ms: z.number().int(),
      language: z.string().meta({ description: 'The language it is spoken in (ISO 639-1 or a locale).' }),
      voice: z.string().nullable().meta({
        description:
          'The voice that spoke it (GET /v1/voices); null on documentaries made before this field.',
      }),
    }),
  })
  .meta({ id: 'DocumentaryReadyEvent', description: 'A requested documentary is ready.' });

export const documentaryFailedPayload = z
  .object({
    event: z.literal(DOCUMENTARY_FAILED),
    timestamp,
    data: z.object({
      documentary_id: z.string(),
      topic: z.string().meta({ description: 'The topic requested, verbatim.' }),
      failure: z.object({
        code: z.string().meta({
          description: 'For programs, as GET /api/v1/documentaries/{id} gives it (`no_articles`, …).',
        }),
        reason: z.string().meta({ description: 'For people: what went wrong.' }),
      }),
    }),
  })
  .meta({
    id: 'DocumentaryFailedEvent',
    description: 'A requested documentary failed; nothing will be made (a new request may succeed).',
  });

/** The two categories of an article in article.published and article.updated (webhooks.md). */
const articleCategories = {
  category: z.string().meta({
    description:
      "The article's category as GET /v1/articles and the stream show it: its feed's, general without one.",
  }),
  classifier_category: z.string().nullable().meta({
    description:
      "The category the AI classifier gave it (enrichment.category in GET /v1/articles/{id}), null if none; a webhook's categories filter passes an article whose category or classifier_category it lists.",
  }),
};

export const articlePublishedPayload = z
  .object({
    event: z.literal(ARTICLE_PUBLISHED),
    timestamp,
    data: z.object({
      article_id: z.string(),
      title: z.string(),
      url: z.string(),
      source: z.string(),
      source_id: z.string(),
      publisher: articlePublisherSchema,
      published_at: z.string().meta({ description: 'ISO 8601 UTC.' }),
      ...articleCategories,
      language: z.string().nullable(),
      summary: z.string().meta({ description: 'AI summary, else the feed’s.' }),
      audio_url: z.string().meta({
        description:
          'Narration of the article, signed as in news.alert: usually GET /v1/articles/{id}/audio, since the article is published as it is enriched, before the narrator has finished.',
      }),
    }),
  })
  .meta({
    id: 'ArticlePublishedEvent',
    description: "A new enriched article matching the webhook's filter (breaking news).",
  });

export const articleUpdatedPayload = z
  .object({
    event: z.literal(ARTICLE_UPDATED),
    timestamp,
    data: z.object({
      article_id: z.string().meta({ description: 'The article of an earlier article.published.' }),
      revision: z
        .number()
        .int()
        .min(2)
        .meta({
          description:
            'Which revision this is: 2 for the first update, +1 for each later one. With article_id it ' +
            'identifies the update: the webhook-id is the same for every attempt of one revision.',
        }),
      changed_fields: z
        .array(z.enum(readerFields))
        .meta({ description: 'What changed against the previous revision, in this order.' }),
      title: z.string(),
      url: z.string(),
      source: z.string(),
      source_id: z.string(),
      publisher: articlePublisherSchema,
      author: z.string().nullable(),
      published_at: z
        .string()
        .meta({ description: 'The publication time this revision states, ISO 8601 UTC.' }),
      updated_at: z.string().meta({ description: 'When the revision was found in the feed, ISO 8601 UTC.' }),
      ...articleCategories,
      language: z.string().nullable(),
      summary: z.string().meta({
        description:
          "The feed's summary of this revision (its new AI summary, when the text changed, follows in the " +
          'read model). The full text is in GET /v1/articles/{id}.',
      }),
    }),
  })
  .meta({
    id: 'ArticleUpdatedEvent',
    description:
      "An article changed in its feed (a corrected headline, an updated story, a new byline or date) and matches the webhook's filter.",
  });

export const newsBreakingPayload = z
  .object({
    event: z.literal(NEWS_BREAKING),
    timestamp,
    data: z.object({
      story_id: z.string().meta({ description: 'The story (GET /v1/stories/{id}).' }),
      headline: z.string().meta({ description: 'The headline of its first article.' }),
      detected_at: z.string().meta({
        description: 'Publication time of the article that brought the story to the rule, ISO 8601 UTC.',
      }),
      source_count: z.number().int().meta({ description: 'Distinct sources among `articles`.' }),
      sources: z.array(z.object({ id: z.string(), name: z.string() })),
      articles: z
        .array(
          z.object({
            article_id: z.string(),
            title: z.string(),
            url: z.string(),
            source: z.string(),
            source_id: z.string(),
            published_at: z.string(),
          }),
        )
        .meta({ description: 'Its first articles (at most 20), oldest first.' }),
    }),
  })
  .meta({
    id: 'NewsBreakingEvent',
    description:
      "A story became breaking news: several independent sources reported it within minutes, well above its category's usual rate. Sent at most once per story, when one of its articles matches the webhook's filter.",
  });

export const webhookTestPayload = z
  .object({
    event: z.literal(WEBHOOK_TEST),
    timestamp,
    data: z.object({ webhook_id: z.string(), message: z.string() }),
  })
  .meta({ id: 'WebhookTestEvent', description: 'Sent by POST /api/v1/webhooks/{id}/test.' });

/** Event name -> payload schema, for the OpenAPI `webhooks` section: one for every event type. */
export const webhookPayloads = {
  [NEWS_ALERT]: newsAlertPayload,
  [DOCUMENTARY_READY]: documentaryReadyPayload,
  [DOCUMENTARY_FAILED]: documentaryFailedPayload,
  [ARTICLE_PUBLISHED]: articlePublishedPayload,
  [ARTICLE_UPDATED]: articleUpdatedPayload,
  [NEWS_BREAKING]: newsBreakingPayload,
  [WEBHOOK_TEST]: webhookTestPayload,
} as const satisfies Record<WebhookEventType, z.ZodType>;
