import { boolean, infrastructureEnv, integer, text } from '../runtime/config.ts';
import { opsEnv } from '../runtime/ops-server.ts';
import { providerEnv } from '../intelligence/provider-factory.ts';

export const enricherEnv = {
  ...infrastructureEnv,
  ...opsEnv,
  ...providerEnv,
  ENRICHER_GROUP: text('enricher').describe('Consumer group of the enrichers.'),
  REDIS_KEY_PREFIX: text('').describe(
    'Namespace of Redis keys (the OpenAI answer cache), shared with the API so both reuse the same answers.',
  ),
  ENRICHER_CONCURRENCY: integer(4, 1, 64).describe(
    'Articles of one partition enriched at once; a remote provider is worth several, the embedded one about one per core.',
  ),
  ENRICHER_ATTEMPTS: integer(3, 1, 10).describe(
    'Provider calls per article before a failed enrichment is recorded.',
  ),
  ENRICHER_FROM_BEGINNING: boolean(true).describe(
    'Where a group with no committed offsets starts: true enriches the whole topic (a new deployment), ' +
      'false only what arrives from now on (tests on a shared stack; a second provider tried on live traffic).',
  ),
};
