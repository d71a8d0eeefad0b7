// What every audio store refuses, the same way: a key audioKey could not have made (it never reaches a
// file system or a bucket), and a range that starts past the end of the file.
import { isAudioKey } from './audio-key.ts';
import type { ByteRange } from './audio-store.ts';

export class InvalidAudioKeyError extends Error {
  constructor(key: string) {
    super(`not an audio key: ${JSON.stringify(key.slice(0, 80))} (expected <40 hex>.<mp3|wav|ogg>)`);
    this.name = 'InvalidAudioKeyError';
  }
}

/** A range no byte of the file satisfies; `size` is the file's, for a `Content-Range: bytes *\/size`. */
export class AudioRangeError extends Error {
  constructor(
    readonly range: ByteRange,
    readonly size: number,
  ) {
    super(`range ${range.start}-${range.end} is outside a file of ${size} bytes`);
    this.name = 'AudioRangeError';
  }
}

export function requireAudioKey(key: string): void {
  if (!isAudioKey(key)) throw new InvalidAudioKeyError(key);
}

/** The range within a file of `size` bytes: an end past the last byte is cut to it, as HTTP does. */
export function satisfiableRange(range: ByteRange, size: number): ByteRange {
  const { start, end } = range;
  if (
    !Number.isSafeInteger(start) ||
    !Number.isSafeInteger(end) ||
    start < 0 ||
    end < start ||
    start >= size
  ) {
    throw new AudioRangeError(range, size);
  }
  return { start, end: Math.min(end, size - 1) };
}
