// The events a webhook endpoint can be sent, by the names they carry on the wire: a webhook's `events`,
// a delivery's `event_type`, the `event` field of the body. They are a public contract (receivers switch
// on them), so they are written once, here; a new event type starts with a name here and a payload
// schema in payloads.ts.

/** A monitored company is mentioned in the news (news.alerts.v1). */
export const NEWS_ALERT = 'news.alert';
/** A requested documentary is ready. */
export const DOCUMENTARY_READY = 'documentary.ready';
/** A requested documentary failed (nothing on the topic in the period, a voice that cannot read it…). */
export const DOCUMENTARY_FAILED = 'documentary.failed';
/** A new enriched article passes the webhook's filter (breaking news). */
export const ARTICLE_PUBLISHED = 'article.published';
/** An article changed in its feed (a later revision: corrected headline, updated story) and passes the filter. */
export const ARTICLE_UPDATED = 'article.updated';
/** A story became breaking news: many outlets reported it at once (docs/stories.md#breaking-news). */
export const NEWS_BREAKING = 'news.breaking';
/** A test ping (POST /api/v1/webhooks/{id}/test): sent to a webhook whatever it subscribes to. */
export const WEBHOOK_TEST = 'webhook.test';

/** What a webhook may subscribe to (the API's `events`); the test ping is not subscribed to. */
export const subscribableEvents = [
  NEWS_ALERT,
  DOCUMENTARY_READY,
  DOCUMENTARY_FAILED,
  ARTICLE_PUBLISHED,
  ARTICLE_UPDATED,
  NEWS_BREAKING,
] as const;
export type SubscribableEvent = (typeof subscribableEvents)[number];

/** Every event an endpoint may receive. */
export const webhookEventTypes = [...subscribableEvents, WEBHOOK_TEST] as const;
export type WebhookEventType = (typeof webhookEventTypes)[number];
