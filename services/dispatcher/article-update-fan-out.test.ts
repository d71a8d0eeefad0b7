import { describe, expect, it } from 'vitest';
import type {
  ArticleDiscovered,
  Webhook,
  WebhookDelivery,
  WebhookFilter,
} from '../runtime/events/types.generated.ts';
import type { ConsumedEvent } from '../runtime/kafka/consumer.ts';
import { articleUpdatedPayload as payloadSchema } from '../webhooks/payloads.ts';
import { articleUpdateFanOutHandler, articleUpdatedPayload, updateJobs } from './article-update-fan-out.ts';
import { deliveryId } from './fan-out.ts';

const published = Date.parse('2026-11-20T08:00:00Z');
const revision = (n: number, overrides: Partial<ArticleDiscovered> = {}): ArticleDiscovered => ({
  article_id: 'a1',
  source_id: 's1',
  source_name: 'Daily Example',
  guid: 'g1',
  url: 'https://news.example/a1',
  original_url: 'https://news.example/a1',
  title: n === 1 ? 'Acme plans merger' : `Acme plans merger with Globex (${n})`,
  summary: 'Acme and Globex agreed terms.',
  content: '',
  author: null,
  published_at: published,
  published_at_clamped: false,
  discovered_at: published + n * 60_000,
  language: 'en',
  category: 'general',
  image_url: null,
  publisher_name: null,
  publisher_url: null,
  revision: n,
  changed_fields: n === 1 ? [] : ['title'],
  first_published_at: n === 1 ? null : published,
  first_discovered_at: n === 1 ? null : published + 60_000,
  occurred_at: published + n * 60_000,
  ...overrides,
});

const webhook = (id: string, filter: Partial<WebhookFilter> | null): Webhook => ({
  webhook_id: id,
  tenant_id: 't1',
  url: `https://hooks.example/${id}`,
  events: ['article.updated'],
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

const now = new Date('2026-11-20T10:05:00Z');

describe('article.updated', () => {
  it('sends what changed and the new fields, as OpenAPI documents it', () => {
    const body: unknown = JSON.parse(
      articleUpdatedPayload(
        revision(2, { publisher_name: 'Reuters', publisher_url: 'https://www.reuters.com/' }),
        null,
        now,
      ),
    );
    expect(payloadSchema.parse(body)).toEqual({
      event: 'article.updated',
      timestamp: '2026-11-20T10:05:00.000Z',
      data: {
        article_id: 'a1',
        revision: 2,
        changed_fields: ['title'],
        title: 'Acme plans merger with Globex (2)',
        url: 'https://news.example/a1',
        source: 'Daily Example',
        source_id: 's1',
        publisher: { name: 'Reuters', url: 'https://www.reuters.com/' },
        author: null,
        published_at: '2026-11-20T08:00:00Z',
        updated_at: '2026-11-20T08:02:00Z',
        category: 'general',
        classifier_category: null,
        language: 'en',
        summary: 'Acme and Globex agreed terms.',
      },
    });
  });

  it('goes to the webhooks whose filter the revision passes, the classifier’s category included', () => {
    const hooks = [
      webhook('all', null),
      webhook('business', { categories: ['business'] }),
      webhook('globex', { words: ['globex'] }),
      webhook('sports', { categories: ['sports'] }),
    ];
    const classified = { category: 'business', language: 'en' };
    const jobs = updateJobs(revision(2), classified, hooks, now);
    expect(jobs.map((j) => j.webhook_id)).toEqual(['all', 'business', 'globex']);
    expect(updateJobs(revision(2), null, hooks, now).map((j) => j.webhook_id)).toEqual(['all', 'globex']);
    // The category GET /v1/articles shows, and the classifier's that let the business webhook have it.
    expect(JSON.parse(jobs[0]!.payload_json)).toMatchObject({
      data: { category: 'general', classifier_category: 'business' },
    });
  });

  it('has one delivery id per article, revision and webhook, the same on a replay', () => {
    const hooks = [webhook('w1', null), webhook('w2', null)];
    const second = updateJobs(revision(2), null, hooks, now);
    const replayed = updateJobs(revision(2), null, hooks, new Date(now.getTime() + 3_600_000));
    const third = updateJobs(revision(3), null, hooks, now);
    expect(second.map((j) => j.delivery_id)).toEqual(replayed.map((j) => j.delivery_id));
    expect(second[0]!.delivery_id).toBe(deliveryId('article.updated', 'a1:2', 'w1'));
    expect(second[0]!).toMatchObject({ event_type: 'article.updated', event_id: 'a1:2', status: 'pending' });
    expect(new Set([...second, ...third].map((j) => j.delivery_id)).size).toBe(4);
  });

  it('fans out later revisions only, and reads nothing without subscribers', async () => {
    const appended: WebhookDelivery[] = [];
    const lookedUp: string[][] = [];
    let subscribers: Webhook[] = [];
    const handler = articleUpdateFanOutHandler({
      directory: { catchUp: async () => true, subscribersOf: () => subscribers },
      classifications: async (ids) => {
        lookedUp.push([...ids]);
        return new Map();
      },
      producer: {
        send: async (_topic, jobs) => void appended.push(...jobs.map((j) => j.value as WebhookDelivery)),
      },
      clock: () => now,
    });
    const events = [revision(1), revision(2), revision(3)].map(
      (value, offset) => ({ value, offset: String(offset) }) as ConsumedEvent<ArticleDiscovered>,
    );
    await handler(events, { heartbeat: async () => undefined });
    expect(appended).toEqual([]);
    expect(lookedUp).toEqual([]);

    subscribers = [webhook('w1', null)];
    await handler(events, { heartbeat: async () => undefined });
    expect(lookedUp).toEqual([['a1']]);
    expect(appended.map((j) => j.event_id)).toEqual(['a1:2', 'a1:3']);
  });
});
