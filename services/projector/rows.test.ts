import { describe, expect, it } from 'vitest';
import type { ArticleEnriched } from '../runtime/events/types.generated.ts';
import { failedEnrichment } from '../intelligence/enrichment-event.ts';
import { enrichmentRow } from './rows.ts';

const embedded = { name: 'embedded', model: 'embedded-1' };
const enrichment = (status: ArticleEnriched['status']): ArticleEnriched =>
  status === 'failed'
    ? failedEnrichment('a1', 'provider timeout', embedded, 0)
    : { ...failedEnrichment('a1', '', embedded, 0), status, failure_reason: null, summary: 'Summary.' };

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
