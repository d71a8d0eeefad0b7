// The offline speech provider: Festival's HTS voice for US English (statistical parametric synthesis,
// far more natural than formants) and espeak-ng for every other language and English variant.
//
// Limits, both engines alike:
// - 500 characters per request. Festival synthesizes one request as one utterance, and its time grows
//   faster than the text beyond a few sentences (measured here: 25x real time up to 600 characters,
//   19x at 1,200, 16x at 2,400, 3.6x at 6,000); 500 keeps it in its linear range, keeps one job at
//   1.5-3 s so a queue of one process stays responsive, and gives the synthesizer pieces to spread over
//   cores. espeak-ng does not care: its voices take 5,000 characters a request, since each request
//   starts an espeak-ng process (about 20 ms of CPU to load a voice), which at 500 characters cost the
//   narrator an eighth of its espeak throughput (bench:audio).
// - speed 0.5 to 2.5: what both engines really do (Festival's HTS rate scales duration exactly, 0.5x
//   doubling and 2.5x dividing it by 2.5; espeak-ng takes 80 to 450 words a minute, 175 being 1.0).
import type { Logger } from '../../runtime/logger.ts';
import type { SpeechLimits, SpeechProvider } from '../provider.ts';
import type { Voice } from '../voice.ts';
import { listEspeakVoices, synthesizeEspeak } from './espeak.ts';
import { createFestival, festivalSampleRate, festivalSpeedRange, festivalVoice } from './festival.ts';
import { festivalText, festivalUnreadable } from './festival-text.ts';

export const embeddedSpeechProviderName = 'embedded';

export const embeddedSpeechLimits: SpeechLimits = {
  maxChars: 500,
  speed: { min: festivalSpeedRange.min, max: festivalSpeedRange.max },
};

/** What one espeak-ng request may carry (see the top of the file). */
export const espeakTextLimits = { maxChars: 5_000 } as const;

/** The default English voice. */
export const festivalEnglishVoice: Voice = {
  id: 'en-US-slt-hts',
  name: 'SLT (US English), Festival HTS',
  languageCodes: ['en-US'],
  gender: 'female',
  provider: embeddedSpeechProviderName,
  quality: 'parametric',
  sampleRateHz: festivalSampleRate,
  engineVoice: festivalVoice,
};

export interface EmbeddedSpeechOptions {
  /** Festival processes (each ~330 MB, started on first English request). */
  festivalProcesses?: number;
  festivalCommand?: string;
  espeakCommand?: string;
  logger?: Logger;
}

/**
 * espeak-ng voices whose dictionary here lacks the Chinese characters of their language (Debian's data is
 * built without the extended lists): the Japanese voice says "Chinese letter" for every kanji, the
 * Mandarin one spells most hanzi out as Latin letters with their tone numbers. Kana, and the Cantonese
 * voice's hanzi, are read.
 */
const hanUnreadable = new Map([
  [
    'jpx/ja',
    'the offline Japanese voice cannot read kanji (espeak-ng says "Chinese letter" for each); send the text in kana, or use a Google voice where this service offers them (GET /v1/voices?provider=google; its operator enables them with SPEECH_PROVIDER=google)',
  ],
  [
    'sit/cmn',
    'the offline Mandarin voice cannot read most Chinese characters (espeak-ng spells them out as Latin letters and tone numbers); the offline Cantonese voices (yue-espeak-f, yue-espeak-m) read them, in Cantonese, or use a Google voice where this service offers them (GET /v1/voices?provider=google; its operator enables them with SPEECH_PROVIDER=google)',
  ],
]);

export function createEmbeddedSpeechProvider(options: EmbeddedSpeechOptions = {}): SpeechProvider {
  const festival = createFestival({
    processes: options.festivalProcesses,
    command: options.festivalCommand,
    logger: options.logger,
  });
  const espeak = { command: options.espeakCommand };
  let catalogue: Promise<Voice[]> | null = null;

  return {
    name: embeddedSpeechProviderName,
    limits: embeddedSpeechLimits,

    voices() {
      // Festival's voice first: it is the default for English (and any English request that does not ask
      // for a particular accent). Kept once it is read; a failure is tried again next time.
      catalogue ??= listEspeakVoices(espeak).then(
        (voices) => [festivalEnglishVoice, ...voices],
        (error: unknown) => {
          catalogue = null;
          throw error;
        },
      );
      return catalogue;
    },

    textLimits: (voice) =>
      voice.id === festivalEnglishVoice.id ? { maxChars: embeddedSpeechLimits.maxChars } : espeakTextLimits,

    unreadable: (voice, text) => {
      if (voice.id === festivalEnglishVoice.id) return festivalUnreadable(text);
      const reason = hanUnreadable.get(voice.engineVoice.split('+')[0]!);
      return reason && /\p{Script=Han}/u.test(text) ? reason : null;
    },

    synthesize({ text, voice, speed }) {
      if (voice.id === festivalEnglishVoice.id) return festival.synthesize(festivalText(text), speed);
      return synthesizeEspeak(text, voice.engineVoice, speed, espeak);
    },

    // Each engine's own pause after a sentence, measured on its output: Festival 130-200 ms, espeak-ng
    // 340-460 ms (its trailing silence alone is about 330 ms).
    sentencePauseMs: (voice) => (voice.id === festivalEnglishVoice.id ? 200 : 400),

    close: () => festival.close(),
  };
}
