// OpenAI's built-in speech voices. OpenAI has no voice-listing endpoint, so the list is the documented one:
// `gpt-4o-mini-tts` speaks 13 voices; `tts-1` and `tts-1-hd` the 9 older ones (not ballad, verse, marin
// or cedar). A model this list does not know gets those 9, which every OpenAI speech model speaks.
//
// Languages, said honestly: every voice is multilingual, but OpenAI tunes them for English and they read
// other languages with an English accent. OpenAI documents that its speech follows Whisper's language
// support and lists 57 languages (below). So each voice's main locale is the English it speaks (en-US;
// en-GB for fable, whose accent is British), which starts its id (`en-US-openai-alloy`), and the other 56
// languages follow as bare ISO 639-1 tags: it speaks Portuguese, but no particular country's, so it
// answers to `pt` and not to `pt-BR`. Norwegian is listed as both `no` and `nb` (Bokmål, the written
// standard news is in); that is one language, two tags.
import type { Voice, VoiceGender } from '../voice.ts';

/** The languages OpenAI's text-to-speech guide lists (Whisper's), as ISO 639-1; English first. */
export const openAiSpeechLanguages = [
  'en', 'af', 'ar', 'hy', 'az', 'be', 'bs', 'bg', 'ca', 'zh', 'hr', 'cs', 'da', 'nl', 'et', 'fi', 'fr',
  'gl', 'de', 'el', 'he', 'hi', 'hu', 'is', 'id', 'it', 'ja', 'kn', 'kk', 'ko', 'lv', 'lt', 'mk', 'ms',
  'mr', 'mi', 'ne', 'no', 'fa', 'pl', 'pt', 'ro', 'ru', 'sr', 'sk', 'sl', 'es', 'sw', 'sv', 'tl', 'ta',
  'th', 'tr', 'uk', 'ur', 'vi', 'cy',
] as const; // prettier-ignore

interface BuiltInVoice {
  name: string;
  /** OpenAI publishes no genders: this is how each voice presents, as its previews sound. */
  gender: VoiceGender;
  locale: 'en-US' | 'en-GB';
  /** Spoken by gpt-4o-mini-tts only. */
  newer?: true;
}

const builtIn: readonly BuiltInVoice[] = [
  { name: 'alloy', gender: 'neutral', locale: 'en-US' },
  { name: 'ash', gender: 'male', locale: 'en-US' },
  { name: 'ballad', gender: 'male', locale: 'en-US', newer: true },
  { name: 'cedar', gender: 'male', locale: 'en-US', newer: true },
  { name: 'coral', gender: 'female', locale: 'en-US' },
  { name: 'echo', gender: 'male', locale: 'en-US' },
  { name: 'fable', gender: 'neutral', locale: 'en-GB' },
  { name: 'marin', gender: 'female', locale: 'en-US', newer: true },
  { name: 'nova', gender: 'female', locale: 'en-US' },
  { name: 'onyx', gender: 'male', locale: 'en-US' },
  { name: 'sage', gender: 'female', locale: 'en-US' },
  { name: 'shimmer', gender: 'female', locale: 'en-US' },
  { name: 'verse', gender: 'male', locale: 'en-US', newer: true },
];

/** The `pcm` and `wav` formats are 24 kHz. */
export const openAiSampleRateHz = 24_000;

const speaksNewerVoices = (model: string) => /^gpt-4o(-mini)?-tts/.test(model);

export function openAiVoices(model: string): Voice[] {
  const others = openAiSpeechLanguages.filter((code) => code !== 'en');
  return builtIn
    .filter((voice) => !voice.newer || speaksNewerVoices(model))
    .map((voice) => ({
      id: `${voice.locale}-openai-${voice.name}`,
      name: `${voice.name[0]!.toUpperCase()}${voice.name.slice(1)} (OpenAI ${model}, multilingual)`,
      languageCodes: [voice.locale, ...others, 'nb'],
      gender: voice.gender,
      provider: 'openai',
      quality: 'neural' as const,
      sampleRateHz: openAiSampleRateHz,
      engineVoice: voice.name,
    }));
}
