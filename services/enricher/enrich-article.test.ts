import { describe, expect, it } from 'vitest';
import type { ArticleDiscovered } from '../runtime/events/types.generated.ts';
import { DependencyUnavailableError } from '../runtime/kafka/errors.ts';
import { createLogger } from '../runtime/logger.ts';
import {
  EnrichmentRejectedError,
  type ArticleText,
  type Enrichment,
  type EnrichmentProvider,
} from '../intelligence/provider.ts';
import type { ArticleEnriched } from '../runtime/events/types.generated.ts';
import { enrichArticle, needsEnrichment, type EnrichArticleDependencies } from './enrich-article.ts';
import { enricherHandler } from './enricher.ts';
import { discoveredArticle } from '../../test/support/discovered-article.ts';

const article = (overrides: Partial<ArticleDiscovered> = {}): ArticleDiscovered =>
  discoveredArticle('a1', Date.parse('2026-11-20T10:00:00Z'), {
    source_name: 'Source One',
    guid: null,
    url: 'https://example.com/a1',
    original_url: 'https://example.com/a1',
    title: 'Acme raises prices',
    summary: 'Short.',
    content: 'Acme raised prices by 5% on Monday. Customers were not pleased.',
    discovered_at: Date.parse('2026-11-20T10:01:00Z'),
    category: 'business',
    occurred_at: Date.parse('2026-11-20T10:01:00Z'),
    ...overrides,
  });

const enrichment: Enrichment = {
  summary: 'Acme raised prices by 5%.',
  context: null,
  contextArticleIds: [],
  insights: [],
  sentiment: { label: 'negative', score: -0.2 },
  entities: [{ name: 'Acme', type: 'organization', salience: 1, mentions: 2 }],
  keywords: ['prices'],
  category: 'business',
  language: 'en',
  readingTimeSeconds: 3,
  provider: 'fake',
  model: 'fake-1',
};

/** A provider whose enrich answers are scripted: an Error is thrown, anything else returned. */
function scriptedProvider(script: (Error | Enrichment)[]) {
  const seen: ArticleText[] = [];
  const provider: EnrichmentProvider = {
    name: 'fake',
    model: 'fake-1',
    enrich: async (text) => {
      seen.push(text);
      const next = script.shift() ?? enrichment;
      if (next instanceof Error) throw next;
      return next;
    },
    summarize: () => Promise.reject(new Error('not used')),
    educate: () => Promise.reject(new Error('not used')),
  };
  return { provider, seen };
}

function dependencies(provider: EnrichmentProvider, overrides: Partial<EnrichArticleDependencies> = {}) {
  const sleeps: number[] = [];
  const deps: EnrichArticleDependencies = {
    provider,
    findRelated: async () => [],
    termsOf: () => ({ entities: ['Acme'], keywords: ['prices'] }),
    logger: createLogger('test', 'silent'),
    retry: { attempts: 3, initialBackoffMs: 100, maxBackoffMs: 1_000 },
    clock: () => 1_000,
    sleep: async (ms) => void sleeps.push(ms),
    // Half of each pause's ceiling: the jitter itself is runtime/retry.ts's, tested there.
    random: () => 0.5,
    ...overrides,
  };
  return { deps, sleeps };
}

describe('enrichArticle', () => {
  it('records a success with every field the event carries', async () => {
    const { provider } = scriptedProvider([]);
    const event = await enrichArticle(article(), dependencies(provider).deps);
    expect(event).toMatchObject({
      article_id: 'a1',
      status: 'succeeded',
      summary: 'Acme raised prices by 5%.',
      entities: [{ name: 'Acme', type: 'organization', salience: 1, mentions: 2 }],
      provider: 'fake',
      enriched_at: 1_000,
      article_url: 'https://example.com/a1',
      article_title: 'Acme raises prices',
    });
  });

  it('retries a failing provider with growing backoff, then succeeds', async () => {
    const { provider, seen } = scriptedProvider([new Error('503 from provider'), new Error('timeout')]);
    const { deps, sleeps } = dependencies(provider);
    const event = await enrichArticle(article(), deps);
    expect(event.status).toBe('succeeded');
    expect(seen).toHaveLength(3);
    expect(sleeps).toHaveLength(2);
    expect(sleeps[0]).toBeGreaterThanOrEqual(50);
    expect(sleeps[0]).toBeLessThanOrEqual(100);
    expect(sleeps[1]).toBeGreaterThanOrEqual(100);
    expect(sleeps[1]).toBeLessThanOrEqual(200);
  });

  it('records a failure once the attempts are used up, instead of blocking the partition', async () => {
    const { provider, seen } = scriptedProvider([new Error('a'), new Error('b'), new Error('boom')]);
    const event = await enrichArticle(article(), dependencies(provider).deps);
    expect(seen).toHaveLength(3);
    expect(event).toMatchObject({ status: 'failed', summary: null, sentiment: null, entities: [] });
    expect(event.failure_reason).toBe('provider failed after 3 attempts: boom');
    expect([event.article_url, event.article_title]).toEqual([
      'https://example.com/a1',
      'Acme raises prices',
    ]);
  });

  it('records a rejected text as failed at once, without retrying', async () => {
    const { provider, seen } = scriptedProvider([new EnrichmentRejectedError('model answer is not JSON')]);
    const event = await enrichArticle(article(), dependencies(provider).deps);
    expect(seen).toHaveLength(1);
    expect(event.failure_reason).toBe('model answer is not JSON');
  });

  it('lets an unreachable read model stop the batch (the consumer waits) rather than fail the article', async () => {
    const { provider, seen } = scriptedProvider([]);
    const { deps } = dependencies(provider, {
      findRelated: () => Promise.reject(new DependencyUnavailableError('ClickHouse down')),
    });
    await expect(enrichArticle(article(), deps)).rejects.toBeInstanceOf(DependencyUnavailableError);
    expect(seen).toHaveLength(0);
  });

  it('looks up related articles from other sources, published up to the article', async () => {
    const { provider } = scriptedProvider([]);
    const queries: unknown[] = [];
    const { deps } = dependencies(provider, { findRelated: async (q) => (queries.push(q), []) });
    await enrichArticle(article(), deps);
    expect(queries).toEqual([
      {
        entities: ['Acme'],
        keywords: ['prices'],
        excludeArticleId: 'a1',
        excludeSourceId: 's1',
        from: new Date('2026-10-21T10:00:00Z'),
        until: new Date('2026-11-20T10:01:00Z'),
        limit: 3,
      },
    ]);
  });

  it('enriches a headline-only item from its title, and records an empty item as failed', async () => {
    const { provider, seen } = scriptedProvider([]);
    await enrichArticle(article({ content: '', summary: ' ' }), dependencies(provider).deps);
    expect(seen[0]!.text).toBe('Acme raises prices');
    const empty = await enrichArticle(
      article({ title: ' ', content: '', summary: '' }),
      dependencies(provider).deps,
    );
    expect(empty).toMatchObject({ status: 'failed', failure_reason: 'empty article text' });
  });
});

describe('revisions', () => {
  const revision = (n: number, changed: string[], overrides: Partial<ArticleDiscovered> = {}) =>
    article({ revision: n, changed_fields: changed, ...overrides });

  it('enrich a later revision only when the text the enrichment reads changed', () => {
    expect(needsEnrichment(article())).toBe(true);
    expect(needsEnrichment(revision(2, ['title']))).toBe(true);
    expect(needsEnrichment(revision(2, ['summary', 'author']))).toBe(true);
    expect(needsEnrichment(revision(2, ['content']))).toBe(true);
    expect(needsEnrichment(revision(2, ['author']))).toBe(false);
    expect(needsEnrichment(revision(3, ['published_at']))).toBe(false);
    expect(needsEnrichment(revision(3, ['author', 'published_at']))).toBe(false);
  });

  it('make no provider call for a revision that moved only its author or date, and name the revision enriched', async () => {
    const { provider, seen } = scriptedProvider([]);
    const sent: ArticleEnriched[] = [];
    const handler = enricherHandler({
      ...dependencies(provider).deps,
      producer: {
        send: async (_topic, events) => void sent.push(...events.map((e) => e.value as ArticleEnriched)),
      },
      concurrency: 2,
    });
    const consumed = (value: ArticleDiscovered, offset: number) => ({
      topic: 'news.articles.discovered.v1',
      partition: 0,
      offset: String(offset),
      key: value.article_id,
      value,
      headers: {},
      timestamp: '0',
    });
    await handler(
      [
        consumed(article(), 0),
        consumed(revision(2, ['author'], { author: 'Jo Bloggs' }), 1),
        consumed(revision(3, ['title'], { title: 'Acme raises prices again' }), 2),
        consumed(revision(4, ['published_at']), 3),
      ],
      { heartbeat: async () => undefined },
    );
    expect(seen.map((t) => t.title)).toEqual(['Acme raises prices', 'Acme raises prices again']);
    expect(sent.map((e) => [e.article_id, e.revision, e.status, e.article_title])).toEqual([
      ['a1', 1, 'succeeded', 'Acme raises prices'],
      ['a1', 3, 'succeeded', 'Acme raises prices again'],
    ]);
    // A batch of such revisions alone appends nothing at all.
    sent.length = 0;
    await handler([consumed(revision(5, ['author']), 4)], { heartbeat: async () => undefined });
    expect(sent).toEqual([]);
    expect(seen).toHaveLength(2);
  });
});
