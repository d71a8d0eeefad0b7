// OpenAI speech (`POST /audio/speech`) through the openai package, or any server speaking that API.
// Each request asks for `wav`: 16-bit PCM behind a header that proves the answer is audio and says its
// sample rate (24 kHz at OpenAI; a compatible server may differ). Retries with backoff (429 with
// Retry-After honoured, 408/409, 5xx, timeouts, connection failures) are the SDK's own, each attempt
// bounded by OPENAI_SPEECH_TIMEOUT_MS; this module checks the request before anything is spent, refuses
// an answer that is not audio, and translates what still fails into what the synthesizer needs to know.
// The key never appears in a message: auth failures are described without the server's words (OpenAI
// echoes part of the key in them), and every other message has the key scrubbed out.
import OpenAI, {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  AuthenticationError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
} from 'openai';
import { ConfigError } from '../../runtime/config.ts';
import { createLogger, type Logger } from '../../runtime/logger.ts';
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
import { resolveOpenAiSpeechConfig, type OpenAiSpeechConfig, type OpenAiSpeechSettings } from './config.ts';
import { openAiVoices } from './openai-voices.ts';

/** 4,096 characters per request; speed 0.25–4.0 (OpenAI's speech API reference). */
export const openAiSpeechLimits: SpeechLimits = { maxChars: 4_096, speed: { min: 0.25, max: 4.0 } };

export interface OpenAiSpeechProviderDeps {
  logger?: Logger;
  /** A client built elsewhere; by default one is built from config. */
  client?: OpenAI;
  clock?: () => number;
}

const keySettings = 'OPENAI_SPEECH_API_KEY or OPENAI_API_KEY';

export function createOpenAiSpeechClient(config: OpenAiSpeechConfig, logger?: Logger): OpenAI {
  return new OpenAI({
    baseURL: config.baseUrl,
    apiKey: config.apiKey.reveal(),
    timeout: config.timeoutMs,
    maxRetries: config.maxRetries,
    // The SDK would log to the console in its own format; each failed attempt is logged below instead.
    logLevel: 'off',
    ...(logger ? { fetch: fetchLoggingAttempts(logger) } : {}),
  });
}

/** Makes the SDK's retries visible: one line per failed attempt, with what the server said to wait. */
function fetchLoggingAttempts(logger: Logger): typeof fetch {
  return async (input, init) => {
    try {
      const response = await fetch(input, init);
      if (!response.ok) {
        logger.warn(
          { status: response.status, retryAfter: response.headers.get('retry-after') },
          'openai speech attempt failed',
        );
      }
      return response;
    } catch (error) {
      logger.warn({ error: (error as Error).name }, 'openai speech attempt failed');
      throw error;
    }
  };
}

/** The provider from the loaded settings (`openAiSpeechEnv`); a missing key is a SpeechConfigurationError. */
export function createOpenAiSpeechProvider(
  settings: OpenAiSpeechSettings,
  deps: OpenAiSpeechProviderDeps = {},
): SpeechProvider {
  let config: OpenAiSpeechConfig;
  try {
    config = resolveOpenAiSpeechConfig(settings);
  } catch (error) {
    // Settings wrong at start stop the process as any invalid setting does (exit 78, not restarted).
    if (error instanceof ConfigError)
      throw new ConfigError(error.problems.map((problem) => `${problem} (SPEECH_PROVIDER=openai)`));
    throw error;
  }
  const { model } = config;
  const log = (deps.logger ?? createLogger('speech', 'silent')).child({ provider: 'openai', model });
  const clock = deps.clock ?? Date.now;
  const client = deps.client ?? createOpenAiSpeechClient(config, log);
  const server = describeEndpoint(client.baseURL);
  const apiKey = config.apiKey.reveal();
  const voices = openAiVoices(model);
  const scrub = (message: string) => message.split(apiKey).join('[redacted]').slice(0, 300);

  function translate(error: unknown): Error {
    const afterRetries = client.maxRetries > 0 ? ` after ${client.maxRetries} retries` : '';
    if (error instanceof APIConnectionTimeoutError) {
      return new SpeechUnavailableError(
        `openai speech at ${server}: no answer within ${client.timeout} ms${afterRetries}`,
      );
    }
    if (error instanceof APIConnectionError) {
      const cause = error.cause instanceof Error ? `: ${scrub(error.cause.message)}` : '';
      return new SpeechUnavailableError(`openai speech: could not reach ${server}${afterRetries}${cause}`);
    }
    if (!(error instanceof APIError)) return error instanceof Error ? error : new Error(scrub(String(error)));
    const status = typeof error.status === 'number' ? error.status : undefined;
    const code = error.code ? ` ${error.code}` : '';
    if (error instanceof AuthenticationError || error instanceof PermissionDeniedError) {
      return new SpeechConfigurationError(
        `openai speech at ${server} refused the API key (${status}${code}): check ${keySettings}`,
      );
    }
    if (error instanceof NotFoundError) {
      return new SpeechConfigurationError(
        `openai speech at ${server} answered 404${code} for model ${model}: check OPENAI_SPEECH_MODEL and ` +
          `that the server speaks audio/speech (OPENAI_SPEECH_BASE_URL) (${scrub(error.message)})`,
      );
    }
    if (error instanceof RateLimitError && error.code === 'insufficient_quota') {
      return new SpeechConfigurationError(
        `openai speech at ${server}: the account has no quota left (429 insufficient_quota)`,
      );
    }
    const message = `openai speech at ${server} answered ${status ?? 'an error'}${code}`;
    if (status === undefined || status === 408 || status === 409 || status === 429 || status >= 500) {
      return new SpeechUnavailableError(`${message}${afterRetries}: ${scrub(error.message)}`);
    }
    // 400, 413, 422...: this text, voice or speed, as asked.
    return new SpeechRejectedError(`${message}: ${scrub(error.message)}`);
  }

  /** The answer's audio, or a SpeechRejectedError saying what came instead. */
  async function audioOf(response: Response, voice: string): Promise<Pcm> {
    const refuse = (reason: string) => {
      log.warn({ status: response.status, reason }, 'openai speech answer refused');
      return new SpeechRejectedError(`openai speech at ${server} answered ${voice} with no audio: ${reason}`);
    };
    const type = (response.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
    let bytes: Uint8Array;
    try {
      bytes = new Uint8Array(await response.arrayBuffer());
    } catch (error) {
      throw new SpeechUnavailableError(
        `openai speech at ${server}: the answer broke off (${scrub((error as Error).message)})`,
      );
    }
    if (type === 'application/json' || type.endsWith('+json') || type.startsWith('text/')) {
      throw refuse(`${bytes.length} bytes of ${type}`);
    }
    try {
      return readPcmWav(bytes);
    } catch (error) {
      if (error instanceof NotPcmWavError) throw refuse(error.reason);
      throw error;
    }
  }

  return {
    name: 'openai',
    variant: model,
    limits: openAiSpeechLimits,

    async voices() {
      return voices;
    },

    async synthesize(request: SpeechRequest): Promise<Pcm> {
      const { voice, text, speed } = request;
      if (voice.provider !== 'openai') {
        throw new SpeechRejectedError(`openai: ${voice.id} is a ${voice.provider} voice`);
      }
      checkRequest('openai', openAiSpeechLimits, request);
      const started = clock();
      let response: Response;
      try {
        response = await client.audio.speech.create({
          model,
          voice: voice.engineVoice,
          input: text,
          response_format: 'wav',
          speed,
        });
      } catch (error) {
        const failure = translate(error);
        log.warn(
          {
            durationMs: clock() - started,
            status: error instanceof APIError ? error.status : undefined,
            error: failure.name,
          },
          'openai speech failed',
        );
        throw failure;
      }
      const pcm = await audioOf(response, voice.engineVoice);
      log.debug(
        { durationMs: clock() - started, characters: text.length, samples: pcm.samples.length },
        'openai speech answered',
      );
      return pcm;
    },
  };
}
