import { describe, expect, it } from 'vitest';
import { failedEnrichment } from '../intelligence/enrichment-event.ts';
import type { ArticleEnriched } from '../runtime/events/types.generated.ts';
import { storyArticle } from './clusterer.ts';

const enrichment: ArticleEnriched = {
  ...failedEnrichment(
    { article_id: 'a1', url: 'https://news.example/fire', title: 'Wildfire reaches the coast' },
    '',
    { name: 'embedded', model: 'embedded-1' },
    5_000,
  ),
  status: 'succeeded',
  failure_reason: null,
  summary: 'The fire reached the coast overnight.',
  entities: [{ name: 'Malibu', type: 'place', salience: 0.8, mentions: 2 }],
};

describe('storyArticle', () => {
  it('clusters an article the read model does not show on its enrichment, headline included', () => {
    expect(storyArticle(enrichment, undefined)).toMatchObject({
      id: 'a1',
      title: 'Wildfire reaches the coast',
      lead: 'The fire reached the coast overnight.',
      entities: ['Malibu'],
      at: 5_000,
    });
  });
});
