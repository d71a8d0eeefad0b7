// Settings of the OpenAI provider. The shape can be merged into any service's env shape (the key
// is optional there, so the embedded default never asks for one); requireOpenAiConfig, or
// loadOpenAiConfig, is what insists on the key once the openai provider is selected. The key is wrapped at the edge: a logged or
// serialised config shows "[redacted]", and only the client factory ever reveals it.
import { inspect } from 'node:util';
import { z } from 'zod';
import { ConfigError, httpUrl, integer, loadConfig, type ConfigOf } from '../../runtime/config.ts';

export class SecretValue {
  readonly #value: string;
  constructor(value: string) {
    this.#value = value;
  }
  reveal(): string {
    return this.#value;
  }
  toString(): string {
    return '[redacted]';
  }
  toJSON(): string {
    return '[redacted]';
  }
  [inspect.custom](): string {
    return '[redacted]';
  }
}

const sevenDays = 7 * 24 * 3600;

export const openAiEnv = {
  /** Any server speaking OpenAI's chat-completions protocol (OpenAI, Azure-style proxies, vLLM, Ollama). */
  OPENAI_BASE_URL: httpUrl('https://api.openai.com/v1'),
  OPENAI_API_KEY: z
    .string()
    .trim()
    .min(1, { message: 'expected a non-blank key' })
    .optional()
    .transform((key) => (key === undefined ? undefined : new SecretValue(key))),
  OPENAI_MODEL: z
    .string()
    .trim()
    .default('gpt-4o-mini')
    .refine((s) => s.length > 0, { message: 'expected a model name' }),
  OPENAI_TIMEOUT_MS: integer(30_000, 10, 600_000),
  /** Retries of 429, 5xx and connection failures, with the SDK's exponential backoff. */
  OPENAI_MAX_RETRIES: integer(4, 0, 10),
  /** Longer article text is cut (at a paragraph or sentence) before it is sent. */
  OPENAI_MAX_INPUT_CHARS: integer(24_000, 500, 1_000_000),
  OPENAI_CACHE_TTL_SECONDS: integer(sevenDays, 1, 365 * 24 * 3600),
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

export function loadOpenAiConfig(
  env: NodeJS.ProcessEnv | Record<string, string | undefined> = process.env,
): OpenAiConfig {
  return requireOpenAiConfig(loadConfig(openAiEnv, env));
}
