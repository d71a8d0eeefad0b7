import { describe, expect, it } from 'vitest';
import type { ArticleDiscovered, ArticleEnriched, Documentary } from '../runtime/events/types.generated.ts';
import { failedEnrichment } from '../intelligence/enrichment-event.ts';
import { articleRow, documentaryRow, enrichmentRow, rowsFor, webhookRow } from './rows.ts';
import { webhookWith } from '../../test/support/webhook-records.ts';
import { discoveredArticle } from '../../test/support/discovered-article.ts';
import { storyEvent } from '../stories/story-events.ts';
import { topicNames } from '../runtime/kafka/topics.ts';

const embedded = { name: 'embedded', model: 'embedded-1' };
const enrichment = (status: ArticleEnriched['status']): ArticleEnriched =>
  status === 'failed'
    ? failedEnrichment('a1', 'provider timeout', embedded, 0)
    : { ...failedEnrichment('a1', '', embedded, 0), status, failure_reason: null, summary: 'Summary.' };

describe('article rows', () => {
  const published = Date.UTC(2026, 10, 20, 8);
  const discovered = published + 60_000;
  const first: ArticleDiscovered = discoveredArticle('a1', published, {
    guid: 'g1',
    discovered_at: discovered,
    category: 'politics',
    occurred_at: discovered,
  });

  it('keep revision 1 where it was published and first discovered, with no update', () => {
    expect(articleRow(first, 7)).toMatchObject({
      published_at: published / 1000,
      latest_published_at: published / 1000,
      discovered_at: discovered / 1000,
      revision: 1,
      changed_fields: [],
      updated_at: null,
    });
  });

  it('give a later revision the same sort key, so it replaces the row, and its own date beside it', () => {
    const updatedAt = discovered + 3_600_000;
    const revision: ArticleDiscovered = {
      ...first,
      title: 'Minister resigns over leak',
      published_at: published + 7_200_000,
      discovered_at: updatedAt,
      occurred_at: updatedAt,
      revision: 2,
      changed_fields: ['title', 'published_at'],
      first_published_at: published,
      first_discovered_at: discovered,
    };
    expect(articleRow(revision, 9)).toMatchObject({
      article_id: 'a1',
      title: 'Minister resigns over leak',
      published_at: published / 1000,
      latest_published_at: (published + 7_200_000) / 1000,
      discovered_at: discovered / 1000,
      revision: 2,
      changed_fields: ['title', 'published_at'],
      updated_at: updatedAt / 1000,
      version: 9,
    });
  });

  it('write the article and its list rows, the shown columns and lengths on the row of every article', () => {
    const article = first;
    const rows = rowsFor(topicNames.articlesDiscovered, article.article_id, article, 7, 0);
    expect(rows.map((r) => r.table)).toEqual(['articles', ...Array<string>(5).fill('article_list')]);
    const [stored, ...listed] = rows.map((r) => r.row);
    expect(stored).toEqual(articleRow(article, 7));
    // Under the article's key in `articles`, so a later revision replaces them.
    for (const row of listed)
      expect(row).toMatchObject({
        article_id: article.article_id,
        published_at: stored!.published_at,
        source_id: article.source_id,
        category: stored!.category,
        language: stored!.language,
        version: 7,
      });
    expect(listed.map((r) => r.facet)).toEqual([
      '',
      `source:${article.source_id}`,
      `source_name:${article.source_name.toLowerCase()}`,
      `category:${String(stored!.category)}`,
      `language:${String(stored!.language)}`,
    ]);
    expect(listed[0]).toMatchObject({
      title: article.title,
      summary: article.summary,
      url: article.url,
      title_length: 2,
      summary_length: 3,
    });
    for (const row of listed.slice(1)) expect(row).not.toHaveProperty('title');
  });
});

describe('enrichment rows', () => {
  it('rank a success above any later failure of the same article, so a failed retry hides nothing', () => {
    const success = enrichmentRow(enrichment('succeeded'), 10).version as number;
    const laterFailure = enrichmentRow(enrichment('failed'), 5_000_000).version as number;
    expect(success).toBeGreaterThan(laterFailure);
  });

  it('let the later of two results of the same kind win', () => {
    expect(enrichmentRow(enrichment('succeeded'), 11).version).toBeGreaterThan(
      enrichmentRow(enrichment('succeeded'), 10).version as number,
    );
    expect(enrichmentRow(enrichment('failed'), 11).version).toBeGreaterThan(
      enrichmentRow(enrichment('failed'), 10).version as number,
    );
  });
});

describe('documentary rows', () => {
  const requested = Date.UTC(2026, 10, 24, 12, 0, 0);
  const event = (overrides: Partial<Documentary> = {}): Documentary => ({
    documentary_id: 'doc_1',
    tenant_id: 'ten_1',
    topic: 'semiconductors',
    sources: ['news'],
    format: 'audio+transcript',
    status: 'progressed',
    progress: 0.5,
    stage: 'narrating',
    audio_url: null,
    transcript_url: null,
    duration_ms: null,
    failure_reason: null,
    requested_at: requested,
    period_from: requested - 7 * 86_400_000,
    period_to: requested,
    date_range: null,
    language: null,
    voice: null,
    script_writer: null,
    length: null,
    max_articles: null,
    articles: [
      {
        article_id: 'a1',
        title: 'Chips',
        source_name: 'BBC News',
        url: 'https://x/1',
        published_at: requested - 1_500,
        story: 0,
      },
      {
        article_id: 'a2',
        title: 'Chips too',
        source_name: 'Reuters',
        url: 'https://x/2',
        published_at: requested - 2_000,
        story: 0,
      },
      {
        article_id: 'a3',
        title: 'Fabs',
        source_name: 'BBC News',
        url: 'https://x/3',
        published_at: requested - 3_000,
        story: 1,
      },
    ],
    segments: [
      {
        kind: 'intro',
        title: 'Introduction',
        sentences: ['Hello.'],
        article_ids: [],
        start_ms: null,
        end_ms: null,
      },
    ],
    audio_key: null,
    transcript_key: null,
    transcript_json_key: null,
    failure_code: null,
    occurred_at: requested + 12_345,
    ...overrides,
  });

  it('count articles and stories, keep the script as JSON and the time since the request in ms', () => {
    const row = documentaryRow(event(), 42);
    expect(row).toMatchObject({
      article_ids: ['a1', 'a2', 'a3'],
      article_count: 3,
      story_count: 2,
      length: 'medium',
      elapsed_ms: 12_345,
      requested_at: requested / 1000,
      occurred_at: Math.floor((requested + 12_345) / 1000),
      version: 42,
    });
    expect((JSON.parse(row.articles_json as string) as unknown[])[0]).toEqual({
      id: 'a1',
      title: 'Chips',
      source: 'BBC News',
      url: 'https://x/1',
      published_at: '2026-11-24T11:59:58Z',
      story: 0,
    });
    expect(JSON.parse(row.segments_json as string)).toEqual([
      {
        kind: 'intro',
        title: 'Introduction',
        sentences: ['Hello.'],
        article_ids: [],
        start_ms: null,
        end_ms: null,
      },
    ]);
  });

  it('take an event without requested_at (older writers) as requested when it occurred', () => {
    const row = documentaryRow(event({ requested_at: null, status: 'requested' }), 1);
    expect(row).toMatchObject({ elapsed_ms: 0, requested_at: Math.floor((requested + 12_345) / 1000) });
  });
});

describe('story rows', () => {
  const at = Date.UTC(2026, 10, 20, 8);
  const rows = (decision: Parameters<typeof storyEvent>[0], version: number) =>
    rowsFor(topicNames.stories, decision.storyId, storyEvent(decision, at), version, at);
  const part = { sourceId: 's', language: 'en', category: 'business', at, vector: [], terms: [] };

  it('write the article of an opened story and the story as open', () => {
    expect(rows({ type: 'opened', storyId: 'st1', articleId: 'a1', similarity: null, ...part }, 7)).toEqual([
      {
        table: 'story_articles',
        row: { article_id: 'a1', story_id: 'st1', similarity: null, assigned_at: at / 1000, version: 7 },
      },
      {
        table: 'stories',
        row: { story_id: 'st1', status: 'open', merged_into: null, changed_at: at / 1000, version: 7 },
      },
    ]);
  });

  it('write only the article of a join, with its similarity', () => {
    expect(rows({ type: 'joined', storyId: 'st1', articleId: 'a2', similarity: 0.4, ...part }, 8)).toEqual([
      {
        table: 'story_articles',
        row: { article_id: 'a2', story_id: 'st1', similarity: 0.4, assigned_at: at / 1000, version: 8 },
      },
    ]);
  });

  it('move every article of a merged story to the story it went into, and mark it merged', () => {
    const written = rows({ type: 'merged', storyId: 'st2', into: 'st1', articleIds: ['a3', 'a4'], at }, 9);
    expect(
      written.filter((r) => r.table === 'story_articles').map((r) => [r.row.article_id, r.row.story_id]),
    ).toEqual([
      ['a3', 'st1'],
      ['a4', 'st1'],
    ]);
    expect(written.find((r) => r.table === 'stories')?.row).toMatchObject({
      story_id: 'st2',
      status: 'merged',
      merged_into: 'st1',
    });
  });

  it('mark a closed story closed', () => {
    expect(rows({ type: 'closed', storyId: 'st1', at }, 10)).toEqual([
      {
        table: 'stories',
        row: { story_id: 'st1', status: 'closed', merged_into: null, changed_at: at / 1000, version: 10 },
      },
    ]);
  });
});

describe('webhook rows', () => {
  it('keep the previous secret of a rotation sealed, with its expiry in whole seconds', () => {
    const rotated = webhookWith({
      secret_ref: 'sb1:k:new',
      previous_secret_ref: 'sb1:k:old',
      previous_secret_expires_at: Date.UTC(2026, 0, 6, 10, 0, 0),
    });
    expect(webhookRow(rotated, 7)).toMatchObject({
      secret_ref: 'sb1:k:new',
      previous_secret_ref: 'sb1:k:old',
      previous_secret_expires_at: Date.UTC(2026, 0, 6, 10, 0, 0) / 1000,
    });
    expect(webhookRow(webhookWith(), 8)).toMatchObject({
      previous_secret_ref: null,
      previous_secret_expires_at: null,
    });
  });

  it("write a deletion with state_version 0: a tombstone has no version of the webhook's own", () => {
    expect(rowsFor(topicNames.webhooks, 'wh1', null, 42, Date.UTC(2026, 0, 6))).toEqual([
      {
        table: 'webhooks',
        row: {
          webhook_id: 'wh1',
          active: 0,
          updated_at: Date.UTC(2026, 0, 6) / 1000,
          deleted: 1,
          state_version: 0,
          version: 42,
        },
      },
    ]);
  });

  it("write a monitor's own version beside the offset, and 0 on a deletion's row", () => {
    const paused = {
      monitor_id: 'mon1',
      tenant_id: 't1',
      contact_id: 'c-1',
      company: 'Acme',
      aliases: [],
      alert_webhook: 'https://crm.example/hook',
      active: false,
      created_at: Date.UTC(2026, 0, 5),
      version: 2,
      occurred_at: Date.UTC(2026, 0, 6),
    };
    const [written] = rowsFor(topicNames.monitors, 'mon1', paused, 57, Date.UTC(2026, 0, 6));
    expect(written?.table).toBe('monitors');
    expect(written?.row).toMatchObject({
      monitor_id: 'mon1',
      active: 0,
      deleted: 0,
      state_version: 2,
      version: 57,
    });
    expect(rowsFor(topicNames.monitors, 'mon1', null, 58, Date.UTC(2026, 0, 7))).toEqual([
      {
        table: 'monitors',
        row: {
          monitor_id: 'mon1',
          active: 0,
          updated_at: Date.UTC(2026, 0, 7) / 1000,
          deleted: 1,
          state_version: 0,
          version: 58,
        },
      },
    ]);
  });
});
