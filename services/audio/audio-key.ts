// Audio files are content-addressed: the key is a hash of everything that decides the sound (for speech:
// provider, voice, language, speed, format, the text, and the version of the pipeline that made it),
// plus the format as extension. The same request therefore maps to the same key, so a second request,
// a replay or a re-narration finds the file and synthesizes nothing, and a stored file never changes.
import { createHash } from 'node:crypto';
import { storedFormats, type StoredFormat } from './audio-store.ts';

/** `<40 hex>.<format>`: 160 bits of SHA-256 over the identity, unambiguous however its parts read. */
export function audioKey(format: StoredFormat, identity: readonly (string | number | null)[]): string {
  const digest = createHash('sha256')
    .update(JSON.stringify([format, ...identity]), 'utf8')
    .digest('hex');
  return `${digest.slice(0, 40)}.${format}`;
}

const keyPattern = new RegExp(`^[0-9a-f]{40}\\.(${storedFormats.join('|')})$`);

/** Whether `value` is a key audioKey could have made (anything else is refused before it reaches a store). */
export const isAudioKey = (value: string): boolean => keyPattern.test(value);

/** The format a key was made for. */
export const formatOfKey = (key: string): StoredFormat => key.slice(key.lastIndexOf('.') + 1) as StoredFormat;
