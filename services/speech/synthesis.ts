// What the API, the narrator and the documentary processor ask of speech, whatever the provider:
// text in, a stored audio file out. Implemented by synthesizer.ts.
import type { AudioFormat, StoredAudio } from '../audio/audio-store.ts';
import type { Voice } from './voice.ts';

export interface SynthesisRequest {
  /** Plain text; markup in it is read out as text, never interpreted. */
  text: string;
  /** A voice id from GET /v1/voices; when absent, the default voice of `language`. */
  voiceId?: string;
  /** ISO 639-1 (`pt`) or a locale (`pt-BR`); when `voiceId` is given, the voice must speak it. */
  language?: string;
  /** 1.0 = the voice's normal rate; checked against the provider's range. */
  speed?: number;
  format: AudioFormat;
  /**
   * Longest text accepted, in characters; default 5,000 (what POST /v1/synthesize allows). The narrator
   * and the documentary processor pass more for whole articles and scripts.
   */
  maxCharacters?: number;
}

export interface SynthesizedAudio {
  audio: StoredAudio;
  format: AudioFormat;
  voice: Voice;
  durationMs: number;
  /** Characters of the text spoken. */
  characters: number;
  /** True when the file was already stored and nothing was synthesized. */
  cached: boolean;
}

export interface VoiceFilter {
  /** ISO 639-1 or a locale. */
  language?: string;
  gender?: string;
  provider?: string;
}

export interface Synthesis {
  voices(filter?: VoiceFilter): Promise<Voice[]>;
  /**
   * The voice a request would be spoken in. Throws InvalidSpeechRequest naming the field (unknown voice,
   * a voice that does not speak the language, a language no voice speaks).
   */
  voiceFor(request: Pick<SynthesisRequest, 'voiceId' | 'language'>): Promise<Voice>;
  /**
   * Speaks and stores the text, or finds it stored. Throws InvalidSpeechRequest for bad input (empty text,
   * over the length limit, speed out of range), SpeechUnavailableError when the provider is down.
   */
  synthesize(request: SynthesisRequest): Promise<SynthesizedAudio>;
  close(): Promise<void>;
}

/** A request that cannot be spoken as asked; `field` is the request field at fault. */
export class InvalidSpeechRequest extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(`${field}: ${message}`);
    this.name = 'InvalidSpeechRequest';
  }
}
