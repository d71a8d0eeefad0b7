// The bodies POSTed to webhook endpoints, one zod schema per event: the OpenAPI document's `webhooks`
// section is produced from them, and the tests check what the dispatcher sends against them. Every
// body is {event, timestamp, data}; news.alert's four data fields are exactly the interface's, the
// others add what a receiver needs to act without calling back.
import { z } from 'zod';
import {
  ARTICLE_PUBLISHED,
  DOCUMENTARY_READY,
  NEWS_ALERT,
  WEBHOOK_TEST,
  type WebhookEventType,
} from './event-types.ts';

const timestamp = z.string().meta({ description: 'When the event happened, ISO 8601 UTC.' });

export const newsAlertPayload = z
  .object({
    event: z.literal(NEWS_ALERT),
    timestamp,
    data: z.object({
      contact_id: z.string().meta({ description: "The monitor's contact_id, as given." }),
      company: z.string().meta({ description: "The monitor's company, as given." }),
      news_summary: z.string().meta({ description: 'Summary of the article (AI summary, else the feed’s).' }),
      audio_url: z
        .string()
        .nullable()
        .meta({ description: 'Narration of the article; null until there is one.' }),
      alert_id: z
        .string()
        .meta({ description: 'The same for a monitor and an article, however often matched.' }),
      monitor_id: z.string(),
      article_id: z.string(),
      article_title: z.string(),
      article_url: z.string(),
      matched_terms: z.array(z.string()).meta({ description: 'The company name or aliases found.' }),
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
      duration_ms: z.number().int(),
    }),
  })
  .meta({ id: 'DocumentaryReadyEvent', description: 'A requested documentary is ready.' });

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
      published_at: z.string().meta({ description: 'ISO 8601 UTC.' }),
      category: z.string().nullable(),
      language: z.string().nullable(),
      summary: z.string().meta({ description: 'AI summary, else the feed’s.' }),
      audio_url: z.string().nullable(),
    }),
  })
  .meta({
    id: 'ArticlePublishedEvent',
    description: "A new enriched article matching the webhook's filter (breaking news).",
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
  [ARTICLE_PUBLISHED]: articlePublishedPayload,
  [WEBHOOK_TEST]: webhookTestPayload,
} as const satisfies Record<WebhookEventType, z.ZodType>;
