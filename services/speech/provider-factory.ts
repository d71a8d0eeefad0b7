// Which speech providers a process uses, from its settings: the one place that knows every provider, so
// adding one touches its folder and this file. The embedded provider is always there (it needs no
// account and covers every language offline); SPEECH_PROVIDER says which one is the default, whose
// voices are preferred when a request names only a language.
import type { Logger } from '../runtime/logger.ts';
import { integer, oneOf, type ConfigOf } from '../runtime/config.ts';
import { createEmbeddedSpeechProvider } from './embedded/embedded-provider.ts';
import { googleSpeechEnv } from './google/config.ts';
import { createGoogleProvider } from './google/google-provider.ts';
import { openAiSpeechEnv } from './openai/config.ts';
import { createOpenAiSpeechProvider } from './openai/openai-speech-provider.ts';
import type { SpeechProvider } from './provider.ts';

export const speechProviderNames = ['embedded', 'google', 'openai'] as const;

export const speechEnv = {
  SPEECH_PROVIDER: oneOf(speechProviderNames, 'embedded').describe(
    'The default speech provider, whose voices are chosen when a request names only a language: ' +
      '`embedded` (offline: Festival HTS for US English, espeak-ng for about 130 other languages and ' +
      'accents), `google` (Google Cloud Text-to-Speech, GOOGLE_TTS_*) or `openai` (OpenAI speech, ' +
      'OPENAI_SPEECH_* or OPENAI_*). The embedded voices are offered beside a remote provider, as its fallback.',
  ),
  SPEECH_FESTIVAL_PROCESSES: integer(1, 1, 8).describe(
    'Festival processes kept for English (each about 330 MB, speaking about 25 times faster than real ' +
      'time on one core); English requests beyond them wait in a queue. Started on the first English request.',
  ),
  SPEECH_CONCURRENCY: integer(2, 1, 32).describe(
    'Pieces of one text spoken at once (long text is split to fit the provider): one per core suits ' +
      'the embedded engines, a remote provider is worth more.',
  ),
  ...googleSpeechEnv,
  ...openAiSpeechEnv,
};

export type SpeechConfig = ConfigOf<typeof speechEnv>;

/** The configured providers, the default first. Close them (their close()) when the process stops. */
export function createSpeechProviders(
  config: SpeechConfig,
  deps: { logger?: Logger } = {},
): SpeechProvider[] {
  const embedded = createEmbeddedSpeechProvider({
    festivalProcesses: config.SPEECH_FESTIVAL_PROCESSES,
    logger: deps.logger,
  });
  switch (config.SPEECH_PROVIDER) {
    case 'embedded':
      return [embedded];
    case 'google':
      return [createGoogleProvider(config, { logger: deps.logger }), embedded];
    case 'openai':
      return [createOpenAiSpeechProvider(config, { logger: deps.logger }), embedded];
  }
}
