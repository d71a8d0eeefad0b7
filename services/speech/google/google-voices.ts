// Google's voices as GET /v1/voices lists them. Google names a voice `<locale>-<family>-<variant>`
// (`en-US-Standard-A`, `en-US-Wavenet-D`, `en-US-Neural2-F`, `en-US-News-K`, `en-US-Studio-O`,
// `en-US-Polyglot-1`, `en-US-Casual-K`, `en-US-Journey-D`, `en-US-Chirp-HD-F`, `en-US-Chirp3-HD-Achernar`,
// `cmn-CN-Wavenet-A`): the name is already locale-prefixed and unique, so it is the id as it is.
//
// Quality: Standard is Google's one non-neural tier; every family it has added since (WaveNet in 2017,
// then Neural2, News, Studio, Polyglot, Casual, Journey, Chirp HD, Chirp 3 HD) is a neural model. So a
// Standard voice is `standard` and any other, including a family newer than this list, is `neural`.
import type { protos } from '@google-cloud/text-to-speech';
import type { Voice, VoiceGender } from '../voice.ts';

type GoogleVoice = protos.google.cloud.texttospeech.v1.IVoice;

const languageNames = new Intl.DisplayNames(['en'], { type: 'language' });

export function voiceFromGoogle(google: GoogleVoice): Voice | null {
  const name = google.name?.trim();
  const languageCodes = (google.languageCodes ?? []).filter((code) => code.trim().length > 0);
  const main = languageCodes[0];
  if (!name || !main) return null;
  // Ids start with the voice's main locale; a name that does not (none today) gets it in front.
  const prefixed = name.toLowerCase().startsWith(`${main.toLowerCase()}-`);
  const id = prefixed ? name : `${main}-${name}`;
  const { family, variant } = familyOf(prefixed ? name.slice(main.length + 1) : name);
  return {
    id,
    name: `${family}${variant ? ` ${variant}` : ''} (${languageName(main)})`,
    languageCodes,
    gender: genderOf(google.ssmlGender),
    provider: 'google',
    quality: /^standard$/i.test(family) ? 'standard' : 'neural',
    sampleRateHz: positive(google.naturalSampleRateHertz) ?? 24_000,
    engineVoice: name,
  };
}

/** `Chirp3-HD-Achernar` -> Chirp3-HD + Achernar; `Neural2-F` -> Neural2 + F. */
function familyOf(rest: string): { family: string; variant: string } {
  const cut = rest.lastIndexOf('-');
  return cut > 0
    ? { family: rest.slice(0, cut), variant: rest.slice(cut + 1) }
    : { family: rest, variant: '' };
}

// Over gRPC the enum arrives as its name, over the REST fallback as its number.
const genders: Record<string, VoiceGender> = {
  MALE: 'male',
  FEMALE: 'female',
  NEUTRAL: 'neutral',
  1: 'male',
  2: 'female',
  3: 'neutral',
};

/** SSML_VOICE_GENDER_UNSPECIFIED says nothing, so it is shown as neutral rather than guessed. */
const genderOf = (gender: GoogleVoice['ssmlGender']): VoiceGender =>
  gender === null || gender === undefined ? 'neutral' : (genders[String(gender)] ?? 'neutral');

function languageName(tag: string): string {
  try {
    return languageNames.of(tag) ?? tag;
  } catch {
    return tag;
  }
}

function positive(value: number | null | undefined): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : undefined;
}
