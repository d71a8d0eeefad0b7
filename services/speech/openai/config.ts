// Settings of the OpenAI speech provider. The account (OPENAI_BASE_URL, OPENAI_API_KEY) is the one
// enrichment uses (runtime/openai-account.ts), so one key serves both; speech may go elsewhere with its
// own OPENAI_SPEECH_BASE_URL and OPENAI_SPEECH_API_KEY (a chat server such as Ollama speaks no audio).
// Nothing in the shape is required, so it merges into any service; resolveOpenAiSpeechConfig insists on
// a key once the openai speech provider is selected.
import { z } from 'zod';
import { ConfigError, httpUrl, integer, type ConfigOf } from '../../runtime/config.ts';
import { openAiAccountEnv } from '../../runtime/openai-account.ts';
import { optionalSecret, type SecretValue } from '../../runtime/secret.ts';

export const openAiSpeechEnv = {
  ...openAiAccountEnv,
  OPENAI_SPEECH_BASE_URL: httpUrl()
    .optional()
    .describe(
      'Where speech requests (`POST …/audio/speech`) go, when not to `OPENAI_BASE_URL`: any server ' +
        "speaking OpenAI's speech API.",
    ),
  OPENAI_SPEECH_API_KEY: optionalSecret({
    accepted: 'text',
    description: 'The key for speech requests, when not `OPENAI_API_KEY`.',
  }),
  OPENAI_SPEECH_MODEL: z
    .string()
    .trim()
    .default('gpt-4o-mini-tts')
    .refine((s) => s.length > 0, { message: 'expected a model name' })
    .meta({
      accepted: 'model name',
      description:
        'The speech model: `gpt-4o-mini-tts` (13 voices) or `tts-1` / `tts-1-hd` (9 voices); another name ' +
        'is sent as it is, with the 9 voices every OpenAI speech model speaks.',
    }),
  OPENAI_SPEECH_TIMEOUT_MS: integer(60_000, 100, 600_000).describe(
    'Per attempt; a 4,096-character text takes OpenAI tens of seconds to speak.',
  ),
  OPENAI_SPEECH_MAX_RETRIES: integer(3, 0, 10).describe(
    'Retries of 429 (honouring Retry-After), 5xx, timeouts and connection failures, with exponential backoff.',
  ),
} satisfies Record<string, z.ZodType>;

export type OpenAiSpeechSettings = ConfigOf<typeof openAiSpeechEnv>;

/** What the provider runs with, the speech-specific settings having won over the account ones. */
export interface OpenAiSpeechConfig {
  baseUrl: string;
  apiKey: SecretValue;
  model: string;
  timeoutMs: number;
  maxRetries: number;
}

export function resolveOpenAiSpeechConfig(settings: OpenAiSpeechSettings): OpenAiSpeechConfig {
  const apiKey = settings.OPENAI_SPEECH_API_KEY ?? settings.OPENAI_API_KEY;
  if (apiKey === undefined) {
    throw new ConfigError([
      'OPENAI_SPEECH_API_KEY or OPENAI_API_KEY: required when the openai speech provider is selected (neither is set)',
    ]);
  }
  return {
    baseUrl: settings.OPENAI_SPEECH_BASE_URL ?? settings.OPENAI_BASE_URL,
    apiKey,
    model: settings.OPENAI_SPEECH_MODEL,
    timeoutMs: settings.OPENAI_SPEECH_TIMEOUT_MS,
    maxRetries: settings.OPENAI_SPEECH_MAX_RETRIES,
  };
}
