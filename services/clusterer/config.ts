import { boolean, decimal, infrastructureEnv, integer, text } from '../runtime/config.ts';
import { opsEnv } from '../runtime/ops-server.ts';

export const clustererEnv = {
  ...infrastructureEnv,
  ...opsEnv,
  CLUSTERER_GROUP: text('clusterer').describe(
    'Consumer group of the clusterers. One member clusters (it takes every partition); others wait as standbys.',
  ),
  CLUSTERER_FROM_BEGINNING: boolean(true).describe(
    'Where a group with no committed offsets starts: true assigns every enriched article on the topic to a ' +
      'story (a new deployment clusters the history), false only those enriched from now on.',
  ),
  CLUSTERER_ARTICLE_WAIT_MS: integer(60_000, 0, 3_600_000).describe(
    'How long an enrichment waits for its article to reach the read model; past that the article is ' +
      'clustered on what its enrichment says.',
  ),
  STORY_JOIN_THRESHOLD: decimal(0.15, 0.01, 1).describe(
    "Least cosine similarity of an article with a story's centroid for it to join the story " +
      '(docs/stories.md). Lower joins more; bench:stories tunes it.',
  ),
  STORY_WINDOW_HOURS: integer(48, 1, 24 * 30).describe(
    'An article joins only stories whose latest article is at most this many hours from it.',
  ),
  STORY_CLOSE_AFTER_HOURS: integer(72, 1, 24 * 90).describe(
    'A story that nothing joined for this many hours (of article time) closes and takes no more articles.',
  ),
  STORY_MERGE_THRESHOLD: decimal(0.2, 0.01, 1).describe(
    'Two stories an article matches both are merged when their centroids are at least this alike.',
  ),
  BREAKING_WINDOW_MINUTES: integer(30, 1, 24 * 60).describe(
    'Breaking news (docs/stories.md#breaking-news): the window from a story’s first article in which its ' +
      'sources are counted.',
  ),
  BREAKING_MIN_SOURCES: integer(4, 2, 100).describe(
    'The fewest distinct sources reporting a story within the window for it to be breaking news.',
  ),
  BREAKING_RATE_FACTOR: decimal(3, 1, 100).describe(
    'And how many times the usual number of sources a story of its category reaches in the window ' +
      '(the mean over its latest 200 closed stories; 1 until there are any).',
  ),
};
