import { describe, expect, it } from 'vitest';
import type { ArticleEnriched } from '../runtime/events/types.generated.ts';
import { enrichmentRow } from './rows.ts';

const enrichment = (status: ArticleEnriched['status']): ArticleEnriched => ({
  article_id: 'a1',
  status,
  failure_reason: status === 'failed' ? 'provider timeout' : null,
  summary: status === 'succeeded' ? 'Summary.' : null,
  context: null,
  context_article_ids: [],
  insights: [],
  sentiment: null,
  entities: [],
  keywords: [],
  category: null,
  language: null,
  reading_time_seconds: null,
  provider: 'embedded',
  model: 'embedded-1',
  enriched_at: 0,
  occurred_at: 0,
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
