// Settings of the Google Cloud Text-to-Speech provider. The shape merges into any service's env shape
// (nothing in it is required, so the embedded default never asks for a key); the provider reads its
// credentials when it is created. A service-account key comes from a file or inline as a secret; with
// neither, Google's Application Default Credentials apply (GOOGLE_APPLICATION_CREDENTIALS, gcloud, or
// the metadata server when running on Google Cloud).
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { ConfigError, httpUrl, integer, type ConfigOf } from '../../runtime/config.ts';
import { optionalSecret, type SecretValue } from '../../runtime/secret.ts';

export const googleSpeechEnv = {
  GOOGLE_TTS_KEY_FILE: z
    .string()
    .trim()
    .min(1)
    .optional()
    .meta({
      accepted: 'file path',
      description:
        'A service-account JSON key file for Text-to-Speech. Alternatively `GOOGLE_TTS_SERVICE_ACCOUNT_KEY`; ' +
        "with neither, Google's Application Default Credentials are used.",
    }),
  GOOGLE_TTS_SERVICE_ACCOUNT_KEY: optionalSecret({
    accepted: 'service-account JSON key',
    description:
      'The service-account JSON key itself, for deployments that pass secrets as variables; instead of ' +
      '`GOOGLE_TTS_KEY_FILE`.',
  }),
  GOOGLE_TTS_ENDPOINT: httpUrl('https://texttospeech.googleapis.com').describe(
    'Where the gRPC requests go. An `http://host:port` endpoint is plaintext and carries no credentials ' +
      '(a local test server or emulator).',
  ),
  GOOGLE_TTS_TIMEOUT_MS: integer(30_000, 50, 600_000).describe(
    'Deadline of each request attempt (a 5,000-byte synthesis takes a few seconds).',
  ),
  GOOGLE_TTS_MAX_RETRIES: integer(4, 0, 10).describe(
    'Retries of RESOURCE_EXHAUSTED, UNAVAILABLE, DEADLINE_EXCEEDED, ABORTED and INTERNAL, with ' +
      'exponential backoff (full jitter, 0.5 s doubling up to 8 s).',
  ),
  GOOGLE_TTS_VOICES_TTL_SECONDS: integer(3_600, 1, 7 * 24 * 3_600).describe(
    'How long the voice list from `listVoices` is reused before it is asked for again.',
  ),
} satisfies Record<string, z.ZodType>;

export type GoogleSpeechConfig = ConfigOf<typeof googleSpeechEnv>;

/** The fields of a service-account key the client signs its requests with. */
export interface ServiceAccountKey {
  client_email: string;
  private_key: string;
  private_key_id?: string;
  project_id?: string;
}

/**
 * The service-account key the settings name, or null for Application Default Credentials. Only keys of
 * type `service_account` are accepted: other credential files (external accounts) can make the client
 * run commands or fetch URLs they name. Errors name the setting, never the content.
 */
export function loadServiceAccountKey(config: GoogleSpeechConfig): ServiceAccountKey | null {
  const file = config.GOOGLE_TTS_KEY_FILE;
  const inline: SecretValue | undefined = config.GOOGLE_TTS_SERVICE_ACCOUNT_KEY;
  if (file !== undefined && inline !== undefined) {
    throw new ConfigError([
      'GOOGLE_TTS_KEY_FILE and GOOGLE_TTS_SERVICE_ACCOUNT_KEY are both set: set one of them',
    ]);
  }
  if (inline !== undefined) return parseKey(inline.reveal(), 'GOOGLE_TTS_SERVICE_ACCOUNT_KEY');
  if (file === undefined) return null;
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'unreadable';
    throw new ConfigError([`GOOGLE_TTS_KEY_FILE: cannot read ${file} (${code})`]);
  }
  return parseKey(text, `GOOGLE_TTS_KEY_FILE (${file})`);
}

function parseKey(text: string, source: string): ServiceAccountKey {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    // JSON.parse quotes the text around the fault, which would put part of the key in the message.
    throw new ConfigError([`${source}: not valid JSON`]);
  }
  const key = json as Record<string, unknown> | null;
  if (typeof key !== 'object' || key === null || key.type !== 'service_account') {
    throw new ConfigError([`${source}: expected a service-account key ("type": "service_account")`]);
  }
  if (typeof key.client_email !== 'string' || typeof key.private_key !== 'string') {
    throw new ConfigError([`${source}: the key has no client_email or private_key`]);
  }
  return {
    client_email: key.client_email,
    private_key: key.private_key,
    ...(typeof key.private_key_id === 'string' ? { private_key_id: key.private_key_id } : {}),
    ...(typeof key.project_id === 'string' ? { project_id: key.project_id } : {}),
  };
}
