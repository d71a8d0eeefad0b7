import { apiPublicUrlSetting } from '../audio/audio-address.ts';
import { opsEnv } from '../runtime/ops-server.ts';
import { audioStoreEnv } from '../audio/config.ts';
import { boolean, infrastructureEnv, integer, text } from '../runtime/config.ts';
import { providerEnv } from '../intelligence/provider-factory.ts';
import { speechEnv } from '../speech/provider-factory.ts';

export const documentarianEnv = {
  ...infrastructureEnv,
  ...opsEnv,
  ...speechEnv,
  // The script is written by the enrichment provider: ENRICHMENT_PROVIDER and the OPENAI_* settings.
  ...providerEnv,
  ...audioStoreEnv,
  API_PUBLIC_URL: apiPublicUrlSetting,
  DOCUMENTARIAN_GROUP: text('documentarian').describe('Consumer group of the documentary processors.'),
  DOCUMENTARIAN_FROM_BEGINNING: boolean(true).describe(
    'Where a group with no committed offsets starts: true takes up every documentary on the topic that is ' +
      'not finished (a new deployment), false only those requested from now on.',
  ),
  DOCUMENTARIAN_TARGET_LUFS: integer(-19, -30, -10).describe(
    'Integrated loudness of a finished documentary (LUFS). -19 is the AES recommendation for mono speech; ' +
      'the gain is linear, so a voice whose peaks are high may stay a little quieter.',
  ),
  DOCUMENTARIAN_CANDIDATES: integer(400, 10, 5_000).describe(
    'Most articles read from the read models per documentary before ranking (the newest that mention the topic).',
  ),
  DOCUMENTARIAN_READ_MODEL_WAIT_MS: integer(10_000, 0, 120_000).describe(
    'How long a documentary event waits for the read model to show it before the processor decides whether ' +
      'a newer event of the same documentary exists (and the event is stale).',
  ),
};
