// Settings of the OpenAI provider. The shape can be merged into any service's env shape (the key
// is optional there, so the embedded default never asks for one); requireOpenAiConfig is what
// insists on the key once the openai provider is selected. The key is wrapped at the edge: a logged
// or serialised config shows "[redacted]", and only the client factory ever reveals it. The base URL
// and the key are the account settings speech shares (runtime/openai-account.ts).
import { z } from 'zod';
import { ConfigError, integer, type ConfigOf } from '../../runtime/config.ts';
import { openAiAccountEnv } from '../../runtime/openai-account.ts';
import type { SecretValue } from '../../runtime/secret.ts';

export { SecretValue } from '../../runtime/secret.ts';

const sevenDays = 7 * 24 * 3600;

export const openAiEnv = {
  ...openAiAccountEnv,
  OPENAI_MODEL: z
    .string()
    .trim()
    .default('gpt-4o-mini')
    .refine((s) => s.length > 0, { message: 'expected a model name' })
    .meta({ accepted: 'model name', description: 'The model asked for every enrichment.' }),
  OPENAI_TIMEOUT_MS: integer(30_000, 10, 600_000).describe('Per request.'),
  OPENAI_MAX_RETRIES: integer(4, 0, 10).describe(
    'Retries of 429 (honouring Retry-After), 5xx and connection failures, with exponential backoff.',
  ),
  OPENAI_MAX_INPUT_CHARS: integer(24_000, 500, 1_000_000).describe(
    'Longer article text is cut (at a paragraph or sentence) before it is sent.',
  ),
  OPENAI_CACHE_TTL_SECONDS: integer(sevenDays, 1, 365 * 24 * 3600).describe(
    'How long a validated answer is reused from the Redis cache.',
  ),
} satisfies Record<string, z.ZodType>;

/** The settings as loaded with the shape: the key may be missing. */
export type OpenAiSettings = ConfigOf<typeof openAiEnv>;
/** The settings the provider runs with: the key is there. */
export type OpenAiConfig = OpenAiSettings & { OPENAI_API_KEY: SecretValue };

export function requireOpenAiConfig(settings: OpenAiSettings): OpenAiConfig {
  const key = settings.OPENAI_API_KEY;
  if (key === undefined) {
    throw new ConfigError(['OPENAI_API_KEY: required when the openai provider is selected (it is not set)']);
  }
  return { ...settings, OPENAI_API_KEY: key };
}
