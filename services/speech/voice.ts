// A voice as GET /v1/voices lists it, and as the synthesizer picks it. Ids are unique across providers
// and start with the voice's main locale (`en-US-…`, `pt-BR-…`), so a client can filter by prefix and a
// narration event names the exact voice it was read in.

export const voiceGenders = ['female', 'male', 'neutral'] as const;
export type VoiceGender = (typeof voiceGenders)[number];

/**
 * What kind of engine speaks, said honestly: `neural` (Google's Neural2/WaveNet/Studio, OpenAI),
 * `parametric` (statistical parametric synthesis, e.g. Festival's HTS voices), `formant` (rule-based
 * formant synthesis, e.g. espeak-ng), `standard` (a provider's non-neural tier).
 */
export const voiceQualities = ['neural', 'parametric', 'formant', 'standard'] as const;
export type VoiceQuality = (typeof voiceQualities)[number];

export interface Voice {
  /** Locale-prefixed and unique across providers, e.g. `en-US-slt-hts`, `pt-BR-espeak-f2`, `en-US-Neural2-F`. */
  id: string;
  /** Display name, e.g. "SLT (US English, HTS)". */
  name: string;
  /** BCP 47 tags it speaks, its main one first (e.g. ['en-US'] or, for a multilingual voice, many). */
  languageCodes: string[];
  gender: VoiceGender;
  /** The provider that speaks it (`embedded`, `google`, `openai`). */
  provider: string;
  quality: VoiceQuality;
  /** Sample rate of the audio it produces before encoding, in Hz. */
  sampleRateHz: number;
  /** The provider's own name for the voice (an espeak-ng voice+variant, a Google voice name...). */
  engineVoice: string;
}

/** ISO 639-1 part of a BCP 47 tag, lower case: `pt-BR` -> `pt`. */
export const languageOf = (tag: string): string => tag.split(/[-_]/)[0]!.toLowerCase();

/** Whether `voice` speaks `language`, given as ISO 639-1 (`pt`) or a locale (`pt-BR`, case-insensitive). */
export function speaks(voice: Voice, language: string): boolean {
  const wanted = language.toLowerCase().replace('_', '-');
  return voice.languageCodes.some((code) => {
    const tag = code.toLowerCase();
    return wanted.includes('-') ? tag === wanted : languageOf(tag) === wanted;
  });
}
