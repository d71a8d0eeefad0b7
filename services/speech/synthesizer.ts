// Synthesis over the configured speech providers (the first is the default) and an audio store: picks
// the voice, checks the request, finds the file already stored or speaks the text piece by piece within
// the provider's limits, joins the pieces with a sentence pause, encodes and stores the result under its
// content address. The same for every provider, so a provider only turns short text into PCM.
import { Counter, type Registry } from 'prom-client';
import { audioFormats, contentTypes, type AudioFormat, type AudioStore } from '../audio/audio-store.ts';
import { audioKey } from '../audio/audio-key.ts';
import type { Logger } from '../runtime/logger.ts';
import { languageOrUsual, textLanguage } from '../runtime/language.ts';
import { characterCount } from '../runtime/character-count.ts';
import { encodeAudio } from './encoder.ts';
import { durationMs, joinSpeech } from './pcm.ts';
import { SpeechRejectedError, type Pcm, type SpeechProvider } from './provider.ts';
import {
  InvalidSpeechRequest,
  type Synthesis,
  type SynthesisRequest,
  type SynthesizedAudio,
  type VoiceFilter,
} from './synthesis.ts';
import { normaliseWhitespace, splitText, UnsplittableTextError } from './text-chunks.ts';
import { speakableText } from './speakable-text.ts';
import { languageOf, speaks, type Voice, type VoiceQuality } from './voice.ts';

/**
 * Part of every audio key: bump it when a change makes the same request sound different (the join
 * pause, the encoder settings, an engine option, what an engine is given), so that new requests get the
 * new sound. speech-2: Festival is given ASCII (festival-text.ts).
 */
export const speechPipelineVersion = 'speech-2';

/** Longest text one API request may carry, as the large providers allow. */
export const apiMaxCharacters = 5_000;

export interface SynthesizerOptions {
  /** The configured providers; the first is the default (its voices are preferred for a language). */
  providers: readonly SpeechProvider[];
  store: AudioStore;
  /**
   * Longest text a request may carry, in characters (Unicode code points). The API keeps 5,000; the
   * narrator raises it for whole articles (memory: the joined PCM is about 3 KB per character).
   */
  maxCharacters?: number;
  /** Pieces of one request spoken at once (processes for the embedded engines, requests for a remote one). */
  concurrency?: number;
  /** Silence between two pieces when the provider does not say its voices' sentence pause. */
  pauseMs?: number;
  /** Called before each provider request, with the provider's name and the piece's length. */
  onProviderCall?: (provider: string, characters: number) => void;
  /** Where `speech_provider_requests_total{provider}` is counted. */
  metrics?: Registry;
  encode?: (pcm: Pcm, format: AudioFormat) => Promise<Uint8Array>;
  logger?: Logger;
}

const qualityRank: Record<VoiceQuality, number> = { neural: 0, parametric: 1, standard: 2, formant: 3 };

const normaliseTag = (tag: string) => tag.trim().replace(/_/g, '-').toLowerCase();

/**
 * The locale a cloud provider's voice name starts with, normalised (en-US-JennyNeural, en-US-Neural2-F:
 * en-us; cmn-CN-Wavenet-A: cmn-cn); undefined for a name that starts with none (alloy).
 */
const localeOfVoiceName = (name: string): string | undefined => {
  const match = /^([a-z]{2,3})[-_]([a-z]{2}|\d{3})[-_]/i.exec(name.trim());
  return match ? normaliseTag(`${match[1]}-${match[2]}`) : undefined;
};

/**
 * How well a voice answers for `language` (lower is better): its main tag is exactly it, another of its
 * tags is, its main tag is of that language (pt-PT for pt-BR), or only another tag is.
 */
function matchRank(voice: Voice, language: string): number {
  const tags = voice.languageCodes.map(normaliseTag);
  if (tags[0] === language) return 0;
  if (tags.includes(language)) return 1;
  if (languageOf(tags[0]!) === languageOf(language)) return 2;
  return 3;
}

/** A letter or digit of any script: what a voice reads. */
const speakable = /[\p{L}\p{N}]/u;

export function createSynthesizer(options: SynthesizerOptions): Synthesis {
  if (options.providers.length === 0) throw new Error('speech needs at least one provider');
  const maxCharacters = options.maxCharacters ?? apiMaxCharacters;
  const concurrency = Math.max(1, options.concurrency ?? 2);
  const pauseMs = options.pauseMs ?? 350;
  const encode = options.encode ?? ((pcm: Pcm, format: AudioFormat) => encodeAudio(pcm, format));
  const requests = options.metrics
    ? new Counter({
        name: 'speech_provider_requests_total',
        help: 'Requests made to a speech provider (one per piece of text spoken)',
        labelNames: ['provider'],
        registers: [options.metrics],
      })
    : undefined;
  /** Requests being synthesized, by key: a second identical request waits for the first. */
  const inFlight = new Map<string, Promise<SynthesizedAudio>>();

  const providerOf = (voice: Voice) => {
    const provider = options.providers.find((p) => p.name === voice.provider);
    if (!provider) throw new Error(`no provider ${voice.provider} for voice ${voice.id}`);
    return provider;
  };

  type RankedVoice = { voice: Voice; provider: number; order: number };

  async function allVoices(): Promise<RankedVoice[]> {
    const lists = await Promise.all(options.providers.map((provider) => provider.voices()));
    return lists.flatMap((voices, provider) => voices.map((voice, order) => ({ voice, provider, order })));
  }

  async function voiceFor(request: Pick<SynthesisRequest, 'voiceId' | 'language'>): Promise<Voice> {
    const voices = await allVoices();
    const language = request.language === undefined ? undefined : normaliseTag(request.language);
    if (request.voiceId !== undefined) {
      const found =
        voices.find(({ voice }) => voice.id === request.voiceId) ??
        voices.find(({ voice }) => voice.id.toLowerCase() === request.voiceId!.toLowerCase());
      if (!found) {
        // A locale-prefixed name of a voice not offered here (en-US-JennyNeural, en-GB-Neural2-A: the
        // interface's "neural voice identifier") is spoken by that locale's default voice, which the
        // answer names, rather than refused: the caller asked for a voice of that locale.
        const locale = localeOfVoiceName(request.voiceId);
        if (locale !== undefined && language !== undefined && languageOf(language) !== languageOf(locale)) {
          throw new InvalidSpeechRequest(
            'language',
            `voice "${request.voiceId}" names another language than "${request.language}"; leave out ` +
              `voice to get the default voice of "${request.language}"`,
          );
        }
        const standIn =
          locale !== undefined
            ? defaultVoiceOf(voices, language?.includes('-') ? language : locale)
            : undefined;
        if (standIn) return standIn;
        throw new InvalidSpeechRequest(
          'voice',
          `unknown voice "${request.voiceId}"; GET /v1/voices lists the voices offered`,
        );
      }
      if (language !== undefined && !speaks(found.voice, language)) {
        throw new InvalidSpeechRequest(
          'language',
          `voice ${found.voice.id} does not speak "${request.language}" (it speaks ` +
            `${found.voice.languageCodes.join(', ')}); leave out voice to get that language's default voice`,
        );
      }
      return found.voice;
    }
    if (language === undefined) {
      // No language asked for: English, the API's documented default, and US English before other
      // accents. Not simply the default provider's first voice: Google lists its voices by name, so that
      // would be Afrikaans. The default provider's English first, then the better engine.
      const english = voices.filter(({ voice }) => speaks(voice, 'en'));
      english.sort(
        (a, b) =>
          a.provider - b.provider ||
          matchRank(a.voice, 'en-us') - matchRank(b.voice, 'en-us') ||
          qualityRank[a.voice.quality] - qualityRank[b.voice.quality] ||
          a.order - b.order,
      );
      return english[0]?.voice ?? voices.find(({ provider }) => provider === 0)?.voice ?? voices[0]!.voice;
    }
    const chosen = defaultVoiceOf(voices, language);
    if (!chosen) {
      throw new InvalidSpeechRequest(
        'language',
        `no voice speaks "${request.language}"; GET /v1/voices lists the voices and their languages`,
      );
    }
    return chosen;
  }

  /**
   * The request's voice; with neither a voice nor a language asked for, the default voice of the text's
   * own language where it can be told, English otherwise: Latin text is English unless detection plainly
   * finds another language (languageOrUsual), any other script's text the language it tells (textLanguage). A text with no Latin letter in a
   * language no voice speaks is refused: the English voice read "Банк повысил ставку." as silence.
   */
  async function voiceOfText(request: SynthesisRequest, text: string): Promise<Voice> {
    if (request.voiceId !== undefined || request.language !== undefined) return voiceFor(request);
    const told = /\p{Script=Latin}/u.test(text) ? languageOrUsual(text, 'en') : textLanguage(text);
    // Letters, none of them Latin, in a script that tells no language (Cherokee, Runic, Javanese…):
    // the English voice would read them as silence, and no other voice can be chosen for them.
    if (told === null && /\p{L}/u.test(text) && !/\p{Script=Latin}/u.test(text)) {
      throw new InvalidSpeechRequest(
        'language',
        "the text's letters are in a script whose language could not be told, none of them Latin, which " +
          'the default English voice reads as silence; give a voice or a language from GET /v1/voices',
      );
    }
    if (told === null || told === 'en') return voiceFor(request);
    try {
      return await voiceFor({ language: told });
    } catch (error) {
      if (!(error instanceof InvalidSpeechRequest) || /\p{Script=Latin}/u.test(text))
        return voiceFor(request);
      throw new InvalidSpeechRequest(
        'language',
        `the text reads as "${told}", which no voice here speaks; give a voice or a language from ` +
          'GET /v1/voices',
      );
    }
  }

  /** The default voice of a (normalised) language tag among `voices`, or undefined when none speaks it. */
  function defaultVoiceOf(voices: RankedVoice[], language: string): Voice | undefined {
    const candidates = voices.filter(({ voice }) => speaks(voice, languageOf(language)));
    if (candidates.length === 0) return undefined;
    candidates.sort(byPreference(language));
    return candidates[0]!.voice;
  }

  /**
   * The voices of a (normalised) language tag, the one to speak it first. A locale asked for (pt-BR) is
   * honoured before the provider preference: an accent is what the listener asked for. For a bare
   * language (pt) every voice of it is as good, so the default provider comes first, then the closest
   * tag, then the better engine, then the provider's own order.
   */
  function byPreference(language: string) {
    const tier = (voice: Voice) => (language.includes('-') && matchRank(voice, language) > 1 ? 1 : 0);
    return (a: RankedVoice, b: RankedVoice) =>
      tier(a.voice) - tier(b.voice) ||
      a.provider - b.provider ||
      matchRank(a.voice, language) - matchRank(b.voice, language) ||
      qualityRank[a.voice.quality] - qualityRank[b.voice.quality] ||
      a.order - b.order;
  }

  /** Speaks the pieces, at most `concurrency` at once; the first failure stops the rest. */
  async function speakPieces(provider: SpeechProvider, pieces: string[], voice: Voice, speed: number) {
    const spoken: Pcm[] = new Array<Pcm>(pieces.length);
    let next = 0;
    let failed = false;
    const worker = async () => {
      while (!failed && next < pieces.length) {
        const index = next++;
        const text = pieces[index]!;
        options.onProviderCall?.(provider.name, text.length);
        requests?.inc({ provider: provider.name });
        try {
          spoken[index] = await provider.synthesize({ text, voice, speed });
        } catch (error) {
          failed = true;
          throw error;
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(concurrency, pieces.length) }, worker));
    return spoken;
  }

  async function speak(
    key: string,
    text: string,
    voice: Voice,
    speed: number,
    format: AudioFormat,
    characters: number,
  ): Promise<SynthesizedAudio> {
    const stored = await options.store.head(key);
    if (stored) {
      return { audio: stored, format, voice, durationMs: stored.durationMs ?? 0, characters, cached: true };
    }
    const provider = providerOf(voice);
    let pieces: string[];
    try {
      pieces = splitText(text, provider.textLimits?.(voice) ?? provider.limits);
    } catch (error) {
      if (error instanceof UnsplittableTextError) throw new InvalidSpeechRequest('text', error.message);
      throw error;
    }
    const started = Date.now();
    let spoken: Pcm[];
    try {
      spoken = await speakPieces(provider, pieces, voice, speed);
    } catch (error) {
      // The API answers callers without the provider's words (where it lives, which setting to check):
      // they are kept here for the operator.
      options.logger?.warn({ err: error, key, provider: provider.name, voice: voice.id }, 'speech failed');
      throw error;
    }
    const sampleRates = new Set(spoken.map((pcm) => pcm.sampleRate));
    if (sampleRates.size > 1) {
      throw new SpeechRejectedError(
        `${provider.name} answered pieces at different sample rates: ${[...sampleRates].join(', ')} Hz`,
      );
    }
    const joined = joinSpeech(spoken, { pauseMs: provider.sentencePauseMs?.(voice) ?? pauseMs });
    const duration = Math.round(durationMs(joined));
    const bytes = await encode(joined, format);
    const audio = await options.store.put(key, bytes, {
      contentType: contentTypes[format],
      durationMs: duration,
    });
    options.logger?.debug(
      {
        key,
        provider: provider.name,
        voice: voice.id,
        pieces: pieces.length,
        characters,
        durationMs: duration,
        ms: Date.now() - started,
      },
      'speech synthesized',
    );
    return { audio, format, voice, durationMs: duration, characters, cached: false };
  }

  return {
    async voices(filter: VoiceFilter = {}) {
      const gender = filter.gender?.toLowerCase();
      const provider = filter.provider?.toLowerCase();
      const chosen = (await allVoices())
        .map(({ voice }) => voice)
        .filter(
          (voice) =>
            (gender === undefined || voice.gender === gender) &&
            (provider === undefined || voice.provider === provider),
        );
      if (filter.language === undefined) return chosen;
      const exact = chosen.filter((voice) => speaks(voice, filter.language!));
      // A locale no voice has (zh-CN, fr-CA) lists its language's voices, the ones synthesis falls back
      // to for it (voiceFor): a voice picker filtering by the listener's locale had shown none.
      const listed =
        exact.length > 0 || (!filter.language.includes('-') && !filter.language.includes('_'))
          ? exact
          : chosen.filter((voice) => speaks(voice, languageOf(filter.language!)));
      // In the order synthesis prefers them, so the first is the language's default voice: zh listed the
      // Cantonese voices (which speak zh among others) before the Mandarin one synthesis picks.
      const ranked = (await allVoices()).filter(({ voice }) => listed.includes(voice));
      ranked.sort(byPreference(normaliseTag(filter.language)));
      return ranked.map(({ voice }) => voice);
    },

    voiceFor,

    async synthesize(request) {
      if (!(audioFormats as readonly string[]).includes(request.format)) {
        throw new InvalidSpeechRequest(
          'format',
          `unknown format "${String(request.format)}"; one of ${audioFormats.join(', ')}`,
        );
      }
      const text = normaliseWhitespace(typeof request.text === 'string' ? request.text : '');
      if (!text) throw new InvalidSpeechRequest('text', 'is empty; give the text to speak');
      // Emoji, punctuation and control characters alone are not read aloud: every voice answered them
      // with silence, which a caller would have paid for and played.
      if (!speakable.test(text))
        throw new InvalidSpeechRequest(
          'text',
          'has nothing to speak: no letter or digit (emoji, punctuation and control characters are not read aloud)',
        );
      const characters = characterCount(text);
      const limit = request.maxCharacters ?? maxCharacters;
      if (characters > limit) {
        throw new InvalidSpeechRequest(
          'text',
          `is ${characters.toLocaleString('en')} characters; the limit is ${limit.toLocaleString('en')} per request`,
        );
      }
      const voice = await voiceOfText(request, text);
      // Speech a listener could not follow is refused before it is made (and paid for, and stored).
      const unreadable = providerOf(voice).unreadable?.(voice, text);
      if (unreadable) throw new InvalidSpeechRequest('text', `cannot be read by ${voice.id}: ${unreadable}`);
      const speed = request.speed ?? 1;
      const range = providerOf(voice).limits.speed;
      if (!Number.isFinite(speed) || speed < range.min || speed > range.max) {
        throw new InvalidSpeechRequest(
          'speed',
          `${speed} is outside ${voice.provider}'s range, ${range.min} to ${range.max} (1.0 is the voice's normal rate)`,
        );
      }
      const language = request.language === undefined ? null : normaliseTag(request.language);
      // Billed as written (`characters`), spoken without what costs seconds and sounds like nothing.
      const spoken = speakableText(text);
      const key = audioKey(request.format, [
        speechPipelineVersion,
        voice.provider,
        providerOf(voice).variant ?? null,
        voice.id,
        language,
        speed,
        spoken,
      ]);
      // The same request already being spoken (two listeners, a replay racing the original) waits for it.
      const running = inFlight.get(key);
      if (running) return running.then((result) => ({ ...result, cached: true }));
      const work = speak(key, spoken, voice, speed, request.format, characters).finally(() =>
        inFlight.delete(key),
      );
      inFlight.set(key, work);
      return work;
    },

    async close() {
      await Promise.all(options.providers.map((provider) => provider.close?.() ?? Promise.resolve()));
    },
  };
}
