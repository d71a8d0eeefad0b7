// Google Cloud Text-to-Speech through its own client (@google-cloud/text-to-speech, over gRPC):
// `listVoices` for the voices, `synthesizeSpeech` with LINEAR16 for one piece of text. The text always
// goes as plain `text`, never `ssml`, so markup in it is read out as written.
//
// The client's own retries are switched off; runtime/retry.ts retries instead, like every other retry in
// the services: RESOURCE_EXHAUSTED (quota), UNAVAILABLE, DEADLINE_EXCEEDED, ABORTED and INTERNAL, up to
// GOOGLE_TTS_MAX_RETRIES times with exponential backoff, each attempt under a GOOGLE_TTS_TIMEOUT_MS
// deadline. What still fails is translated into what the synthesizer needs to know (provider.ts).
import { TextToSpeechClient } from '@google-cloud/text-to-speech';
import { GoogleAuth, googleAuthLibrary, grpc, type CallOptions } from 'google-gax';
import { ConfigError } from '../../runtime/config.ts';
import { createLogger, type Logger } from '../../runtime/logger.ts';
import { retry, type RetryPolicy } from '../../runtime/retry.ts';
import {
  SpeechConfigurationError,
  SpeechRejectedError,
  SpeechUnavailableError,
  type Pcm,
  type SpeechLimits,
  type SpeechProvider,
  type SpeechRequest,
} from '../provider.ts';
import { checkRequest, describeEndpoint } from '../remote/request-checks.ts';
import { NotPcmWavError, readPcmWav } from '../remote/wav.ts';
import type { Voice } from '../voice.ts';
import { loadServiceAccountKey, type GoogleSpeechConfig, type ServiceAccountKey } from './config.ts';
import { voiceFromGoogle } from './google-voices.ts';

/**
 * 5,000 bytes of input per request (the SynthesisInput limit). Speaking rate 0.25–2.0: the range the
 * v1 API documents today (its protos in the package say values above 2.0 return an error; the older
 * documentation said 4.0).
 */
export const googleLimits: SpeechLimits = { maxBytes: 5_000, speed: { min: 0.25, max: 2.0 } };

export interface GoogleProviderDeps {
  logger?: Logger;
  /** A client built elsewhere; by default one is built from config. */
  client?: TextToSpeechClient;
  clock?: () => number;
  /** The pauses between retries (the attempts come from config); tests shorten them. */
  backoff?: Pick<RetryPolicy, 'initialBackoffMs' | 'maxBackoffMs'>;
}

const { status } = grpc;
const retried = new Set<grpc.status>([
  status.RESOURCE_EXHAUSTED,
  status.UNAVAILABLE,
  status.DEADLINE_EXCEEDED,
  status.ABORTED,
  status.INTERNAL,
]);
const credentialsRefused = new Set<grpc.status>([status.UNAUTHENTICATED, status.PERMISSION_DENIED]);
const credentialSettings = 'GOOGLE_TTS_KEY_FILE or GOOGLE_TTS_SERVICE_ACCOUNT_KEY';
const defaultBackoff = { initialBackoffMs: 500, maxBackoffMs: 8_000 };

export function createGoogleClient(config: GoogleSpeechConfig, key = loadServiceAccountKey(config)) {
  const endpoint = new URL(config.GOOGLE_TTS_ENDPOINT);
  const plaintext = endpoint.protocol === 'http:';
  return new TextToSpeechClient({
    apiEndpoint: endpoint.hostname,
    port: endpoint.port ? Number(endpoint.port) : plaintext ? 80 : 443,
    ...(plaintext ? { sslCreds: grpc.credentials.createInsecure() } : {}),
    ...(key ? { auth: authFor(key) } : {}),
  });
}

/** Credentials built from the key itself, so no other kind of credential file is ever followed. */
function authFor(key: ServiceAccountKey): GoogleAuth {
  const authClient = new googleAuthLibrary.JWT({
    email: key.client_email,
    key: key.private_key,
    ...(key.private_key_id ? { keyId: key.private_key_id } : {}),
    scopes: ['https://www.googleapis.com/auth/cloud-platform'],
  });
  return new GoogleAuth({ authClient, ...(key.project_id ? { projectId: key.project_id } : {}) });
}

export function createGoogleProvider(
  config: GoogleSpeechConfig,
  deps: GoogleProviderDeps = {},
): SpeechProvider {
  const log = (deps.logger ?? createLogger('speech', 'silent')).child({ provider: 'google' });
  const clock = deps.clock ?? Date.now;
  let client: TextToSpeechClient;
  try {
    client = deps.client ?? createGoogleClient(config);
  } catch (error) {
    // Settings wrong at start stop the process as any invalid setting does (exit 78, not restarted).
    if (error instanceof ConfigError)
      throw new ConfigError(error.problems.map((problem) => `${problem} (SPEECH_PROVIDER=google)`));
    throw error;
  }
  const server = describeEndpoint(config.GOOGLE_TTS_ENDPOINT);
  const maxRetries = config.GOOGLE_TTS_MAX_RETRIES;
  const policy: RetryPolicy = { maxAttempts: maxRetries + 1, ...(deps.backoff ?? defaultBackoff) };
  // The client's retry settings are replaced by none: one attempt per call, under a deadline.
  const callOptions: CallOptions = { timeout: config.GOOGLE_TTS_TIMEOUT_MS, retry: null };
  const voicesTtlMs = config.GOOGLE_TTS_VOICES_TTL_SECONDS * 1000;

  let listed: { voices: Voice[]; at: number } | undefined;
  let listing: Promise<Voice[]> | undefined;

  async function call<T>(operation: string, attempt: () => Promise<T>): Promise<T> {
    const started = clock();
    try {
      return await retry(attempt, {
        policy,
        classify: (error) => (isRetried(error) ? 'retry' : 'give-up'),
        onFailure: ({ attempt: number, error, next }) =>
          log.warn(
            {
              operation,
              attempt: number,
              code: codeName(error),
              next: next.kind,
              delayMs: 'delayMs' in next ? next.delayMs : undefined,
            },
            'google attempt failed',
          ),
      });
    } catch (error) {
      const failure = translate(error, operation);
      log.warn(
        { operation, durationMs: clock() - started, code: codeName(error), error: failure.name },
        'google request failed',
      );
      throw failure;
    }
  }

  function translate(error: unknown, operation: string): Error {
    const code = codeOf(error);
    if (code === undefined) return error instanceof Error ? error : new Error(String(error));
    const what = `google ${operation} at ${server}: ${codeName(error)}`;
    const details = detailsOf(error);
    if (credentialsRefused.has(code) || isCredentialFailure(error)) {
      return new SpeechConfigurationError(
        `${what}: the credentials were refused; check ${credentialSettings} and that the ` +
          `Text-to-Speech API is enabled for the key's project (${details})`,
      );
    }
    if (code === status.UNIMPLEMENTED) {
      return new SpeechConfigurationError(`${what}: check GOOGLE_TTS_ENDPOINT (${details})`);
    }
    if (retried.has(code) || code === status.UNKNOWN || code === status.CANCELLED) {
      const afterRetries = maxRetries > 0 ? ` after ${maxRetries} retries` : '';
      return new SpeechUnavailableError(`${what}${afterRetries} (${details})`);
    }
    // INVALID_ARGUMENT, NOT_FOUND, OUT_OF_RANGE, FAILED_PRECONDITION...: this request, as asked.
    return new SpeechRejectedError(`${what} (${details})`);
  }

  async function listVoices(): Promise<Voice[]> {
    try {
      const [answer] = await call('listVoices', () => client.listVoices({}, callOptions));
      const byId = new Map<string, Voice>();
      for (const google of answer.voices ?? []) {
        const voice = voiceFromGoogle(google);
        if (voice && !byId.has(voice.id)) byId.set(voice.id, voice);
      }
      const voices = [...byId.values()].sort((a, b) => a.id.localeCompare(b.id));
      if (voices.length === 0) {
        log.warn({ operation: 'listVoices' }, 'google listed no voices; asking again next time');
        return voices;
      }
      listed = { voices, at: clock() };
      log.info({ voices: voices.length }, 'google voices listed');
      return voices;
    } catch (error) {
      // An outage should not empty the voice list a moment after it was known: the last one is served.
      if (listed && !(error instanceof SpeechConfigurationError)) {
        log.warn({ error: (error as Error).name }, 'google voices unavailable; serving the last list');
        return listed.voices;
      }
      throw error;
    }
  }

  return {
    name: 'google',
    limits: googleLimits,

    async voices(): Promise<Voice[]> {
      if (listed && clock() - listed.at < voicesTtlMs) return listed.voices;
      listing ??= listVoices().finally(() => {
        listing = undefined;
      });
      return listing;
    },

    async synthesize(request: SpeechRequest): Promise<Pcm> {
      const { voice, text, speed } = request;
      if (voice.provider !== 'google') {
        throw new SpeechRejectedError(`google: ${voice.id} is a ${voice.provider} voice`);
      }
      checkRequest('google', googleLimits, request);
      const [answer] = await call('synthesizeSpeech', () =>
        client.synthesizeSpeech(
          {
            input: { text },
            voice: { languageCode: voice.languageCodes[0] ?? null, name: voice.engineVoice },
            audioConfig: { audioEncoding: 'LINEAR16', speakingRate: speed },
          },
          callOptions,
        ),
      );
      const content = answer.audioContent;
      const bytes =
        typeof content === 'string' ? Buffer.from(content, 'base64') : (content ?? new Uint8Array());
      try {
        return readPcmWav(bytes);
      } catch (error) {
        if (!(error instanceof NotPcmWavError)) throw error;
        log.warn({ operation: 'synthesizeSpeech', reason: error.reason }, 'google answer refused');
        throw new SpeechRejectedError(
          `google synthesizeSpeech at ${server} answered ${voice.engineVoice} with no LINEAR16 audio: ${error.reason}`,
        );
      }
    },

    async close(): Promise<void> {
      await client.close();
    },
  };
}

/** The gRPC status of a failed call (gax errors carry it as `code`). */
const codeOf = (error: unknown): grpc.status | undefined => {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'number' ? code : undefined;
};

const codeName = (error: unknown): string | undefined => {
  const code = codeOf(error);
  return code === undefined ? undefined : (status[code] ?? String(code));
};

const detailsOf = (error: unknown): string => {
  const details = (error as { details?: unknown }).details;
  const text = typeof details === 'string' && details ? details : (error as Error).message;
  return String(text).slice(0, 300);
};

/**
 * grpc-js reports a failure to produce the call's credentials (a key that does not sign, a token the
 * auth server refuses) as UNAVAILABLE; no retry fixes that.
 */
const isCredentialFailure = (error: unknown) =>
  codeOf(error) === status.UNAVAILABLE && /getting metadata from plugin failed/i.test(detailsOf(error));

const isRetried = (error: unknown) => {
  const code = codeOf(error);
  return code !== undefined && retried.has(code) && !isCredentialFailure(error);
};
