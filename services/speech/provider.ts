// The one interface every speech provider implements (docs/architecture.md, "Providers"): the embedded
// engines that work offline (Festival for English, espeak-ng for every other language) and, when
// configured, Google Cloud Text-to-Speech and OpenAI. A provider turns one piece of text that fits its
// limits into mono 16-bit PCM in one voice; splitting long text, joining the pieces, encoding, caching
// and storing are the synthesizer's (synthesizer.ts), the same for every provider.
import { DependencyUnavailableError } from '../runtime/kafka/errors.ts';
import type { Voice } from './voice.ts';

/** Mono, signed 16-bit samples. */
export interface Pcm {
  sampleRate: number;
  samples: Int16Array;
}

export interface SpeechLimits {
  /** Longest text one request may carry, in characters (OpenAI: 4,096). */
  maxChars?: number;
  /** ... or in UTF-8 bytes (Google: 5,000). */
  maxBytes?: number;
  /** Speeds it accepts, 1.0 being the voice's normal rate. */
  speed: { min: number; max: number };
}

export interface SpeechRequest {
  /** Plain text within the provider's limits; never interpreted as markup. */
  text: string;
  voice: Voice;
  speed: number;
}

export interface SpeechProvider {
  /** `embedded`, `google`, `openai`: the `provider` of its voices and of narration events. */
  readonly name: string;
  /**
   * Whatever else decides how its voices sound (a model name), so that audio cached under one model is
   * not served after a switch to another. Part of every audio key.
   */
  readonly variant?: string;
  readonly limits: SpeechLimits;
  /**
   * How much text one request in `voice` may carry, where it differs from `limits` (an engine that costs
   * the same at any length need not be cut as finely as another of the same provider). Optional.
   */
  textLimits?(voice: Voice): Pick<SpeechLimits, 'maxChars' | 'maxBytes'>;
  /**
   * Why `voice` cannot read `text` (it speaks the language, not this script of it), or null when it can.
   * Optional: every voice reads every text of its language.
   */
  unreadable?(voice: Voice, text: string): string | null;
  /** Every voice it offers. May be cached by the provider; cheap to call again. */
  voices(): Promise<Voice[]>;
  /**
   * Speaks one piece of text. Throws SpeechUnavailableError when the provider cannot be reached or keeps
   * refusing for load (after its own retries), SpeechRejectedError when it refuses this input or answers
   * something that is not audio.
   */
  synthesize(request: SpeechRequest): Promise<Pcm>;
  /**
   * The silence `voice` leaves between two sentences, in ms. Where the synthesizer joins two pieces of a
   * long text it puts as much silence, so a join sounds like any other sentence break of that voice.
   * Optional: 350 ms otherwise.
   */
  sentencePauseMs?(voice: Voice): number;
  /** Stops any process or connection it keeps. */
  close?(): Promise<void>;
}

/**
 * The provider cannot be reached or is overloaded: not the text's fault. The API answers 503
 * `provider_unavailable`; a consumer (the narrator) waits for it instead of recording a failure, since a
 * DependencyUnavailableError makes the consumer runtime wait without using up attempts.
 */
export class SpeechUnavailableError extends DependencyUnavailableError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'SpeechUnavailableError';
  }
}

/** The provider refused this request or answered with something unusable: retrying will not help. */
export class SpeechRejectedError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'SpeechRejectedError';
  }
}

/**
 * The provider refuses our credentials or configuration (HTTP 401/403, gRPC UNAUTHENTICATED or
 * PERMISSION_DENIED, an unknown model, an account without quota): neither the text's fault, so not a
 * SpeechRejectedError that would record work as failed for good, nor an outage that passes by itself, so
 * not a SpeechUnavailableError either. The message names the setting to check and never the credential.
 * It is a DependencyUnavailableError, so a consumer (the narrator) waits for an operator to fix the
 * setting instead of failing every article meanwhile; the API answers it as a server-side problem.
 */
export class SpeechConfigurationError extends DependencyUnavailableError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'SpeechConfigurationError';
  }
}
