import { apiPublicUrlSetting } from '../audio/audio-address.ts';
import { opsEnv } from '../runtime/ops-server.ts';
import { audioStoreEnv } from '../audio/config.ts';
import { boolean, infrastructureEnv, integer, text } from '../runtime/config.ts';
import { speechEnv } from '../speech/provider-factory.ts';
import { narrationEnv } from '../narration/config.ts';

export const narratorEnv = {
  ...infrastructureEnv,
  ...opsEnv,
  ...speechEnv,
  ...audioStoreEnv,
  API_PUBLIC_URL: apiPublicUrlSetting,
  NARRATOR_GROUP: text('narrator').describe('Consumer group of the narrators.'),
  NARRATOR_FROM_BEGINNING: boolean(true).describe(
    'Where a group with no committed offsets starts: true narrates every enriched article on the topic ' +
      '(a new deployment), false only what is enriched from now on (tests on a shared stack).',
  ),
  ...narrationEnv,
  NARRATOR_CONCURRENCY: integer(2, 1, 64).describe(
    'Articles of one batch narrated at once; the embedded engines use about a core each.',
  ),
  NARRATOR_ATTEMPTS: integer(3, 1, 10).describe(
    'Syntheses of an article before its narration is recorded as failed (a provider that is down is ' +
      'waited for instead, without using attempts).',
  ),
  NARRATOR_MAX_AGE_HOURS: integer(168, 0, 100_000).describe(
    'Articles published longer ago are recorded as skipped instead of narrated (0: narrate everything), so ' +
      "a feed's archive or a long backlog does not hold up today's news and the alerts waiting for it.",
  ),
  NARRATOR_ARTICLE_WAIT_MS: integer(60_000, 0, 3_600_000).describe(
    'How long an enrichment waits for its article to reach the read model (for the headline and text).',
  ),
};
