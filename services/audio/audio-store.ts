// Where audio files live: a local directory (the default, served by the API under /v1/audio/…) or an
// S3-compatible bucket. Files are content-addressed (audio-key.ts): a key names exactly one content, so a
// file is written once and never changes, and "is it there?" is the whole cache check.
import type { Readable } from 'node:stream';

export const audioFormats = ['mp3', 'wav', 'ogg'] as const;
export type AudioFormat = (typeof audioFormats)[number];

/** What the store keeps beside audio: a documentary's transcripts (WebVTT and JSON), served the same way. */
export const transcriptFormats = ['vtt', 'json'] as const;
export type TranscriptFormat = (typeof transcriptFormats)[number];
export type StoredFormat = AudioFormat | TranscriptFormat;
export const storedFormats = [...audioFormats, ...transcriptFormats] as const;

export const contentTypes: Record<StoredFormat, string> = {
  mp3: 'audio/mpeg',
  wav: 'audio/wav',
  ogg: 'audio/ogg',
  vtt: 'text/vtt; charset=utf-8',
  json: 'application/json; charset=utf-8',
};

export interface StoredAudio {
  key: string;
  /** Bytes. */
  size: number;
  contentType: string;
  /** Length of the audio; null when the writer did not say. */
  durationMs: number | null;
}

/** Inclusive byte range, as HTTP Range means it. */
export interface ByteRange {
  start: number;
  end: number;
}

export interface AudioStore {
  /** What is stored under `key`, or null. */
  head(key: string): Promise<StoredAudio | null>;
  /** Stores `bytes` under `key` (overwriting is harmless: same key, same content). */
  put(
    key: string,
    bytes: Uint8Array,
    meta: { contentType: string; durationMs: number | null },
  ): Promise<StoredAudio>;
  /** The file, or the given range of it; null when there is no such key. */
  read(key: string, range?: ByteRange): Promise<{ audio: StoredAudio; body: Readable } | null>;
}
