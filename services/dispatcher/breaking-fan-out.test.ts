import { describe, expect, it } from 'vitest';
import type { StoryEvent, Webhook, WebhookFilter } from '../runtime/events/types.generated.ts';
import type { ArticleFacts } from '../monitors/alert-raiser.ts';
import { newsBreakingPayload } from '../webhooks/payloads.ts';
import { breakingPayload } from './breaking-fan-out.ts';
import { firstDeliveryJob } from './fan-out.ts';
import { passesFilter } from './article-fan-out.ts';

const at = Date.parse('2026-11-24T10:00:00Z');
const fact = (id: string, source: string, minutes: number): ArticleFacts => ({
  articleId: id,
  title: `Quake strikes off Sumatra (${source})`,
  url: `https://${source}.example/${id}`,
  summary: 'A magnitude 7.8 earthquake struck.',
  content: '',
  narrated: false,
  audioUrl: null,
  audioKey: null,
  sourceId: source,
  sourceName: source.toUpperCase(),
  publisher: null,
  publishedAt: at + minutes * 60_000,
  discoveredAt: at + minutes * 60_000,
  category: 'world',
  language: 'en',
  revision: 1,
});
const event: StoryEvent = {
  type: 'breaking',
  story_id: 'st1',
  article_id: null,
  source_id: null,
  language: null,
  category: null,
  article_at: at + 12 * 60_000,
  similarity: null,
  terms: [],
  distinct_terms: [],
  merged_into: null,
  article_ids: ['a3', 'a1', 'a2', 'a4'],
  occurred_at: at + 13 * 60_000,
};
const webhook = (filter: Partial<WebhookFilter> | null): Webhook => ({
  webhook_id: 'wh_1',
  tenant_id: 't1',
  url: 'https://hooks.example/in',
  events: ['news.breaking'],
  filter: filter && { categories: [], source_ids: [], languages: [], words: [], monitor_ids: [], ...filter },
  secret_ref: 'sb1:dev:x:y',
  previous_secret_ref: null,
  previous_secret_expires_at: null,
  active: true,
  disabled_reason: null,
  created_at: 0,
  version: 1,
  occurred_at: 0,
});

describe('news.breaking', () => {
  const articles = [fact('a3', 'cnn', 9), fact('a1', 'bbc', 0), fact('a2', 'ap', 4), fact('a4', 'bbc', 12)];

  it('describes the story with its articles oldest first and its distinct sources', () => {
    const body = newsBreakingPayload.parse(JSON.parse(breakingPayload(event, articles)));
    expect(body.timestamp).toBe('2026-11-24T10:13:00.000Z');
    expect(body.data).toMatchObject({
      story_id: 'st1',
      headline: 'Quake strikes off Sumatra (bbc)',
      detected_at: '2026-11-24T10:12:00Z',
      source_count: 3,
    });
    expect(body.data.articles.map((a) => a.article_id)).toEqual(['a1', 'a2', 'a3', 'a4']);
    expect(body.data.sources.map((s) => s.id)).toEqual(['bbc', 'ap', 'cnn']);
  });

  it('is one delivery per story and webhook: a replay makes the same job id', () => {
    const payload = breakingPayload(event, articles);
    const now = new Date(at);
    const job = firstDeliveryJob({ type: 'news.breaking', id: event.story_id, payload }, webhook(null), now);
    const again = firstDeliveryJob(
      { type: 'news.breaking', id: event.story_id, payload },
      webhook(null),
      now,
    );
    expect(job.delivery_id).toBe(again.delivery_id);
    expect(job.event_type).toBe('news.breaking');
  });

  it('reaches a filtered webhook when one of the story’s articles passes its filter', () => {
    const none = { category: null, language: null };
    expect(articles.some((a) => passesFilter(webhook({ source_ids: ['ap'] }), a, none))).toBe(true);
    expect(articles.some((a) => passesFilter(webhook({ source_ids: ['reuters'] }), a, none))).toBe(false);
  });
});
