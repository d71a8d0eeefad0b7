import { describe, expect, it } from 'vitest';
import { subscribableEvents, WEBHOOK_TEST, webhookEventTypes } from './event-types.ts';
import { webhookPayloads } from './payloads.ts';

describe('webhook event types', () => {
  it('are the names receivers already switch on', () => {
    expect(subscribableEvents).toEqual([
      'news.alert',
      'documentary.ready',
      'documentary.failed',
      'article.published',
      'article.updated',
      'news.breaking',
    ]);
    expect(webhookEventTypes).toEqual([...subscribableEvents, 'webhook.test']);
    expect(subscribableEvents).not.toContain(WEBHOOK_TEST);
  });

  it('each have a payload schema whose `event` is that name', () => {
    expect(Object.keys(webhookPayloads)).toEqual(webhookEventTypes);
    for (const [event, schema] of Object.entries(webhookPayloads)) {
      expect(schema.shape.event.value).toBe(event);
    }
  });
});
