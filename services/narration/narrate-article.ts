// One enriched article -> one narration event: succeeded (the audio is stored and addressed), skipped
// (nothing to say, or no voice speaks its language), or failed (the provider refused it, or kept failing
// after its retries). A provider that is down is not the article's fault: SpeechUnavailableError goes up
// to the consumer, which waits for the provider without using up attempts and without recording
// anything, so no article is dropped while speech is unavailable.
//
// Replays and restarts are cheap: synthesis is content-addressed (audio/audio-key.ts), so narrating the
// same article again finds the stored file and synthesizes nothing.
import type { AudioFormat } from '../audio/audio-store.ts';
import type { ArticleNarrated } from '../runtime/events/types.generated.ts';
import { describeError, isUnavailable } from '../runtime/kafka/errors.ts';
import type { Logger } from '../runtime/logger.ts';
import { retrying, type RetryPolicy } from '../runtime/retry.ts';
import { SpeechRejectedError } from '../speech/provider.ts';
import { InvalidSpeechRequest, type Synthesis } from '../speech/synthesis.ts';
import {
  leadOf,
  narrationLanguage,
  narrationText,
  type ArticleWords,
  type NarrationTextMode,
} from './narration-text.ts';

/** Longest text narrated (a long read in full is about an hour of audio); longer text is cut at a sentence. */
export const maxNarrationCharacters = 60_000;

export interface NarrateArticleDependencies {
  synthesis: Pick<Synthesis, 'synthesize' | 'voiceFor'>;
  /** Where the API serves audio: audio_url is `<publicUrl>/v1/audio/<key>` (unsigned). */
  audioAddress: (key: string) => string;
  format: AudioFormat;
  text: NarrationTextMode;
  /** Attempts of a failing synthesis before the narration is recorded as failed. */
  retry: RetryPolicy;
  /** The provider that narrates when a voice is chosen by language (the default provider's name). */
  defaultProvider: string;
  logger: Logger;
  clock?: () => number;
}

export async function narrateArticle(
  articleId: string,
  article: ArticleWords,
  deps: NarrateArticleDependencies,
): Promise<ArticleNarrated> {
  const clock = deps.clock ?? Date.now;
  const outcome = (fields: Partial<ArticleNarrated> & Pick<ArticleNarrated, 'status' | 'provider'>) => ({
    article_id: articleId,
    failure_reason: null,
    audio_url: null,
    audio_key: null,
    voice: null,
    format: null,
    duration_ms: null,
    characters: null,
    occurred_at: clock(),
    ...fields,
  });

  const text = leadOf(narrationText(article, deps.text), maxNarrationCharacters);
  if (text === '')
    return outcome({ status: 'skipped', provider: deps.defaultProvider, failure_reason: 'no text' });
  const language = narrationLanguage(article, text);
  if (!language)
    return outcome({
      status: 'skipped',
      provider: deps.defaultProvider,
      failure_reason: 'the language of the article is unknown and could not be detected',
    });

  let voice;
  try {
    voice = await deps.synthesis.voiceFor({ language });
  } catch (error) {
    if (!(error instanceof InvalidSpeechRequest)) throw error;
    return outcome({
      status: 'skipped',
      provider: deps.defaultProvider,
      failure_reason: `no voice speaks ${language}`,
    });
  }

  const result = await retrying(
    () =>
      deps.synthesis.synthesize({
        text,
        voiceId: voice.id,
        language,
        format: deps.format,
        maxCharacters: maxNarrationCharacters,
      }),
    {
      policy: deps.retry,
      // Unavailable: the consumer waits for the provider. Refused input: retrying will not help.
      classify: (error) =>
        isUnavailable(error) || error instanceof SpeechRejectedError || error instanceof InvalidSpeechRequest
          ? 'give-up'
          : 'retry',
      onFailure: ({ attempt, error, next }) =>
        deps.logger.warn(
          { articleId, voice: voice.id, attempt, next: next.kind, err: describeError(error) },
          'narration attempt failed',
        ),
    },
  );
  if (result.kind === 'done') {
    const audio = result.value;
    return outcome({
      status: 'succeeded',
      provider: audio.voice.provider,
      audio_url: deps.audioAddress(audio.audio.key),
      audio_key: audio.audio.key,
      voice: audio.voice.id,
      format: audio.format,
      duration_ms: audio.durationMs,
      characters: audio.characters,
    });
  }
  if (isUnavailable(result.error)) throw result.error;
  const reason = describeError(result.error);
  return outcome({
    status: 'failed',
    provider: voice.provider,
    voice: voice.id,
    characters: text.length,
    failure_reason: (result.kind === 'exhausted'
      ? `gave up after ${result.attempts} attempts: ${reason}`
      : reason
    ).slice(0, 500),
  });
}
