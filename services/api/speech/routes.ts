// GET /v1/voices and POST /v1/synthesize (the reference and overview sets). Speech comes from the
// configured providers (services/speech/): the embedded engines offline, Google or OpenAI when set up.
// A synthesized file is stored under its content address, so the same request twice synthesizes once.
import type { Context } from 'koa';
import { z } from 'zod';
import { audioFormats, contentTypes, type AudioFormat, type AudioStore } from '../../audio/audio-store.ts';
import { ApiError, invalidParameter, notFound } from '../../runtime/api-error.ts';
import { isUnavailable } from '../../runtime/kafka/errors.ts';
import { speechProviderNames } from '../../speech/provider-factory.ts';
import { SpeechConfigurationError, SpeechRejectedError } from '../../speech/provider.ts';
import { InvalidSpeechRequest, type Synthesis, type SynthesizedAudio } from '../../speech/synthesis.ts';
import { voiceGenders, voiceQualities, type Voice } from '../../speech/voice.ts';
import type { AudioUrls } from '../../audio/audio-urls.ts';
import { defineRoute, type RouteSpec } from '../http/route.ts';
import { enumInAnyCase, quote } from '../http/params.ts';
import { isLanguageCode } from '../../sources/source.ts';
import { languageCode } from '../../runtime/language.ts';

export interface SpeechDependencies {
  synthesis: Synthesis;
  store: AudioStore;
  audio: AudioUrls;
}

/**
 * ISO 639-1 (`pt`), ISO 639-3 (`yue`) or a locale (`pt-BR`, `zh-HK`, `en-US-x-nyc`). A three-letter code
 * of a language that has a two-letter one (`eng`, `deu-AT`, `fra`: what ISO 639-2 and 639-3 systems send)
 * is read as that: voices are tagged `en-US`, and `eng` had listed none. Codes without one (`yue`, `cmn`:
 * Google tags its Chinese voices so) stay as written.
 */
const languageTag = z
  .string()
  .regex(/^[A-Za-z]{2,3}(?:[-_][A-Za-z0-9]{1,8})*$/, {
    message: 'must be a language code such as en or a locale such as pt-BR',
  })
  .overwrite(twoLetterPrimary);

function twoLetterPrimary(tag: string): string {
  const [primary, ...rest] = tag.split(/[-_]/);
  // three letters, or a withdrawn two-letter code (iw for he, as Java and Android send it)
  const two = languageCode(primary);
  return two ? [two, ...rest].join('-') : tag;
}

const voiceItem = z
  .object({
    id: z
      .string()
      .meta({ description: 'What `voice` in POST /v1/synthesize takes; starts with its main locale.' }),
    name: z.string(),
    language_codes: z.array(z.string()).meta({ description: 'BCP 47 tags it speaks, its main one first.' }),
    gender: z.enum(voiceGenders),
    provider: z.string().meta({ description: '`embedded` (offline), `google` or `openai`.' }),
    quality: z.enum(voiceQualities).meta({
      description:
        'neural (Google Neural2/WaveNet/Studio…, OpenAI), parametric (statistical synthesis: Festival HTS), ' +
        'standard (a provider’s non-neural tier), formant (rule-based: espeak-ng).',
    }),
    sample_rate_hz: z.number().int(),
  })
  .meta({ id: 'Voice' });

export const voiceView = (voice: Voice): z.output<typeof voiceItem> => ({
  id: voice.id,
  name: voice.name,
  language_codes: voice.languageCodes,
  gender: voice.gender,
  provider: voice.provider,
  quality: voice.quality,
  sample_rate_hz: voice.sampleRateHz,
});

/**
 * What `format` takes: the audio formats, and `url`, for clients that read the interface's "audio as
 * binary data or as a URL depending on the requested format" as a format that answers a URL.
 */
const requestFormats = [...audioFormats, 'url'] as const;

const synthesizeRequest = z
  .object({
    text: z.string({ error: 'must be a string' }).meta({
      maxLength: 5000,
      description:
        'Up to 5,000 characters, read as plain text (markup is spoken, never interpreted), with at least ' +
        'one letter or digit (emoji and punctuation alone are not read aloud).',
    }),
    voice: z
      .string()
      .min(1)
      .max(200)
      .optional()
      .meta({
        description:
          'A voice id from GET /v1/voices; without it, the default voice of `language`. A locale-prefixed name ' +
          'of a voice not offered (en-US-JennyNeural) is spoken by that locale’s default voice, named in the answer.',
      }),
    language: languageTag.optional().meta({
      description:
        'ISO 639-1 or a locale; with `voice`, the voice must speak it. Default: the text’s own language where ' +
        'it can be told (from about 120 characters, or by its script), else English.',
    }),
    speed: z.number({ error: 'must be a number' }).optional().meta({
      description: '1.0 is the voice’s normal rate; the range is the provider’s (embedded 0.5–2.5).',
    }),
    // In any case (`MP3`), and the names clients also use for these formats.
    format: enumInAnyCase(requestFormats, { mpeg: 'mp3', wave: 'wav', opus: 'ogg', oga: 'ogg' })
      .optional()
      .meta({
        default: 'mp3',
        description:
          'mp3, wav or ogg (Opus), in any case; `url`: an mp3 answered as JSON with its signed URL, as ' +
          '`Accept: application/json` does for any format. Default: the audio type `Accept` prefers ' +
          '(audio/mpeg, audio/wav, audio/ogg), else mp3.',
      }),
  })
  .meta({ id: 'SynthesizeRequest' });

const synthesizedItem = z
  .object({
    audio_url: z.string().meta({
      description: 'Signed, expiring URL of the file: plays in a browser or podcast player without a key.',
    }),
    format: z.enum(audioFormats),
    voice: z.string(),
    duration_ms: z.number().int(),
    characters: z.number().int(),
  })
  .meta({ id: 'Synthesized' });

/**
 * Speech errors in the API's vocabulary: bad input 400 (text over the length limit too), a provider that is
 * down, refuses our settings or answers no audio 503. The provider's own message stays in the logs: it
 * names where the provider lives and which setting to check, which is the operator's business.
 */
export function speechError(error: unknown): unknown {
  if (error instanceof InvalidSpeechRequest) {
    return invalidParameter(error.field, error.message.slice(error.field.length + 2));
  }
  if (error instanceof SpeechConfigurationError) {
    return new ApiError(
      'provider_unavailable',
      'the speech provider refuses this service’s account or settings; an operator has to fix them',
      { 'Retry-After': '60' },
      { cause: error },
    );
  }
  if (error instanceof SpeechRejectedError) {
    // Not a bug of ours (a 500 would say so): the provider failed on this request.
    return new ApiError(
      'provider_unavailable',
      'the speech provider refused this request or answered something that is not audio; try again, ' +
        'or another voice',
      { 'Retry-After': '5' },
      { cause: error },
    );
  }
  if (isUnavailable(error)) {
    return new ApiError(
      'provider_unavailable',
      'the speech provider cannot be reached right now; retry shortly',
      { 'Retry-After': '5' },
      { cause: error },
    );
  }
  return error;
}

/** `work`, with speech errors turned into API errors. */
export async function speaking<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw speechError(error);
  }
}

export const synthesizedView = (result: SynthesizedAudio, audio: AudioUrls) => ({
  audio_url: audio.urlFor(result.audio.key),
  format: result.format,
  voice: result.voice.id,
  duration_ms: result.durationMs,
  characters: result.characters,
});

async function sendAudio(ctx: Context, result: SynthesizedAudio, store: AudioStore): Promise<void> {
  const file = await store.read(result.audio.key);
  if (!file) throw notFound('the audio file was stored but cannot be read back; try again');
  ctx.status = 200;
  ctx.type = contentTypes[result.format];
  ctx.length = file.audio.size;
  ctx.set('Content-Disposition', `inline; filename="speech.${result.format}"`);
  ctx.set('Audio-Voice', result.voice.id);
  ctx.set('Audio-Duration-Ms', String(result.durationMs));
  ctx.body = file.body;
}

/**
 * The audio format to make and whether to answer JSON instead of its bytes. `format` given: that format,
 * as bytes unless Accept prefers JSON, and 406 if Accept takes neither (an mp3 sent to a client that
 * asked for audio/wav alone would be played as noise). Left out: the audio type Accept prefers, mp3 when
 * it prefers none.
 */
function answerFormat(
  ctx: Context,
  asked: (typeof requestFormats)[number] | undefined,
): { format: AudioFormat; asJson: boolean } {
  const json = 'application/json';
  if (asked === 'url') {
    // JSON whatever audio type Accept names, but not to a client whose Accept refuses JSON itself.
    if (refusesJson(ctx.get('Accept')))
      throw new ApiError(
        'not_acceptable',
        `format url is answered as application/json, which Accept ${quote(ctx.get('Accept'))} does not ` +
          'accept; accept application/json, or ask for an audio format',
      );
    return { format: 'mp3', asJson: true };
  }
  if (asked === undefined) {
    const preferred = ctx.accepts(...audioFormats.map((f) => contentTypes[f]), json);
    const format = audioFormats.find((f) => contentTypes[f] === preferred) ?? 'mp3';
    return { format, asJson: preferred === json };
  }
  const preferred = ctx.accepts(contentTypes[asked], json);
  if (preferred === false) {
    throw new ApiError(
      'not_acceptable',
      `format ${asked} is sent as ${contentTypes[asked]}, which Accept ${quote(ctx.get('Accept'))} does not ` +
        `accept; leave format out to get the audio type Accept names, or accept ${contentTypes[asked]} or ` +
        `application/json`,
    );
  }
  return { format: asked, asJson: preferred === json };
}

/**
 * Whether Accept refuses JSON in so many words: the most specific of its ranges that covers
 * application/json (`application/json`, else `application/*`, else `*\/*`) has q=0. One that names
 * only audio types does not: `format: "url"` asks for JSON whatever audio type Accept names.
 */
export function refusesJson(accept: string): boolean {
  let best: { specificity: number; q: number } | null = null;
  for (const entry of accept.split(',')) {
    const [range = '', ...params] = entry.split(';').map((part) => part.trim().toLowerCase());
    const specificity =
      range === 'application/json' ? 3 : range === 'application/*' ? 2 : range === '*/*' ? 1 : 0;
    if (specificity === 0 || (best && best.specificity >= specificity)) continue;
    const q = params.find((param) => /^q\s*=/.test(param));
    best = { specificity, q: q === undefined ? 1 : Number(q.replace(/^q\s*=\s*/, '')) };
  }
  return best !== null && best.q === 0;
}

export function speechRoutes(deps: SpeechDependencies): RouteSpec[] {
  return [
    defineRoute({
      method: 'get',
      path: '/v1/voices',
      operationId: 'listVoices',
      tag: 'Speech',
      scope: 'use:audio',
      summary: 'The voices speech can be synthesized in',
      description:
        'Every voice of the configured providers. Offline (the default) that is Festival’s HTS voice for US ' +
        'English and espeak-ng’s voices for about 130 other languages and accents; Google and OpenAI voices ' +
        'appear when those providers are configured.',
      query: z.object({
        language: languageTag
          // A two-letter code that names no language is a typo, not a language without voices.
          .refine(
            (tag) => {
              const primary = tag.split(/[-_]/)[0]!.toLowerCase();
              return primary.length !== 2 || isLanguageCode(primary);
            },
            { error: (issue) => `"${String(issue.input)}" does not start with an ISO 639-1 language code` },
          )
          .optional()
          .meta({ description: 'ISO 639-1 (`pt`) or a locale (`pt-BR`).' }),
        gender: enumInAnyCase(voiceGenders).optional(),
        // In any case, as gender is.
        provider: enumInAnyCase(speechProviderNames).optional(),
      }),
      responses: {
        200: {
          description:
            'The voices, the default provider’s first; with `language`, the voice /v1/synthesize speaks it with by default first',
          schema: z.object({ voices: z.array(voiceItem), count: z.number().int() }).meta({ id: 'VoiceList' }),
        },
      },
      errors: ['provider_unavailable'],
      handler: async (ctx, { query }) => {
        const voices = await speaking(() => deps.synthesis.voices(query));
        ctx.body = { voices: voices.map(voiceView), count: voices.length };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/v1/synthesize',
      operationId: 'synthesizeSpeech',
      tag: 'Speech',
      scope: 'use:audio',
      summary: 'Text to speech: audio bytes, or a URL to them',
      description:
        'Answers the audio itself (Content-Type audio/mpeg, audio/wav or audio/ogg), or, with ' +
        '`Accept: application/json`, a signed URL to it. Text over 5,000 characters answers 400 invalid_parameter. The same ' +
        'request again is served from storage without synthesizing.',
      body: synthesizeRequest,
      responses: {
        200: {
          description: 'The audio, or with Accept: application/json where to fetch it',
          schema: synthesizedItem,
          binary: audioFormats.map((format) => contentTypes[format]),
          headers: {
            'Audio-Voice': 'The id of the voice that spoke (GET /v1/voices).',
            'Audio-Duration-Ms': 'The length of the audio in milliseconds.',
          },
        },
      },
      errors: ['invalid_json', 'unsupported_media_type', 'provider_unavailable'],
      handler: async (ctx, { body }) => {
        const { format, asJson } = answerFormat(ctx, body.format);
        const result = await speaking(() =>
          deps.synthesis.synthesize({
            text: body.text,
            format,
            ...(body.voice !== undefined ? { voiceId: body.voice } : {}),
            ...(body.language !== undefined ? { language: body.language } : {}),
            ...(body.speed !== undefined ? { speed: body.speed } : {}),
          }),
        );
        if (asJson) {
          ctx.body = synthesizedView(result, deps.audio);
          return;
        }
        await sendAudio(ctx, result, deps.store);
      },
    }),
  ];
}
