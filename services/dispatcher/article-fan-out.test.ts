import { describe, expect, it } from 'vitest';
import { audioKey } from '../audio/audio-key.ts';
import { audioUrls } from '../audio/audio-urls.ts';
import { parseAudioUrlKeys } from '../audio/signed-url.ts';
import type { ArticleEnriched, Webhook, WebhookFilter } from '../runtime/events/types.generated.ts';
import type { ArticleFacts } from '../monitors/alert-raiser.ts';
import { articlePublishedPayload, newsAlertPayload } from '../webhooks/payloads.ts';
import type { ClickHouse } from '../runtime/clickhouse/client.ts';
import type { ConsumedEvent } from '../runtime/kafka/consumer.ts';
import { createLogger } from '../runtime/logger.ts';
import { articleFanOutHandler, articlePayload, passesFilter } from './article-fan-out.ts';
import { alertPayload } from './fan-out.ts';

const article: ArticleFacts = {
  articleId: 'a1',
  title: 'Café chain Acme plans merger',
  url: 'https://news.example/a1',
  summary: 'Acme and Globex agreed terms.',
  content: 'The deal, worth $2bn, creates the largest coffee chain in Europe.',
  narrated: false,
  audioUrl: null,
  audioKey: null,
  sourceId: 's1',
  sourceName: 'Daily Example',
  publisher: null,
  publishedAt: Date.parse('2026-11-20T10:00:00Z'),
  discoveredAt: Date.parse('2026-11-20T10:00:00Z'),
  category: 'business',
  language: 'en',
  revision: 1,
};

const enrichment = {
  status: 'succeeded',
  summary: 'Acme will merge with Globex.',
  category: 'business',
  language: 'en',
} as ArticleEnriched;

const webhook = (filter: Partial<WebhookFilter> | null): Webhook => ({
  webhook_id: 'wh_1',
  tenant_id: 't1',
  url: 'https://hooks.example/in',
  events: ['article.published'],
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

describe('article.published filter', () => {
  it('passes everything without a filter, and applies each list that is given', () => {
    expect(passesFilter(webhook(null), article, enrichment)).toBe(true);
    expect(passesFilter(webhook({ categories: ['business'] }), article, enrichment)).toBe(true);
    expect(passesFilter(webhook({ categories: ['sports'] }), article, enrichment)).toBe(false);
    expect(passesFilter(webhook({ source_ids: ['s2'] }), article, enrichment)).toBe(false);
    expect(passesFilter(webhook({ languages: ['de'] }), article, enrichment)).toBe(false);
    expect(passesFilter(webhook({ categories: ['business'], languages: ['en'] }), article, enrichment)).toBe(
      true,
    );
  });

  it("passes on the article's category or the classifier's, and names each in the payload as the API does", () => {
    const politics = { ...enrichment, category: 'politics' } as ArticleEnriched;
    const tech = { ...article, category: 'technology' };
    expect(passesFilter(webhook({ categories: ['technology'] }), tech, politics)).toBe(true);
    expect(passesFilter(webhook({ categories: ['politics'] }), tech, politics)).toBe(true);
    expect(passesFilter(webhook({ categories: ['sports'] }), tech, politics)).toBe(false);
    const data = (JSON.parse(articlePayload(tech, politics, new Date())) as { data: Record<string, unknown> })
      .data;
    expect([data.category, data.classifier_category]).toEqual(['technology', 'politics']);
    const unfiled = { ...article, category: '' };
    const none = { ...enrichment, category: null } as ArticleEnriched;
    const bare = (JSON.parse(articlePayload(unfiled, none, new Date())) as { data: Record<string, unknown> })
      .data;
    expect([bare.category, bare.classifier_category]).toEqual(['general', null]);
  });

  it('finds words as whole words, ignoring case and accents, in title, summary or content', () => {
    expect(passesFilter(webhook({ words: ['MERGER'] }), article, enrichment)).toBe(true);
    expect(passesFilter(webhook({ words: ['cafe'] }), article, enrichment)).toBe(true);
    expect(passesFilter(webhook({ words: ['coffee chain'] }), article, enrichment)).toBe(true);
    expect(passesFilter(webhook({ words: ['merge'] }), article, enrichment)).toBe(false);
    expect(passesFilter(webhook({ words: ['$2bn'] }), article, enrichment)).toBe(true);
  });

  it('finds words of scripts written without spaces inside the run they are in', () => {
    const japanese = {
      ...article,
      title: '日本の首相が辞任を表明',
      summary: 'G7サミットの前に',
      content: '',
    };
    expect(passesFilter(webhook({ words: ['首相'] }), japanese, enrichment)).toBe(true);
    expect(passesFilter(webhook({ words: ['g7'] }), japanese, enrichment)).toBe(true);
    expect(passesFilter(webhook({ words: ['大統領'] }), japanese, enrichment)).toBe(false);
  });
});

describe('payloads', () => {
  const at = new Date('2026-11-20T10:05:00Z');
  const audio = audioUrls({
    baseUrl: () => 'https://api.example',
    keys: parseAudioUrlKeys(''),
    ttlSeconds: 7 * 86_400,
    now: () => at,
  });

  it('sends article.published as OpenAPI documents it', () => {
    const body: unknown = JSON.parse(articlePayload(article, enrichment, at, audio));
    expect(articlePublishedPayload.parse(body)).toMatchObject({
      event: 'article.published',
      data: {
        article_id: 'a1',
        source: 'Daily Example',
        publisher: null,
        summary: 'Acme will merge with Globex.',
      },
    });
    const fromAggregator = { ...article, publisher: { name: 'Reuters', url: 'https://www.reuters.com/' } };
    expect(JSON.parse(articlePayload(fromAggregator, enrichment, at, audio))).toMatchObject({
      data: { publisher: { name: 'Reuters', url: 'https://www.reuters.com/' } },
    });
  });

  it("gives article.published the article's narration URL while the narrator has not finished, the file's once it has", () => {
    const audioUrlOf = (facts: ArticleFacts) =>
      (JSON.parse(articlePayload(facts, enrichment, at, audio)) as { data: { audio_url: string } }).data
        .audio_url;
    expect(audioUrlOf(article)).toMatch(
      /^https:\/\/api\.example\/v1\/articles\/a1\/audio\?expires=\d+&signature=/,
    );
    const key = audioKey('mp3', ['published', 'a1']);
    expect(audioUrlOf({ ...article, narrated: true, audioKey: key, audioUrl: 'unused' })).toMatch(
      new RegExp(`^https://api\\.example/v1/audio/${key}\\?expires=\\d+&signature=`),
    );
  });

  it('sends news.alert with the interface fields, as OpenAPI documents it', () => {
    const body: unknown = JSON.parse(
      alertPayload(
        {
          alert_id: 'alr_1',
          tenant_id: 't1',
          monitor_id: 'mon_1',
          contact_id: 'c-9',
          company: 'Acme',
          article_id: 'a1',
          article_title: 'T',
          article_url: 'https://news.example/a1',
          article_source_name: 'Google News: Acme',
          article_publisher_name: 'Reuters',
          article_publisher_url: 'https://www.reuters.com/',
          article_published_at: Date.UTC(2026, 0, 5, 8, 0),
          news_summary: 'S',
          audio_url: null,
          audio_key: null,
          matched_terms: ['Acme'],
          occurred_at: 0,
        },
        audio,
      ),
    );
    expect(newsAlertPayload.parse(body).data).toMatchObject({
      contact_id: 'c-9',
      company: 'Acme',
      news_summary: 'S',
      article_source: 'Google News: Acme',
      article_publisher: { name: 'Reuters', url: 'https://www.reuters.com/' },
      audio_url: expect.stringMatching(/^https:\/\/api\.example\/v1\/articles\/a1\/audio\?/) as unknown,
    });
  });
});

describe('article.published fan-out', () => {
  it('publishes an article once: the re-enrichment of a later revision is article.updated’s', async () => {
    const sent: unknown[] = [];
    const handler = articleFanOutHandler({
      directory: { catchUp: async () => true, subscribersOf: () => [webhook(null)] },
      clickhouse: {
        query: () => Promise.reject(new Error('nothing to read for a later revision')),
      } as unknown as ClickHouse,
      producer: { send: async (_topic, jobs) => void sent.push(...jobs) },
      logger: createLogger('test', 'silent'),
      articleWaitMs: 60_000,
    });
    const reEnriched: ArticleEnriched = {
      ...enrichment,
      article_id: 'a1',
      revision: 2,
      occurred_at: Date.now(),
    };
    await handler([{ value: reEnriched, offset: '0' } as ConsumedEvent<ArticleEnriched>], {
      heartbeat: async () => undefined,
    });
    expect(sent).toEqual([]);
  });
});
