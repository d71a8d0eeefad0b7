import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { audioUrls } from '../../audio/audio-urls.ts';
import { parseAudioUrlKeys } from '../../audio/signed-url.ts';
import { articleListItem } from '../articles/routes.ts';
import type {
  Alert,
  ArticleDiscovered,
  ArticleEnriched,
  StoryEvent,
} from '../../runtime/events/types.generated.ts';
import { parseSearch } from '../articles/search-expression.ts';
import { breakingData } from '../../webhooks/breaking-data.ts';
import {
  alertEvent,
  breakingEvent,
  discoveredEvent,
  enrichedEvent,
  eventMatcher,
  streamArticleOf,
  streamEventKinds,
  type StreamFilter,
} from './stream-events.ts';

const discovered = (overrides: Partial<ArticleDiscovered> = {}): ArticleDiscovered => ({
  article_id: 'a1',
  source_id: 'src-bbc',
  source_name: 'BBC News',
  guid: 'g1',
  url: 'https://bbc.example/a1',
  original_url: 'https://bbc.example/a1?utm_source=x',
  title: 'Chip makers rally as Über demand grows',
  summary: 'Shares of TSMC rose 7% on Tuesday.',
  content: 'Long text that q does not search.',
  author: null,
  published_at: Date.UTC(2026, 10, 24, 8, 30),
  published_at_clamped: false,
  discovered_at: Date.UTC(2026, 10, 24, 8, 31),
  language: 'en',
  category: 'business',
  image_url: null,
  publisher_name: null,
  publisher_url: null,
  occurred_at: Date.UTC(2026, 10, 24, 8, 31),
  revision: 1,
  changed_fields: [],
  first_published_at: null,
  first_discovered_at: null,
  ...overrides,
});

const enrichment = (overrides: Partial<ArticleEnriched> = {}): ArticleEnriched => ({
  article_id: 'a1',
  status: 'succeeded',
  failure_reason: null,
  summary: 'Chip stocks rose.',
  context: null,
  context_article_ids: [],
  insights: ['Demand is strong'],
  sentiment: { label: 'positive', score: 0.6 },
  entities: [{ name: 'TSMC', type: 'organization', salience: 0.9, mentions: 2 }],
  keywords: ['chips'],
  category: 'technology',
  language: 'en',
  reading_time_seconds: 30,
  provider: 'embedded',
  model: 'embedded-1',
  enriched_at: Date.UTC(2026, 10, 24, 8, 32),
  occurred_at: Date.UTC(2026, 10, 24, 8, 32),
  revision: 1,
  article_url: 'https://example.com/chips',
  article_title: 'Chip stocks rise',
  ...overrides,
});

const filter = (overrides: Partial<StreamFilter> = {}): StreamFilter => ({
  kinds: new Set(streamEventKinds),
  categories: [],
  sources: [],
  languages: [],
  search: null,
  tenantId: 'tenant-a',
  ...overrides,
});

const audio = audioUrls({
  baseUrl: () => 'https://api.example',
  keys: parseAudioUrlKeys(`k1:${Buffer.alloc(32, 9).toString('base64url')}`),
  ttlSeconds: 86_400,
  now: () => new Date(Date.UTC(2026, 10, 24, 9)),
});

describe('stream events', () => {
  it('sends a first sighting as article.published in the shape of a GET /v1/articles item', () => {
    const event = discoveredEvent(discovered(), audio);
    expect(event.kind).toBe('article.published');
    const data = JSON.parse(event.data) as unknown;
    // Exactly the list item's fields, as the API's own schema checks them.
    expect(articleListItem.strict().parse(data)).toEqual({
      id: 'a1',
      title: 'Chip makers rally as Über demand grows',
      summary: 'Shares of TSMC rose 7% on Tuesday.',
      // not enriched yet: the provisional summary, here the feed's one sentence
      ai_summary: 'Shares of TSMC rose 7% on Tuesday.',
      // not narrated yet: the article's narration URL, as the list gives it
      audio_url: audio.urlForArticle('a1'),
      source: 'BBC News',
      source_id: 'src-bbc',
      published_at: '2026-11-24T08:30:00Z',
      revision: 1,
      updated_at: null,
      language: 'en',
      category: 'business',
      url: 'https://bbc.example/a1',
      // Sent before the clusterer has placed it.
      story_id: null,
      publisher: null,
    });
  });

  it("names an aggregator's outlet as the list item does", () => {
    const event = discoveredEvent(
      discovered({ publisher_name: 'Reuters', publisher_url: 'https://www.reuters.com/' }),
      audio,
    );
    const data = articleListItem.strict().parse(JSON.parse(event.data));
    expect(data.publisher).toEqual({ name: 'Reuters', url: 'https://www.reuters.com/' });
  });

  it('sends a later revision as article.updated with what changed', () => {
    const event = discoveredEvent(discovered({ title: 'Corrected', revision: 3, changed_fields: ['title'] }));
    expect(event.kind).toBe('article.updated');
    expect(JSON.parse(event.data)).toMatchObject({
      title: 'Corrected',
      revision: 3,
      changed_fields: ['title'],
    });
  });

  it('sends an enrichment with the AI summary and the enrichment of GET /v1/articles/{id}', () => {
    const event = enrichedEvent(enrichment(), streamArticleOf(discovered()), audio);
    expect(event.kind).toBe('article.enriched');
    const data = JSON.parse(event.data) as Record<string, unknown>;
    expect(data).toMatchObject({
      id: 'a1',
      ai_summary: 'Chip stocks rose.',
      category: 'business',
      audio_url: audio.urlForArticle('a1'),
    });
    expect(articleListItem.extend({ enrichment: z.unknown() }).strict().safeParse(data).success).toBe(true);
    expect(data.enrichment).toMatchObject({
      sentiment: { label: 'positive', score: 0.6 },
      entities: [{ name: 'TSMC', type: 'organization' }],
      category: 'technology',
      enriched_at: '2026-11-24T08:32:00Z',
    });
  });

  describe('filters', () => {
    const published = discoveredEvent(discovered());
    const classified = enrichedEvent(enrichment(), streamArticleOf(discovered()));

    it.each([
      ['no filter', {}, true],
      ['its category', { categories: ['business'] }, true],
      ['another category', { categories: ['sports'] }, false],
      ['its source id', { sources: ['src-bbc'] }, true],
      ['its source name in any case', { sources: ['bbc news'] }, true],
      ['another source', { sources: ['src-cnn'] }, false],
      ['its language', { languages: ['en', 'de'] }, true],
      ['another language', { languages: ['de'] }, false],
      ['words of the title and the summary', { search: parseSearch('über tsmc') }, true],
      ['a word only in the content', { search: parseSearch('long') }, false],
      ['part of a word', { search: parseSearch('rall') }, false],
      ['another kind', { kinds: new Set(['article.updated'] as const) }, false],
    ] as const)('%s', (_, overrides, expected) => {
      expect(eventMatcher(filter(overrides as Partial<StreamFilter>))(published)).toBe(expected);
    });

    it("matches an enrichment by the article's category, as the list does, not the classifier's", () => {
      expect(eventMatcher(filter({ categories: ['technology'] }))(classified)).toBe(false);
      expect(eventMatcher(filter({ categories: ['business'] }))(classified)).toBe(true);
      expect(eventMatcher(filter({ categories: ['technology'] }))(published)).toBe(false);
    });

    it("sends news.alert to the monitor's tenant only", () => {
      const alert = alertEvent({
        alert_id: 'al1',
        tenant_id: 'tenant-a',
        monitor_id: 'm1',
        contact_id: 'c1',
        company: 'TSMC',
        article_id: 'a1',
        article_title: 'Chip makers rally',
        article_url: 'https://bbc.example/a1',
        article_source_name: 'BBC News',
        article_publisher_name: null,
        article_publisher_url: null,
        article_published_at: null,
        news_summary: 'Chip stocks rose.',
        audio_url: null,
        audio_key: null,
        matched_terms: ['TSMC'],
        occurred_at: 0,
      } satisfies Alert);
      expect(JSON.parse(alert.data)).toMatchObject({
        contact_id: 'c1',
        company: 'TSMC',
        audio_url: null,
        article_source: 'BBC News',
        article_publisher: null,
      });
      expect(eventMatcher(filter())(alert)).toBe(true);
      expect(eventMatcher(filter({ tenantId: 'tenant-b' }))(alert)).toBe(false);
      // Article filters are about articles; an alert is the tenant's own monitor.
      expect(eventMatcher(filter({ categories: ['sports'] }))(alert)).toBe(true);
      expect(eventMatcher(filter({ kinds: new Set(['article.published'] as const) }))(alert)).toBe(false);
    });

    it('sends news.breaking with the webhook payload data, passing a filter when one of its articles does', () => {
      const story: StoryEvent = {
        type: 'breaking',
        story_id: 'st1',
        article_id: null,
        source_id: null,
        language: null,
        category: null,
        article_at: Date.UTC(2026, 10, 24, 8, 40),
        similarity: null,
        terms: [],
        distinct_terms: [],
        merged_into: null,
        article_ids: ['a2', 'a1'],
        occurred_at: Date.UTC(2026, 10, 24, 8, 41),
      };
      const articles = [
        streamArticleOf(
          discovered({
            article_id: 'a2',
            source_id: 'src-dw',
            source_name: 'DW',
            language: 'de',
            published_at: Date.UTC(2026, 10, 24, 8, 35),
          }),
        ),
        streamArticleOf(discovered()),
      ];
      const event = breakingEvent(story, articles);
      expect(event.kind).toBe('news.breaking');
      // The data the news.breaking webhook sends (services/dispatcher/breaking-fan-out.ts builds it the same way).
      const byWebhook = breakingData(
        story,
        articles.map((a) => ({ ...a, articleId: a.id })),
      );
      expect(JSON.parse(event.data)).toEqual(JSON.parse(JSON.stringify(byWebhook)));
      expect(JSON.parse(event.data)).toMatchObject({
        story_id: 'st1',
        source_count: 2,
        headline: 'Chip makers rally as Über demand grows',
      });
      expect(eventMatcher(filter())(event)).toBe(true);
      expect(eventMatcher(filter({ languages: ['de'] }))(event)).toBe(true);
      expect(eventMatcher(filter({ sources: ['bbc news'] }))(event)).toBe(true);
      expect(eventMatcher(filter({ languages: ['fr'] }))(event)).toBe(false);
      expect(eventMatcher(filter({ search: parseSearch('tsmc') }))(event)).toBe(true);
      expect(eventMatcher(filter({ search: parseSearch('football') }))(event)).toBe(false);
      expect(eventMatcher(filter({ kinds: new Set(['news.alert'] as const) }))(event)).toBe(false);
    });
  });
});
